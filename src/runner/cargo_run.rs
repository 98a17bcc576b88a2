//! One confined `cargo build` of the harness: the command (run from a neutral folder, with no
//! inherited build settings and the harness's own flags), its two streams read line by line,
//! its deadlines and cancellation, and the rustc command `-vv` printed for the learner's
//! program. What the build means (which crate failed, whose error it is) is `super::cargo`'s.

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use anyhow::{Context, Result};
use serde_json::Value;

use super::cargo::{BuildEvent, CargoError, DEPENDENCY_BUDGET, MEMORY_LIMIT};
use super::confine::{self, Confinement};
use super::process::{Cancel, Group};
use super::replay::BinaryCommand;
use super::rustc_env::{Environment, Watcher};
use crate::fsutil::OnFile;

/// The flags of every crate the harness builds, dependencies' and build scripts' included (so
/// that each is built once, with the same flags, by `tutor init` and by a check), separated as
/// `CARGO_ENCODED_RUSTFLAGS` wants. Set by that variable, the strongest of cargo's ways, so that
/// no `rustflags` of the learner's cargo settings replaces them.
/// - `prefer-dynamic`: the graded programs and the kit (a `dylib`, see `super::harness`) share
///   the toolchain's standard library as a shared library, the one way a Rust `dylib` links;
/// - `rpath`: each program records where its shared libraries are, relative to itself, since it
///   runs with an empty environment (no `LD_LIBRARY_PATH`), confined to reading just those
///   (`confine::landlock`);
/// - `-Bsymbolic`: the kit's calls to its own functions stay inside it. Otherwise a function the
///   learner's file defines under the same symbol (`#[export_name]`) would replace the kit's for
///   the kit too, as the loader binds a shared library's calls to the program's definitions
///   first: the check that refuses the kit's own answer to the TODO could be replaced by one
///   that does nothing (with the kit linked statically, such a file did not link).
const HARNESS_RUSTFLAGS: &str = "-Cprefer-dynamic\x1f-Crpath\x1f-Clink-arg=-Wl,-Bsymbolic";

/// A `cargo` command run from a folder outside any course, with no inherited build settings.
pub(super) fn cargo_command() -> Command {
    let mut command = Command::new("cargo");
    super::allowed_env::give_to(&mut command).current_dir(std::env::temp_dir());
    for variable in [
        "CARGO_TARGET_DIR",
        "RUSTFLAGS",
        "CARGO_ENCODED_RUSTFLAGS",
        "CARGO_BUILD_RUSTFLAGS",
        "RUSTC_WRAPPER",
        "RUSTC_WORKSPACE_WRAPPER",
        "CARGO_BUILD_RUSTC_WRAPPER",
        "CARGO_BUILD_TARGET",
    ] {
        command.env_remove(variable);
    }
    command
}

/// A line from one of cargo's streams.
enum Line {
    Out(String),
    Err(String),
    Closed,
}

/// How one cargo run ended.
pub(super) struct CargoRun {
    pub(super) success: bool,
    pub(super) stderr: String,
    /// The learner's build limit ran out (the kit was built; the learner's file was compiling).
    pub(super) learner_timed_out: bool,
    /// The kit's artifact was reported, so whatever failed after it is the learner's file.
    pub(super) libraries_built: bool,
    /// The first binary crate's rustc command, as `-vv` printed it, in a learner's build.
    pub(super) binary: Option<BinaryCommand>,
    /// The environment of the rustc that compiled the graded program, if it was seen.
    pub(super) rustc_environment: Option<Environment>,
}

/// What a build may compile, and so what its confinement allows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Stage {
    /// The kit and its dependencies only: tutor's code and pinned crates, which cargo may have
    /// to download (writes beneath `CARGO_HOME` allowed).
    Dependencies,
    /// A build that compiles the learner's file: writes beneath the harness's `target/` only.
    Learner,
}

/// rustc's `--diagnostic-width` for the terminal tutor writes to: its messages are shown as rustc
/// draws them (never re-wrapped), so they are drawn to fit. Kept within 60 and 140 columns (rustc's
/// own default; far narrower widths have made rustc itself fail).
pub(super) fn diagnostic_width() -> String {
    format!("--diagnostic-width={}", crate::render::wrap::terminal_width().clamp(60, 140))
}

