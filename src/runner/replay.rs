//! Compiling the learner's file without cargo, by running again the rustc command cargo ran
//! for it.
//!
//! Of a warm re-check, cargo's own part is about 60 ms here (rustup's proxy, then cargo checking
//! the fingerprint of every dependency) around the one rustc command that compiles the learner's
//! file. `cargo -vv` prints that command with the environment it sets; [`BinaryCommand::parse`]
//! reads it back, and [`run`] runs it as cargo would: from the harness, under the same
//! confinement, memory limit and time limit, its messages sorted the same way; linked by the
//! toolchain's lld without the C compiler driver where that has proven itself
//! ([`super::direct_link`]). Whether a recorded command may still be used is for
//! [`super::build`] to say.

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use anyhow::{Context, Result};
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::cargo::{BuildEvent, Built, CargoError, MEMORY_LIMIT};
use super::confine::{self, Confinement};
use super::diagnostic::{compiler_death, Failure, Messages};
use super::process::{Cancel, Ending, Group};
use super::rustc_env::Environment;
use crate::fsutil::regular::{read_text, Links};
use crate::fsutil::OnFile;

/// The rustc command that compiles one graded program, as cargo ran it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Invocation {
    /// The compiler, by its absolute path in the toolchain (cargo names it so).
    pub program: PathBuf,
    /// Its arguments; paths in them are absolute or relative to the harness.
    pub args: Vec<String>,
    /// Its environment, as it differed from tutor's.
    pub environment: Environment,
}

/// A rustc command `cargo -vv` printed that compiles a binary crate, read once from its
/// `Running `…`` line: the environment is seen whole elsewhere ([`super::rustc_env`]).
#[derive(Debug, Clone, PartialEq)]
pub struct BinaryCommand {
    program: PathBuf,
    args: Vec<String>,
}

impl BinaryCommand {
    /// Reads the command of a `Running `…`` line (the text between the backticks): `NAME=value`
    /// words, then the program and its arguments, quoted as a POSIX shell would. `None` unless
    /// it runs a compiler named by its absolute path on a binary crate.
    pub fn parse(command: &str) -> Option<BinaryCommand> {
        let words = shlex::split(command)?;
        let first_word = words.iter().position(|w| !is_assignment(w))?;
        let (program, args) = words[first_word..].split_first()?;
        let command = BinaryCommand { program: PathBuf::from(program), args: args.to_vec() };
        (command.value_of("--crate-type") == Some("bin") && command.program.is_absolute()).then_some(command)
    }

    /// The crate it compiles.
    pub fn crate_name(&self) -> Option<&str> {
        self.value_of("--crate-name")
    }

    fn value_of(&self, flag: &str) -> Option<&str> {
        self.args.windows(2).find(|w| w[0] == flag).map(|w| w[1].as_str())
    }

    /// The command with the environment its compiler had.
    pub fn with(self, environment: Environment) -> Invocation {
        Invocation { program: self.program, args: self.args, environment }
    }
}

impl Invocation {
    /// The files the command reads other than sources, tutor's environment being `tutor`: the
    /// compiler, every library in the folders it searches (`-L dependency=`, where those named
    /// by `--extern` and the ones they were built against are, the kit's shared library among
    /// them), and rustup's settings (its default toolchain).
    pub fn inputs(&self, tutor: &BTreeMap<String, String>) -> Vec<PathBuf> {
        let mut libraries: Vec<PathBuf> = self
            .library_folders()
            .flat_map(|folder| files_in(Path::new(folder)))
            .filter(|path| is_library(path) && !self.others_given_library(path))
            .collect();
        libraries.sort();
        // Where rustc's environment says rustup lives: set by rustup's proxy, or already tutor's.
        let rustup_home = self.environment.applied(tutor.clone()).remove("RUSTUP_HOME");
        let settings = rustup_home.map(|home| Path::new(&home).join("settings.toml")).filter(|p| p.is_file());
        std::iter::once(self.program.clone()).chain(libraries).chain(settings).collect()
    }

    /// Whether `path` is another exercise's given library (`super::given`): no crate this program
    /// links depends on it and it cannot name it, so its rebuild (that exercise's first check)
    /// leaves this command as good as it was.
    fn others_given_library(&self, path: &Path) -> bool {
        let given = path.file_name().is_some_and(|n| n.to_string_lossy().starts_with("libgiven_"));
        let named = self.args.windows(2).any(|w| w[0] == "--extern" && w[1].ends_with(&*path.to_string_lossy()));
        given && !named
    }

    /// The folders it finds its libraries in (`-L dependency=`).
    fn library_folders(&self) -> impl Iterator<Item = &str> {
        self.args.windows(2).filter(|w| w[0] == "-L").filter_map(|w| w[1].strip_prefix("dependency="))
    }

