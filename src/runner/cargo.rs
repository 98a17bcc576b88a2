//! Building one harness binary with cargo and sorting rustc's messages.

use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use anyhow::{Context, Result};
use serde_json::Value;

/// A rustc message worth showing to the learner.
#[derive(Debug, Clone, PartialEq)]
pub struct Diagnostic {
    /// `error`, `warning`, …
    pub level: String,
    /// rustc's own rendering, with the learner's file shown by its workspace path.
    pub rendered: String,
}

/// What happened while building.
pub enum BuildEvent<'a> {
    /// A crate that had to be compiled (not one reused from an earlier build).
    Compiled { name: &'a str, count: usize },
}

/// How the build ended.
pub enum Built {
    /// The graded program, and rustc's warnings about the learner's file.
    Ok { executable: PathBuf, warnings: Vec<Diagnostic> },
    /// rustc rejected the code; the messages that concern the learner.
    CompileErrors(Vec<Diagnostic>),
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
}

impl std::fmt::Display for CargoError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CargoError::Missing => write!(f, "cargo was not found on PATH"),
            CargoError::TooOld { found } => write!(f, "cargo {found} is older than {}.{}", MINIMUM.0, MINIMUM.1),
            CargoError::Failed(detail) => write!(f, "cargo failed: {detail}"),
        }
    }
}

/// The oldest toolchain the harness builds with (its lock file is format 4, read since 1.78).
pub const MINIMUM: (u32, u32) = (1, 78);

/// Asks `cargo --version` and refuses a missing or too old toolchain.
pub fn check_toolchain() -> Result<String, CargoError> {
    let output = match Command::new("cargo").arg("--version").stdin(Stdio::null()).output() {
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

impl std::error::Error for CargoError {}

/// Runs `cargo build ARGS --message-format …` on the harness, handing every JSON message to
/// `on_message` and counting freshly compiled crates as progress. Returns whether cargo
/// succeeded and what it wrote on stderr.
fn run_cargo(
    manifest: &Path,
    args: &[&str],
    color: bool,
    on_event: &mut dyn FnMut(BuildEvent),
    on_message: &mut dyn FnMut(&Value),
) -> Result<(bool, String)> {
    let format = if color { "json-diagnostic-rendered-ansi" } else { "json" };
    let mut child = match Command::new("cargo")
        .args(["build", "--locked", "--quiet"])
        .args(args)
        .args(["--message-format", format, "--manifest-path"])
        .arg(manifest)
        .env_remove("CARGO_TARGET_DIR")
        .env_remove("RUSTFLAGS")
        .env("CARGO_TERM_COLOR", if color { "always" } else { "never" })
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
    {
        Ok(child) => child,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Err(CargoError::Missing.into()),
        Err(e) => return Err(e).context("starting cargo"),
    };

    let mut stderr_pipe = child.stderr.take().context("cargo's stderr is piped")?;
    let stderr_reader = std::thread::spawn(move || {
        let mut text = String::new();
        let _ = stderr_pipe.read_to_string(&mut text);
        text
    });
    let mut compiled = 0;
    let stdout = child.stdout.take().context("cargo's stdout is piped")?;
    for line in BufReader::new(stdout).lines() {
        let Ok(message) = serde_json::from_str::<Value>(&line.context("reading cargo's output")?) else {
            continue;
        };
        if message["reason"].as_str() == Some("compiler-artifact") && message["fresh"].as_bool() == Some(false) {
            compiled += 1;
            let name = message["target"]["name"].as_str().unwrap_or("?");
            on_event(BuildEvent::Compiled { name, count: compiled });
        }
        on_message(&message);
    }
    let status = child.wait().context("waiting for cargo")?;
    let stderr = stderr_reader.join().unwrap_or_default();
    Ok((status.success(), stderr))
}

/// Builds the harness library (the kit and its dependencies), so that later checks only compile
/// the learner's file.
pub fn build_library(manifest: &Path, on_event: &mut dyn FnMut(BuildEvent)) -> Result<()> {
    let (ok, stderr) = run_cargo(manifest, &["--package", "tutor_kit"], false, on_event, &mut |_| {})?;
    if ok {
        Ok(())
    } else {
        Err(CargoError::Failed(stderr.trim().to_string()).into())
    }
}

/// Builds binary `bin` of the harness at `manifest`. Messages about `learner_file` are shown
/// with `shown_as` (its path inside the workspace) in place of the absolute path.
pub fn build(
    manifest: &Path,
    bin: &str,
    learner_file: &Path,
    shown_as: &str,
    color: bool,
    on_event: &mut dyn FnMut(BuildEvent),
) -> Result<Built> {
    let learner = learner_file.to_string_lossy().into_owned();
    let mut diagnostics = Vec::new();
    let mut other_errors = Vec::new();
    let mut executable = None;
    let (ok, stderr) = run_cargo(manifest, &["--bin", bin], color, on_event, &mut |message| {
        match message["reason"].as_str() {
            Some("compiler-artifact") if message["target"]["name"].as_str() == Some(bin) => {
                executable = message["executable"].as_str().map(PathBuf::from);
            }
            Some("compiler-message") => {
                let inner = &message["message"];
                let level = inner["level"].as_str().unwrap_or("").to_string();
                let rendered = inner["rendered"].as_str().unwrap_or("").replace(&learner, shown_as);
                let spans = inner["spans"].as_array();
                let about_learner =
                    spans.is_some_and(|spans| spans.iter().any(|s| s["file_name"].as_str() == Some(learner.as_str())));
                if about_learner {
                    diagnostics.push(Diagnostic { level, rendered });
                } else if level == "error" && spans.is_some_and(|s| !s.is_empty()) {
                    // An error outside the learner's file (in the kit or the generated binary) is
                    // still the reason the build failed: keep it for when nothing else explains it.
                    other_errors.push(Diagnostic { level, rendered });
                }
            }
            _ => {}
        }
    })?;

    if ok {
        let executable =
            executable.ok_or_else(|| CargoError::Failed(format!("no executable for {bin} was reported")))?;
        return Ok(Built::Ok { executable, warnings: diagnostics });
    }
    let learner_errors = diagnostics.iter().any(|d| d.level == "error");
    if learner_errors || !other_errors.is_empty() {
        if !learner_errors {
            diagnostics.extend(other_errors);
        }
        return Ok(Built::CompileErrors(diagnostics));
    }
    Err(CargoError::Failed(stderr.trim().to_string()).into())
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