/// Runs `cargo build ARGS --message-format …` on the harness, confined for `stage`, handing
/// every JSON message to `on_message`, counting freshly compiled crates as progress, and
/// enforcing `timeout` on everything after the kit (the dependencies have their own, generous
/// budget). `cancel` kills cargo and its compilers from another thread.
#[allow(clippy::too_many_arguments)]
pub(super) fn run_cargo(
    manifest: &Path,
    args: &[&str],
    stage: Stage,
    color: bool,
    timeout: Duration,
    cancel: Option<&Cancel>,
    on_event: &mut dyn FnMut(BuildEvent),
    on_message: &mut dyn FnMut(&Value),
) -> Result<CargoRun> {
    let harness = manifest.parent().context("the harness manifest is in a folder")?;
    let target = harness.join("target");
    // The build's temporary files (the linker driver's, build scripts') go inside target/, the
    // one place it may write; the folder must exist before the Landlock rules name it.
    let temp = confine::build_temp_dir(harness);
    std::fs::create_dir_all(&temp).with_context(|| OnFile::write(&temp))?;
    let confinement = match stage {
        Stage::Dependencies => Confinement::for_dependencies(harness),
        Stage::Learner => Confinement::for_build(harness),
    };
    let format = if color { "json-diagnostic-rendered-ansi" } else { "json" };
    let mut command = cargo_command();
    // The learner's build is `cargo rustc`, the same build with one flag more for the learner's
    // own crate: rustc's messages drawn to the terminal's width (cargo tells rustc the width only
    // when it writes to a terminal itself, and this one does not). The libraries' flags, and so
    // their fingerprints, stay as they are.
    let subcommand = if stage == Stage::Learner { "rustc" } else { "build" };
    command
        .args([subcommand, "--locked"])
        .args(args)
        // Very verbose: cargo prints each command it runs, with the environment it sets, which
        // is how a rebuild without cargo knows the learner's rustc command (`super::replay`).
        .args(if stage == Stage::Learner { &["-vv"][..] } else { &[] })
        .args(["--message-format", format, "--manifest-path"])
        .arg(manifest)
        // Named, so that no `build.target-dir` of cargo's settings sends the output where the
        // build may not write (and where `foreign_sources` would not look).
        .arg("--target-dir")
        .arg(&target)
        .args(if stage == Stage::Learner { vec!["--".to_string(), diagnostic_width()] } else { Vec::new() })
        .env("TMPDIR", &temp)
        .env("CARGO_ENCODED_RUSTFLAGS", HARNESS_RUSTFLAGS)
        .env("CARGO_TERM_COLOR", "never")
        .env("CARGO_TERM_PROGRESS_WHEN", "never")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    confinement.apply_to(&mut command);
    let mut group = match Group::spawn_cancellable(&mut command, MEMORY_LIMIT, cancel) {
        Ok(group) => group,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Err(CargoError::Missing.into()),
        Err(e) => return Err(e).context("starting cargo"),
    };
    let (sender, lines) = mpsc::channel();
    let stdout = group.child_mut().stdout.take().context("cargo's stdout is piped")?;
    let stderr = group.child_mut().stderr.take().context("cargo's stderr is piped")?;
    for (stream, wrap) in [
        (Box::new(stdout) as Box<dyn std::io::Read + Send>, Line::Out as fn(String) -> Line),
        (Box::new(stderr), Line::Err),
    ] {
        let sender = sender.clone();
        std::thread::spawn(move || {
            for line in BufReader::new(stream).lines() {
                let Ok(line) = line else { break };
                if sender.send(wrap(line)).is_err() {
                    return;
                }
            }
            let _ = sender.send(Line::Closed);
        });
    }
    drop(sender);

    let started = Instant::now();
    let mut deadline = Some(started + DEPENDENCY_BUDGET);
    let mut libraries_built = false;
    let mut compiled = 0;
    let mut stderr_text = String::new();
    let mut binary = None;
    let mut watcher = None;
    let cargo_pid = i32::try_from(group.child_mut().id()).unwrap_or(0);
    let mut open_streams = 2;
    let mut timed_out = false;
    while open_streams > 0 {
        let line = match deadline {
            Some(deadline) => match lines.recv_timeout(deadline.saturating_duration_since(Instant::now())) {
                Ok(line) => line,
                Err(mpsc::RecvTimeoutError::Timeout) => {
                    timed_out = true;
                    break;
                }
                Err(mpsc::RecvTimeoutError::Disconnected) => break,
            },
            None => match lines.recv() {
                Ok(line) => line,
                Err(_) => break,
            },
        };
        match line {
            Line::Closed => open_streams -= 1,
            Line::Err(text) => {
                if text.contains("Blocking waiting for file lock") {
                    // Waiting for another cargo is nobody's code taking time.
                    on_event(BuildEvent::WaitingForCargo);
                    deadline = None;
                }
                if let Some(command) = verbose_line(&text) {
                    if let Some(command) = command.filter(|_| stage == Stage::Learner && binary.is_none()) {
                        // The dependencies' build scripts are binaries too, compiled first when
                        // the dependencies are (the first check of a course folder): the learner's
                        // program is the binary that is not one.
                        let build_script =
                            |c: &BinaryCommand| c.crate_name().is_some_and(|n| n.starts_with("build_script_"));
                        binary = BinaryCommand::parse(command).filter(|c| !build_script(c));
                        if let Some(crate_name) = binary.as_ref().and_then(BinaryCommand::crate_name) {
                            watcher = Some(Watcher::start(cargo_pid, crate_name.to_string()));
                        }
                    }
                    continue;
                }
                if stderr_text.len() < 64 * 1024 {
                    stderr_text.push_str(&text);
                    stderr_text.push('\n');
                }
            }
            Line::Out(text) => {
                let Ok(message) = serde_json::from_str::<Value>(&text) else { continue };
                if message["reason"].as_str() == Some("compiler-artifact") {
                    if message["fresh"].as_bool() == Some(false) {
                        compiled += 1;
                        let name = message["target"]["name"].as_str().unwrap_or("?");
                        on_event(BuildEvent::Compiled { name, count: compiled });
                    }
                    // The exercise's given library (`given/<course>-<exercise>` in the harness, built
                    // on the kit): the last piece before the learner's own file.
                    let manifest_path = message["manifest_path"].as_str().unwrap_or_default().replace('\\', "/");
                    if manifest_path.contains("/given/") && manifest_path.ends_with("/Cargo.toml") {
                        libraries_built = true;
                    }
                }
                if deadline.is_none() || (libraries_built && deadline.is_some_and(|d| d > Instant::now() + timeout)) {
                    deadline = Some(Instant::now() + timeout);
                }
                on_message(&message);
            }
        }
    }
    if timed_out {
        group.kill();
        let rustc_environment = watcher.and_then(Watcher::finish);
        if libraries_built {
            return Ok(CargoRun {
                success: false,
                stderr: stderr_text,
                learner_timed_out: true,
                libraries_built,
                binary,
                rustc_environment,
            });
        }
        return Err(CargoError::Failed(format!(
            "building the grading harness's dependencies took longer than {} s",
            DEPENDENCY_BUDGET.as_secs()
        ))
        .into());
    }
    let ending = group.wait_until(Instant::now() + Duration::from_secs(10)).context("waiting for cargo")?;
    let success = ending == super::process::Ending::Exited(0);
    let rustc_environment = watcher.and_then(Watcher::finish);
    Ok(CargoRun { success, stderr: stderr_text, learner_timed_out: false, libraries_built, binary, rustc_environment })
}

/// A line only `-vv` prints: `Some(Some(command))` for a command cargo runs, `Some(None)` for
/// the rest of the chatter (fresh and dirty units, build scripts' output), `None` for a line
/// worth keeping (a warning, an error).
fn verbose_line(line: &str) -> Option<Option<&str>> {
    let trimmed = line.trim_start();
    if let Some(command) = trimmed.strip_prefix("Running `") {
        return Some(command.strip_suffix('`'));
    }
    let chatter = ["Fresh ", "Dirty ", "Compiling "].iter().any(|p| trimmed.starts_with(p))
        || (trimmed.starts_with('[') && trimmed.contains("] "));
    chatter.then_some(None)
}