    /// The variables whose change makes cargo build a library it links again: those the
    /// libraries' compiles read (the `# env-dep:` lines rustc writes in their dep-info files)
    /// and those their build scripts watch (`rerun-if-env-changed`, in the scripts' output).
    pub fn variables_its_libraries_read(&self) -> Vec<String> {
        let mut names = std::collections::BTreeSet::new();
        for folder in self.library_folders().map(Path::new) {
            let dep_infos = files_in(folder).filter(|p| p.extension().is_some_and(|e| e == "d"));
            // The graded programs' own are left out: what they read is compared at each check
            // (`rustc_env::Environment::reads_unchanged`), and rustc alone builds them again.
            let of_libraries =
                dep_infos.filter_map(|p| read_text(&p, Links::Follow)).filter(|t| describes_a_library(t));
            for text in of_libraries {
                let read = text.lines().filter_map(|l| l.strip_prefix("# env-dep:"));
                names.extend(read.map(|r| r.split('=').next().unwrap_or(r).to_string()));
            }
            let scripts: Vec<PathBuf> =
                folder.parent().map(|target| files_in(&target.join("build")).collect()).unwrap_or_default();
            for text in scripts.iter().filter_map(|dir| read_text(&dir.join("output"), Links::Follow)) {
                let watched = text.lines().filter_map(|l| {
                    l.strip_prefix("cargo::rerun-if-env-changed=")
                        .or_else(|| l.strip_prefix("cargo:rerun-if-env-changed="))
                });
                names.extend(watched.map(|name| name.trim().to_string()));
            }
        }
        names.into_iter().collect()
    }
}

/// Whether a dep-info file is a library's: one of the files it was written for is one.
fn describes_a_library(dep_info: &str) -> bool {
    let targets = dep_info.lines().filter_map(|line| line.split_once(": ").map(|(target, _)| target));
    targets.map(Path::new).any(is_library)
}

/// Whether `path` names a library rustc links: an rlib, its metadata, or a shared library.
fn is_library(path: &Path) -> bool {
    path.extension().is_some_and(|e| e == "rlib" || e == "rmeta" || e == "so")
}

/// The entries of `folder` (none if it cannot be read).
fn files_in(folder: &Path) -> impl Iterator<Item = PathBuf> {
    std::fs::read_dir(folder).into_iter().flat_map(|entries| entries.flatten().map(|e| e.path()))
}

/// The usual name of a signal that ends a compiler.
fn signal_name(signal: i32) -> &'static str {
    match signal {
        4 => "SIGILL",
        6 => "SIGABRT",
        7 => "SIGBUS",
        9 => "SIGKILL",
        11 => "SIGSEGV",
        _ => "a signal",
    }
}

/// An argument of the command, with rustc's rendering of its messages plain unless `color`:
/// cargo always asks rustc for colours, and takes them out itself for a plain `json` format.
fn rendering(arg: &str, color: bool) -> String {
    match arg.strip_prefix("--json=") {
        Some(kinds) if !color => {
            let kinds: Vec<&str> = kinds.split(',').filter(|k| *k != "diagnostic-rendered-ansi").collect();
            format!("--json={}", kinds.join(","))
        }
        _ => arg.to_string(),
    }
}

/// `NAME=value`, as the environment words before a command.
pub(super) fn is_assignment(word: &str) -> bool {
    let Some((name, _)) = word.split_once('=') else { return false };
    let mut chars = name.chars();
    chars.next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// What a replayed build compiles, and how its messages are shown.
pub struct Place<'a> {
    /// The harness folder, where cargo ran rustc.
    pub harness: &'a Path,
    /// The harness's copy of the learner's file, shown as `shown_as`.
    pub learner_copy: &'a Path,
    pub shown_as: &'a str,
    /// Whether rustc's rendering keeps its colours.
    pub color: bool,
}

