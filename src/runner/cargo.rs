//! Building one harness binary with cargo, within limits, and sorting rustc's messages; the cargo
//! process itself (its command, streams, deadlines and confinement) is `super::cargo_run`'s.
//!
//! cargo compiles learner code, and compiling can be made to hang (an endless const evaluation,
//! `include_bytes!` of a FIFO) or to eat memory. So cargo runs as its own process group under an
//! address-space limit, killed on a time limit and whenever tutor goes away, from a neutral
//! working folder so that no `.cargo/config.toml` of the course folder is read.
//!
//! Compiling can also read any file the compiler may open, and `.incbin` in `global_asm!` does
//! so without a trace in the dep-info. So every build runs in a Landlock domain
//! ([`Confinement::for_build`](super::confine::Confinement::for_build)) that lets it read the
//! system, the toolchain and the harness only, and write beneath the harness's `target/` only: a
//! learner's file that embeds the progress file or a solution fails to compile. The
//! dependencies, which may need downloading, are built in a domain that may write beneath
//! `CARGO_HOME` too, never with the learner's file.

use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::Duration;

use anyhow::Result;

use super::cargo_run::{cargo_command, run_cargo, Stage};
pub use super::diagnostic::Diagnostic;
use super::diagnostic::{compiler_death, Failure, Messages};
use super::process::Cancel;
use super::replay::Invocation;

/// Address space cargo and rustc may use together: plenty for this harness (rustc reserves far
/// more than it touches), and a bound on a compile-time allocation gone wild.
pub const MEMORY_LIMIT: u64 = 16 << 30;

/// Time the harness's dependencies may take to build (once per course folder); the learner's
/// own build limit starts only after them.
pub(super) const DEPENDENCY_BUDGET: Duration = Duration::from_secs(900);

/// What happened while building.
pub enum BuildEvent<'a> {
    /// A crate that had to be compiled (not one reused from an earlier build).
    Compiled { name: &'a str, count: usize },
    /// cargo waits for another cargo's lock on the harness.
    WaitingForCargo,
}

/// How the build ended.
pub enum Built {
    /// The graded program, and rustc's warnings about the learner's file.
    Ok { executable: PathBuf, warnings: Vec<Diagnostic> },
    /// rustc rejected the code; the messages that concern the learner.
    CompileErrors(Vec<Diagnostic>),
    /// Compiling the learner's file took longer than the build limit.
    TimedOut { limit: Duration },
    /// The compiler died on the learner's file (out of memory, a crash); what cargo or rustc said.
    CompilerDied { detail: String },
}

/// The environment kept cargo from building (not an error in the learner's code).
#[derive(Debug)]
pub enum CargoError {
    /// No `cargo` on PATH.
    Missing,
    /// The toolchain is older than the harness needs.
    TooOld { found: String },
    /// cargo itself failed (no network for a first build, a broken toolchain …).
    Failed(String),
    /// The graded program was built but could not start (its shared libraries would not load,
    /// the system refused to run it); what the system said.
    NotStarted(String),
}

impl std::fmt::Display for CargoError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CargoError::Missing => write!(f, "cargo was not found on PATH"),
            CargoError::TooOld { found } => write!(f, "cargo {found} is older than {}.{}", MINIMUM.0, MINIMUM.1),
            CargoError::Failed(detail) => write!(f, "cargo failed: {detail}"),
            CargoError::NotStarted(detail) => write!(f, "the graded program could not start: {detail}"),
        }
    }
}

impl std::error::Error for CargoError {}

/// The oldest toolchain the harness builds with (its lock file is format 4, read since 1.78).
pub const MINIMUM: (u32, u32) = (1, 78);

