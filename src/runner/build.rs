//! Which way a check gets its graded program: the program built last, when the learner's file
//! is what it was built from; rustc run directly ([`super::replay`]), when only the learner's
//! file changed since cargo last compiled it; cargo, otherwise.
//!
//! What makes the first two safe is kept per graded program in `.tutor/builds/<bin>.json`, out
//! of the build's reach (it may write beneath the harness's `target/` only): the harness's
//! fingerprint, the colour setting, a hash of what in tutor's environment steers the build, the
//! rustc command with its environment and the size and time of every file it reads besides
//! sources, and the text, program, dep-info and warnings of the last build that succeeded.
//! Anything that differs sends the check to cargo, which records anew. A record that cannot be
//! read or written costs speed, never a verdict.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::UNIX_EPOCH;

use anyhow::Result;
use serde::{Deserialize, Serialize};

use super::cargo::{self, BuildEvent, Built};
use super::dep_info;
use super::diagnostic::Diagnostic;
use super::direct_link;
use super::harness::Layout;
use super::replay::{self, Invocation};
use super::rustc_env;
use super::CheckOptions;
use crate::fsutil::below::write_below;
use crate::fsutil::regular::{read_text, Links};

/// What a later check may reuse of one graded program's builds.
#[derive(Debug, Serialize, Deserialize)]
struct Record {
    /// The harness it was built in ([`Layout::fingerprint`]).
    harness: u64,
    /// Whether rustc's messages carry colours.
    color: bool,
    /// [`key`] of tutor's environment when it was recorded (rustc's derives from it).
    environment: u64,
    /// The rustc command cargo ran, and what it read.
    command: Option<Recorded>,
    /// The build that produced the program now on disk, when it succeeded.
    last: Option<LastBuild>,
}

#[derive(Debug, Serialize, Deserialize)]
struct Recorded {
    invocation: Invocation,
    inputs: Vec<Stamp>,
    /// The variables whose change makes cargo build a library the command links again.
    #[serde(default)]
    read_by_libraries: Vec<String>,
}

#[derive(Debug, Serialize, Deserialize)]
struct LastBuild {
    /// The learner's file, exactly.
    text: String,
    executable: Stamp,
    /// What rustc said it read: any later compile (even one stopped) rewrites it.
    dep_info: Stamp,
    warnings: Vec<Diagnostic>,
}

/// A file's size and modification time: a file rewritten since has other ones.
#[derive(Debug, PartialEq, Serialize, Deserialize)]
struct Stamp {
    path: PathBuf,
    len: u64,
    seconds: u64,
    nanos: u32,
}

impl Stamp {
    fn of(path: &Path) -> Option<Stamp> {
        let metadata = std::fs::metadata(path).ok()?;
        let modified = metadata.modified().ok()?.duration_since(UNIX_EPOCH).ok()?;
        Some(Stamp {
            path: path.to_path_buf(),
            len: metadata.len(),
            seconds: modified.as_secs(),
            nanos: modified.subsec_nanos(),
        })
    }

    fn is_current(&self) -> bool {
        Stamp::of(&self.path).as_ref() == Some(self)
    }
}

impl Record {
    /// The record at `path`, if there is one for this harness, colour setting and environment
    /// (tutor's being `tutor`).
    fn load(path: &Path, layout: &Layout, color: bool, tutor: &BTreeMap<String, String>) -> Option<Record> {
        let text = read_text(path, Links::Refuse)?;
        let record: Record = serde_json::from_str(&text).ok()?;
        let same = record.harness == layout.fingerprint
            && record.color == color
            && record.environment == key(tutor, record.command.as_ref());
        same.then_some(record)
    }

    /// The program built last, if it was built from `text`, is still on disk as it was, no
    /// compile of `bin` has happened since, and a compile now would read the same: the same
    /// compiler, libraries and default toolchain, the same values of the variables it read.
    fn reuse(&self, text: &str, harness: &Path, bin: &str, tutor: &BTreeMap<String, String>) -> Option<Built> {
        let last = self.last.as_ref().filter(|last| last.text == text && last.executable.is_current())?;
        let command = self.command()?;
        let latest = dep_info::latest(harness, bin).ok()?;
        (last.dep_info.is_current() && latest == last.dep_info.path).then_some(())?;
        let dep_info = read_text(&latest, Links::Follow)?;
        command.environment.reads_unchanged(&dep_info, tutor).then_some(())?;
        Some(Built::Ok { executable: last.executable.path.clone(), warnings: last.warnings.clone() })
    }

    /// The recorded rustc command, if everything it reads is as it was.
    fn command(&self) -> Option<&Invocation> {
        let command = self.command.as_ref().filter(|c| c.inputs.iter().all(Stamp::is_current))?;
        Some(&command.invocation)
    }
}