/// Runs `invocation` at `place` within `timeout`, holding cargo's lock on its build folder, with
/// `args` in place of its own when given (a direct link, `super::direct_link`). `None` when the
/// compiler cannot even be started (gone since it was recorded): cargo will know what to do.
pub fn run(
    invocation: &Invocation,
    args: Option<&[String]>,
    place: &Place,
    timeout: Duration,
    cancel: &Cancel,
    on_event: &mut dyn FnMut(BuildEvent),
) -> Result<Option<Built>> {
    let Place { harness, learner_copy, shown_as, color } = *place;
    // The lock cargo takes for a build, so that no cargo (another tool's, a learner's by hand)
    // changes the libraries while rustc links them.
    let cargos_lock = harness.join("target").join("debug").join(".cargo-lock");
    let _held = super::lock_exclusive_or_cancel(&cargos_lock, &mut || on_event(BuildEvent::WaitingForCargo), cancel)?;
    let temp = confine::build_temp_dir(harness);
    std::fs::create_dir_all(&temp).with_context(|| OnFile::write(&temp))?;
    let mut command = Command::new(&invocation.program);
    super::allowed_env::give_to(&mut command);
    // The width recorded with the command is the terminal's of that build: today's instead.
    let recorded_width = |arg: &&String| arg.starts_with("--diagnostic-width");
    let args = args.unwrap_or(&invocation.args);
    command.args(args.iter().filter(|arg| !recorded_width(arg)).map(|arg| rendering(arg, color)));
    command.arg(super::cargo_run::diagnostic_width());
    invocation.environment.apply_to(&mut command);
    command.env("TMPDIR", &temp).current_dir(harness).stdin(Stdio::null()).stdout(Stdio::null()).stderr(Stdio::piped());
    Confinement::for_build(harness).apply_to(&mut command);
    let Ok(mut group) = Group::spawn_cancellable(&mut command, MEMORY_LIMIT, Some(cancel)) else { return Ok(None) };
    let stderr = group.child_mut().stderr.take().context("rustc's stderr is piped")?;
    let (sender, lines) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stderr).lines() {
            let Ok(line) = line else { break };
            if sender.send(line).is_err() {
                return;
            }
        }
    });

    let deadline = Instant::now() + timeout;
    let mut messages = Messages::new(&learner_copy.to_string_lossy(), shown_as);
    let mut executable = None;
    let mut other_text = String::new();
    loop {
        match lines.recv_timeout(deadline.saturating_duration_since(Instant::now())) {
            Ok(line) => match serde_json::from_str::<Value>(&line) {
                Ok(message) if message.get("artifact").is_some() => {
                    if message["emit"].as_str() == Some("link") {
                        executable = message["artifact"].as_str().map(PathBuf::from);
                    }
                }
                Ok(message) if message.get("level").is_some() => messages.take(&message),
                Ok(_) => {}
                Err(_) if other_text.len() < 64 * 1024 => {
                    other_text.push_str(&line);
                    other_text.push('\n');
                }
                Err(_) => {}
            },
            Err(mpsc::RecvTimeoutError::Timeout) => {
                group.kill();
                return Ok(Some(Built::TimedOut { limit: timeout }));
            }
            Err(mpsc::RecvTimeoutError::Disconnected) => break,
        }
    }
    let ending = group.wait_until(Instant::now() + Duration::from_secs(10)).context("waiting for rustc")?;
    if ending == Ending::Exited(0) {
        let executable = executable.context("rustc reported no executable")?;
        return Ok(Some(Built::Ok { executable, warnings: messages.into_warnings() }));
    }
    match messages.into_failure() {
        Failure::Code(errors) => return Ok(Some(Built::CompileErrors(errors))),
        Failure::Environment(said) => return Err(CargoError::Failed(said).into()),
        Failure::Silent => {}
    }
    // Nothing said, yet no program: rustc died on the learner's code (a compile-time allocation
    // over the limit, a crash).
    if let Ending::Signalled(signal) = ending {
        other_text.push_str(&format!("rustc ended by signal {signal} ({})\n", signal_name(signal)));
    }
    Ok(Some(Built::CompilerDied { detail: compiler_death(&other_text) }))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A line `cargo -vv` printed (1.95), cut short; the folders and the settings are made up
    /// by [`scratch_toolchain`].
    fn running(root: &Path) -> String {
        let r = root.display();
        format!(
            "CARGO=/t/bin/cargo CARGO_PKG_AUTHORS='' LD_LIBRARY_PATH='/h/target/debug/deps:/t/lib' {r}/bin/rustc \
             --crate-name ex_rmsnorm_02_norm --edition=2021 bins/ex-rmsnorm-02-norm.rs --error-format=json \
             --crate-type bin --check-cfg 'cfg(docsrs,test)' --check-cfg 'cfg(feature, values())' \
             -C strip=debuginfo -L 'dependency={r}/a b' --extern 'ndarray={r}/a b/libndarray-35e4.rlib' \
             --extern 'tutor_given={r}/a b/libgiven_rmsnorm_02_norm.so'"
        )
    }

    /// A made-up toolchain and dependency folder: `bin/rustc`, `a b/` with three libraries, two
    /// exercises' given libraries and another file, and rustup's `settings.toml`.
    fn scratch_toolchain(name: &str) -> PathBuf {
        let root = std::env::temp_dir().join(format!("tutor-replay-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        for file in [
            "bin/rustc",
            "a b/libndarray-35e4.rlib",
            "a b/libhalf-1.rmeta",
            "a b/libkit.so",
            "a b/libgiven_rmsnorm_02_norm.so",
            "a b/libgiven_rmsnorm_01_weight.so",
            "a b/ex.d",
            "settings.toml",
        ] {
            std::fs::create_dir_all(root.join(file).parent().unwrap()).unwrap();
            std::fs::write(root.join(file), "").unwrap();
        }
        root
    }

    fn environment(root: &Path) -> Environment {
        Environment { set: vec![("RUSTUP_HOME".into(), root.display().to_string())], removed: Vec::new() }
    }

    #[test]
    fn reads_the_command_cargo_printed() {
        let root = scratch_toolchain("parse");
        let command = BinaryCommand::parse(&running(&root)).expect("parsed");
        assert_eq!(command.crate_name(), Some("ex_rmsnorm_02_norm"));
        let invocation = command.with(environment(&root));
        assert_eq!(invocation.program, root.join("bin/rustc"));
        assert_eq!(invocation.args[0], "--crate-name");
        assert!(invocation.args.contains(&"cfg(feature, values())".to_string()), "{:?}", invocation.args);
        assert!(!invocation.args.iter().any(|a| a.starts_with("CARGO")), "{:?}", invocation.args);
        // The compiler, every library where it looks for them but another exercise's given
        // library, rustup's default toolchain.
        let inputs = [
            "bin/rustc",
            "a b/libgiven_rmsnorm_02_norm.so",
            "a b/libhalf-1.rmeta",
            "a b/libkit.so",
            "a b/libndarray-35e4.rlib",
            "settings.toml",
        ];
        assert_eq!(invocation.inputs(&BTreeMap::new()), inputs.map(|p| root.join(p)));
        // rustup's home in tutor's own environment, which rustc's then holds unchanged.
        let invocation = Invocation { environment: Environment { set: Vec::new(), removed: Vec::new() }, ..invocation };
        let tutor = BTreeMap::from([("RUSTUP_HOME".to_string(), root.display().to_string())]);
        assert_eq!(invocation.inputs(&tutor), inputs.map(|p| root.join(p)));
        assert!(!invocation.inputs(&BTreeMap::new()).contains(&root.join("settings.toml")));
        std::fs::remove_dir_all(&root).unwrap();
    }

    #[test]
    fn the_variables_the_libraries_builds_read_are_found() {
        let root = scratch_toolchain("variables");
        let write = |file: &str, text: &str| {
            std::fs::create_dir_all(root.join(file).parent().unwrap()).unwrap();
            std::fs::write(root.join(file), text).unwrap();
        };
        write("a b/matrixmultiply-1.d", "a/m.d: src/lib.rs\na/libm.rlib: src/lib.rs\n\n# env-dep:MMTEST_FEATURE\n");
        write("a b/kit.d", "a/libkit.so: src/lib.rs\n\n# env-dep:CARGO_PKG_NAME=m\n");
        write("a b/half-2.d", "a/libhalf.rmeta: src/lib.rs\n");
        // A graded program's: what it reads is compared otherwise.
        write("a b/ex-3.d", "a/ex-3.d: bins/ex.rs\na/ex-3: bins/ex.rs\n\n# env-dep:TUTOR_PROBE=1\n");
        write("build/num-traits-3/output", "cargo:rerun-if-changed=build.rs\ncargo:rerun-if-env-changed=OLD_STYLE\n");
        write("build/libm-4/output", "cargo::rerun-if-env-changed=NEW_STYLE\n");
        write("build/libm-5/build-script-build", "");
        let invocation = BinaryCommand::parse(&running(&root)).expect("parsed").with(environment(&root));
        assert_eq!(
            invocation.variables_its_libraries_read(),
            ["CARGO_PKG_NAME", "MMTEST_FEATURE", "NEW_STYLE", "OLD_STYLE"]
        );
        std::fs::remove_dir_all(&root).unwrap();
    }

    #[test]
    fn messages_lose_their_colours_unless_asked_for() {
        let json = "--json=diagnostic-rendered-ansi,artifacts,future-incompat";
        assert_eq!(rendering(json, false), "--json=artifacts,future-incompat");
        assert_eq!(rendering(json, true), json);
        assert_eq!(rendering("--edition=2021", false), "--edition=2021");
    }

    #[test]
    fn only_the_graded_programs_command_is_taken() {
        let root = scratch_toolchain("only");
        let line = running(&root);
        assert_eq!(
            BinaryCommand::parse(&line).and_then(|c| c.crate_name().map(str::to_string)).as_deref(),
            Some("ex_rmsnorm_02_norm")
        );
        let library = line.replace("--crate-type bin", "--crate-type lib");
        assert!(BinaryCommand::parse(&library).is_none(), "a library");
        let relative = line.replace(&format!("{}/bin/rustc", root.display()), "rustc");
        assert!(BinaryCommand::parse(&relative).is_none(), "a program found on PATH");
        assert!(BinaryCommand::parse("rustc 'unbalanced").is_none());
        std::fs::remove_dir_all(&root).unwrap();
    }
}