/// Asks `cargo --version` and refuses a missing or too old toolchain.
pub fn check_toolchain() -> Result<String, CargoError> {
    let output = match cargo_command().arg("--version").stdin(Stdio::null()).output() {
        Ok(output) => output,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Err(CargoError::Missing),
        Err(e) => return Err(CargoError::Failed(e.to_string())),
    };
    let text = String::from_utf8_lossy(&output.stdout).into_owned();
    let version =
        parse_version(&text).ok_or_else(|| CargoError::Failed(format!("unexpected `cargo --version`: {text}")))?;
    if (version.0, version.1) < MINIMUM {
        return Err(CargoError::TooOld { found: format!("{}.{}.{}", version.0, version.1, version.2) });
    }
    Ok(text.trim().to_string())
}

/// `cargo 1.95.0 (f2d3ce0bd 2026-03-21)` → (1, 95, 0).
fn parse_version(text: &str) -> Option<(u32, u32, u32)> {
    let number = text.split_whitespace().nth(1)?;
    let mut parts = number.split(['.', '-']).map(|p| p.parse::<u32>());
    Some((parts.next()?.ok()?, parts.next()?.ok()?, parts.next().and_then(Result::ok).unwrap_or(0)))
}

/// Builds the libraries of the harness at `manifest` (`packages`: the course's kit and its
/// exercises' given libraries, see [`super::harness::Layout::library_packages`]) and their
/// dependencies, so that later checks only compile the learner's file.
pub fn build_library(manifest: &Path, packages: &[String], on_event: &mut dyn FnMut(BuildEvent)) -> Result<()> {
    let args: Vec<&str> = packages.iter().flat_map(|p| ["--package", p.as_str()]).collect();
    let run = run_cargo(manifest, &args, Stage::Dependencies, false, DEPENDENCY_BUDGET, None, on_event, &mut |_| {})?;
    if run.success {
        Ok(())
    } else {
        Err(CargoError::Failed(run.stderr.trim().to_string()).into())
    }
}

/// Builds binary `bin` of the harness at `manifest` (the one binary of the package of the same
/// name). Messages about `learner_copy` are shown
/// with `shown_as` (the learner's path inside the workspace) in its place. Also returns the
/// rustc command cargo ran for `bin`, when it compiled it, for rebuilding it without cargo.
///
/// The build is confined as the learner's ([`Stage::Learner`]): it may not write beneath
/// `CARGO_HOME`. If it fails before the kit is ready (crates to download or to unpack again
/// after cargo's cache cleaning), the libraries (`libraries`, as [`build_library`] takes them)
/// are built on their own, with the rights that needs, and the learner's build is tried once more.
#[allow(clippy::too_many_arguments)]
pub fn build(
    manifest: &Path,
    libraries: &[String],
    bin: &str,
    learner_copy: &Path,
    shown_as: &str,
    color: bool,
    timeout: Duration,
    cancel: &Cancel,
    on_event: &mut dyn FnMut(BuildEvent),
) -> Result<(Built, Option<Invocation>)> {
    let place = Place { manifest, bin, learner_copy, shown_as };
    match build_once(&place, color, timeout, cancel, on_event)? {
        Attempt::Built(built, invocation) => Ok((built, invocation)),
        Attempt::DependenciesFailed(_) => {
            build_library(manifest, libraries, on_event)?;
            match build_once(&place, color, timeout, cancel, on_event)? {
                Attempt::Built(built, invocation) => Ok((built, invocation)),
                Attempt::DependenciesFailed(stderr) => Err(CargoError::Failed(stderr).into()),
            }
        }
    }
}

/// How one confined build of the learner's binary went.
enum Attempt {
    /// It got as far as the learner's file (or failed on it); the rustc command, if it ran one.
    Built(Built, Option<Invocation>),
    /// It failed before the kit was ready, so not on the learner's file; what cargo said.
    DependenciesFailed(String),
}

/// What a learner build compiles, and how its file is shown.
struct Place<'a> {
    manifest: &'a Path,
    bin: &'a str,
    learner_copy: &'a Path,
    shown_as: &'a str,
}