/// Gets the graded program `bin` for the learner's `text`, whose copy in the harness is
/// `learner_copy`, shown as `shown_as`.
pub fn build(
    layout: &Layout,
    bin: &str,
    text: &str,
    learner_copy: &Path,
    shown_as: &str,
    options: &CheckOptions,
    on_event: &mut dyn FnMut(BuildEvent),
) -> Result<Built> {
    let private_dir = layout.root.parent().unwrap_or(&layout.root);
    let path = private_dir.join("builds").join(format!("{bin}.json"));
    let tutor = rustc_env::current();
    let record = Record::load(&path, layout, options.color, &tutor);
    if let Some(record) = &record {
        if let Some(built) = record.reuse(text, &layout.root, bin, &tutor) {
            return Ok(built);
        }
    }
    let replayed = match record.as_ref().and_then(Record::command) {
        Some(invocation) => {
            let place = replay::Place { harness: &layout.root, learner_copy, shown_as, color: options.color };
            replay_linked(private_dir, invocation, &place, options, on_event)?
        }
        None => None,
    };
    let (built, command) = match replayed {
        Some(built) => (built, record.and_then(|r| r.command)),
        None => {
            let cargo_build = |on_event: &mut dyn FnMut(BuildEvent)| {
                cargo::build(
                    &layout.manifest,
                    &layout.program_libraries,
                    bin,
                    learner_copy,
                    shown_as,
                    options.color,
                    options.build_timeout,
                    &options.cancel,
                    on_event,
                )
            };
            let (mut built, mut invocation) = cargo_build(on_event)?;
            if matches!(built, Built::Ok { .. }) && invocation.is_none() && !options.cancel.is_cancelled() {
                // Cargo found the program fresh, so it ran no rustc to record, and without a
                // record every later check would go through cargo again. One compile now, made
                // to happen by a newer learner copy, is cheaper than that.
                if mark_changed(learner_copy) {
                    (built, invocation) = cargo_build(on_event)?;
                }
            }
            let command = invocation.and_then(|invocation| {
                let inputs = invocation.inputs(&tutor).iter().map(|p| Stamp::of(p)).collect::<Option<Vec<_>>>()?;
                let read_by_libraries = invocation.variables_its_libraries_read();
                Some(Recorded { invocation, inputs, read_by_libraries })
            });
            (built, command)
        }
    };
    let last = match &built {
        Built::Ok { executable, warnings } => {
            let dep_info = dep_info::latest(&layout.root, bin).ok().and_then(|path| Stamp::of(&path));
            Stamp::of(executable).zip(dep_info).map(|(executable, dep_info)| LastBuild {
                text: text.to_string(),
                executable,
                dep_info,
                warnings: warnings.clone(),
            })
        }
        _ => None,
    };
    let environment = key(&tutor, command.as_ref());
    let record = Record { harness: layout.fingerprint, color: options.color, environment, command, last };
    if !options.cancel.is_cancelled() {
        save(&path, &record);
    }
    Ok(built)
}

/// [`replay::run`], linked by lld itself where that has proven itself ([`direct_link`]). A
/// direct link that fails is tried again through `cc`, and given up for good if that one links.
fn replay_linked(
    private_dir: &Path,
    invocation: &Invocation,
    place: &replay::Place,
    options: &CheckOptions,
    on_event: &mut dyn FnMut(BuildEvent),
) -> Result<Option<Built>> {
    let temp = super::confine::build_temp_dir(place.harness);
    let direct = direct_link::arguments(private_dir, invocation, &temp);
    let built = replay::run(invocation, direct.as_deref(), place, options.build_timeout, &options.cancel, on_event)?;
    let failed_to_link = matches!(&built, Some(built) if link_failed(built));
    if direct.is_none() || !failed_to_link || options.cancel.is_cancelled() {
        return Ok(built);
    }
    let through_cc = replay::run(invocation, None, place, options.build_timeout, &options.cancel, on_event)?;
    if matches!(through_cc, Some(Built::Ok { .. })) {
        direct_link::give_up(private_dir, invocation, "lld alone failed to link a program that cc linked");
    }
    Ok(through_cc)
}

/// Whether a build failed at its link, not on the learner's code (which a link after it never
/// reaches).
fn link_failed(built: &Built) -> bool {
    matches!(built, Built::CompileErrors(errors)
        if errors.iter().any(|e| e.level == "error" && direct_link::is_link_failure(&e.message)))
}

/// Makes `path` newer than anything built from it; false if it cannot.
fn mark_changed(path: &Path) -> bool {
    let now = std::time::SystemTime::now();
    std::fs::File::options().write(true).open(path).and_then(|file| file.set_modified(now)).is_ok()
}

/// [`rustc_env::key`] of tutor's environment `tutor` for a record of `command`: what steers the
/// build, what cargo changed for rustc, and what the libraries' builds read.
fn key(tutor: &BTreeMap<String, String>, command: Option<&Recorded>) -> u64 {
    let names: Vec<&str> = command
        .map(|c| c.invocation.environment.names().chain(c.read_by_libraries.iter().map(String::as_str)).collect())
        .unwrap_or_default();
    rustc_env::key(tutor, &names)
}