/// One build of binary `bin`, confined as the learner's; see [`build`].
fn build_once(
    place: &Place,
    color: bool,
    timeout: Duration,
    cancel: &Cancel,
    on_event: &mut dyn FnMut(BuildEvent),
) -> Result<Attempt> {
    let Place { manifest, bin, learner_copy, shown_as } = *place;
    let mut messages = Messages::new(&learner_copy.to_string_lossy(), shown_as);
    let mut executable = None;
    let run = run_cargo(
        manifest,
        &["--package", bin, "--bin", bin],
        Stage::Learner,
        color,
        timeout,
        Some(cancel),
        on_event,
        &mut |message| match message["reason"].as_str() {
            Some("compiler-artifact") if message["target"]["name"].as_str() == Some(bin) => {
                executable = message["executable"].as_str().map(PathBuf::from);
            }
            Some("compiler-message") => messages.take(&message["message"]),
            _ => {}
        },
    )?;
    let crate_name = bin.replace('-', "_");
    let binary = run.binary.clone().filter(|b| b.crate_name() == Some(crate_name.as_str()));
    let invocation = binary.zip(run.rustc_environment.clone()).map(|(binary, environment)| binary.with(environment));
    let built = |built| Ok(Attempt::Built(built, invocation.clone()));

    if run.learner_timed_out {
        return built(Built::TimedOut { limit: timeout });
    }
    if run.success {
        let executable =
            executable.ok_or_else(|| CargoError::Failed(format!("no executable for {bin} was reported")))?;
        let executable = as_rustc_wrote_it(&executable, &crate_name);
        return built(Built::Ok { executable, warnings: messages.into_warnings() });
    }
    if !run.libraries_built {
        // The learner's file is compiled only once the kit is: whatever failed was before it.
        return Ok(Attempt::DependenciesFailed(run.stderr.trim().to_string()));
    }
    match messages.into_failure() {
        Failure::Code(errors) => return built(Built::CompileErrors(errors)),
        Failure::Environment(said) => return Err(CargoError::Failed(said).into()),
        Failure::Silent => {}
    }
    // No message, yet the learner's binary failed to compile after the kit was built: rustc itself
    // died on the learner's code (a compile-time allocation over the limit, a crash).
    if run.stderr.contains(&format!("(bin \"{bin}\")")) {
        return built(Built::CompilerDied { detail: compiler_death(&run.stderr) });
    }
    Err(CargoError::Failed(run.stderr.trim().to_string()).into())
}

/// The file rustc wrote for the program cargo reports at `uplifted` (its hard link in
/// `target/debug/`): the same file, in `deps/`, under its hashed name. Its run paths are
/// relative to the folder rustc wrote it in, and from the other they miss the standard library
/// whenever the workspace and the toolchain share a folder other than `/` (the home folder).
/// `uplifted` itself if no such file is found.
fn as_rustc_wrote_it(uplifted: &Path, crate_name: &str) -> PathBuf {
    use std::os::unix::fs::MetadataExt;
    let same_file = |a: &std::fs::Metadata, b: &std::fs::Metadata| a.dev() == b.dev() && a.ino() == b.ino();
    let found = (|| {
        let reported = std::fs::metadata(uplifted).ok()?;
        let deps = uplifted.parent()?.join("deps");
        let prefix = format!("{crate_name}-");
        std::fs::read_dir(&deps).ok()?.flatten().map(|entry| entry.path()).find(|path| {
            let named = path.file_name().and_then(|n| n.to_str()).is_some_and(|n| n.starts_with(&prefix));
            named && std::fs::metadata(path).is_ok_and(|m| same_file(&m, &reported))
        })
    })();
    found.unwrap_or_else(|| uplifted.to_path_buf())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_cargo_versions() {
        assert_eq!(parse_version("cargo 1.95.0 (f2d3ce0bd 2026-03-21)"), Some((1, 95, 0)));
        assert_eq!(parse_version("cargo 1.80.0-nightly (abc 2024-05-01)"), Some((1, 80, 0)));
        assert_eq!(parse_version("nonsense"), None);
        assert!((1, 60) < MINIMUM && (1, 95) >= MINIMUM);
    }
}