/// Writes `record`; a failure only means the next check goes through cargo.
fn save(path: &Path, record: &Record) {
    if let Ok(text) = serde_json::to_string(record) {
        // Below `.tutor/` (`builds/` must be a real folder like every other on the way).
        if let Some(private) = path.parent().and_then(Path::parent) {
            let _ = write_below(private, path, &text);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::runner::rustc_env::Environment;

    #[test]
    fn a_record_holds_for_its_harness_colour_setting_and_environment_only() {
        let dir = std::env::temp_dir().join(format!("tutor-build-record-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("ex.json");
        let manifest = dir.join("Cargo.toml");
        let layout = Layout {
            root: dir.clone(),
            manifest,
            built_before: true,
            fingerprint: 7,
            libraries: Vec::new(),
            library_packages: Vec::new(),
            program_libraries: Vec::new(),
        };
        let tutor = BTreeMap::from([("CARGO_HOME".to_string(), "/c".to_string())]);
        let environment = key(&tutor, None);
        save(&path, &Record { harness: 7, color: false, environment, command: None, last: None });
        assert!(Record::load(&path, &layout, false, &tutor).is_some());
        assert!(Record::load(&path, &layout, true, &tutor).is_none(), "rendered without colours");
        let elsewhere = BTreeMap::from([("CARGO_HOME".to_string(), "/d".to_string())]);
        assert!(Record::load(&path, &layout, false, &elsewhere).is_none(), "another environment");
        assert!(Record::load(&path, &Layout { fingerprint: 8, ..layout }, false, &tutor).is_none(), "another harness");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// A program and its dep-info in `<temp>/…/target/debug/deps`, recorded as built last from
    /// the text `fn a() {}` by a compiler `<temp>/…/rustc`, which read `CARGO_PKG_NAME`.
    fn built_last(name: &str) -> (PathBuf, PathBuf, PathBuf, Record) {
        let dir = std::env::temp_dir().join(format!("tutor-build-{name}-{}", std::process::id()));
        let deps = dir.join("target/debug/deps");
        std::fs::create_dir_all(&deps).unwrap();
        let (program, dep_info, rustc) = (deps.join("ex_a-1"), deps.join("ex_a-1.d"), dir.join("rustc"));
        std::fs::write(&program, "built").unwrap();
        std::fs::write(&dep_info, "ex_a-1: a.rs\n\n# env-dep:CARGO_PKG_NAME=h\n").unwrap();
        std::fs::write(&rustc, "a compiler").unwrap();
        let environment = Environment { set: vec![("CARGO_PKG_NAME".into(), "h".into())], removed: Vec::new() };
        let invocation = Invocation { program: rustc.clone(), args: Vec::new(), environment };
        let command = Recorded { invocation, inputs: vec![Stamp::of(&rustc).unwrap()], read_by_libraries: Vec::new() };
        let last = LastBuild {
            text: "fn a() {}".into(),
            executable: Stamp::of(&program).unwrap(),
            dep_info: Stamp::of(&dep_info).unwrap(),
            warnings: Vec::new(),
        };
        let record = Record { harness: 1, color: false, environment: 1, command: Some(command), last: Some(last) };
        (dir, program, dep_info, record)
    }

    #[test]
    fn a_program_is_reused_for_its_own_text_while_it_and_its_dep_info_are_unchanged() {
        let (dir, _, dep_info, record) = built_last("reuse");
        let reuse = |text: &str| record.reuse(text, &dir, "ex-a", &BTreeMap::new());
        assert!(matches!(reuse("fn a() {}"), Some(Built::Ok { .. })));
        assert!(reuse("fn a() {} ").is_none(), "another text");
        // A compile since, even one stopped before it wrote a program.
        std::fs::write(&dep_info, "ex_a-1: a.rs b.rs").unwrap();
        assert!(reuse("fn a() {}").is_none(), "compiled since");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_program_is_not_reused_when_a_compile_now_would_read_otherwise() {
        let (dir, _, dep_info, record) = built_last("reads");
        std::fs::write(&dep_info, "ex_a-1: a.rs\n\n# env-dep:CARGO_PKG_NAME=other\n").unwrap();
        let mut record = record;
        record.last.as_mut().unwrap().dep_info = Stamp::of(&dep_info).unwrap();
        assert!(
            record.reuse("fn a() {}", &dir, "ex-a", &BTreeMap::new()).is_none(),
            "a variable it read has another value"
        );
        std::fs::remove_dir_all(&dir).unwrap();

        let (dir, _, _, record) = built_last("compiler");
        std::fs::write(dir.join("rustc"), "another compiler").unwrap();
        assert!(record.reuse("fn a() {}", &dir, "ex-a", &BTreeMap::new()).is_none(), "another compiler");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_changed_program_is_not_reused() {
        let (dir, program, _, record) = built_last("changed");
        std::fs::write(&program, "built again").unwrap();
        assert!(record.reuse("fn a() {}", &dir, "ex-a", &BTreeMap::new()).is_none());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
