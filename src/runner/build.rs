//! Which way a check gets its graded program: the program built last, when the learner's file
//! is what it was built from; rustc run directly ([`super::replay`]), when only the learner's
//! file changed since cargo last compiled it; cargo, otherwise.
//!
//! What makes the first two safe is kept per graded program in `.tutor/builds/<bin>.json`, out
//! of the build's reach (it may write beneath the harness's `target/` only): the harness's
//! fingerprint and the colour setting it was built with, the rustc command with the size and
//! time of every file it reads besides sources, and the text, program and warnings of the last
//! build that succeeded. Anything that differs sends the check to cargo, which records anew. A
//! record that cannot be read or written costs speed, never a verdict.

use std::path::{Path, PathBuf};
use std::time::UNIX_EPOCH;

use anyhow::Result;
use serde::{Deserialize, Serialize};

use super::cargo::{self, BuildEvent, Built};
use super::diagnostic::Diagnostic;
use super::harness::Layout;
use super::replay::{self, Invocation};
use super::CheckOptions;
use crate::fsutil::write_if_changed;

/// What a later check may reuse of one graded program's builds.
#[derive(Debug, Serialize, Deserialize)]
struct Record {
    /// The harness it was built in ([`Layout::fingerprint`]).
    harness: u64,
    /// Whether rustc's messages carry colours.
    color: bool,
    /// The rustc command cargo ran, and what it read.
    command: Option<Recorded>,
    /// The build that produced the program now on disk, when it succeeded.
    last: Option<LastBuild>,
}

#[derive(Debug, Serialize, Deserialize)]
struct Recorded {
    invocation: Invocation,
    inputs: Vec<Stamp>,
}

#[derive(Debug, Serialize, Deserialize)]
struct LastBuild {
    /// The learner's file, exactly.
    text: String,
    executable: Stamp,
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
    /// The record of `bin`, if there is one for this harness and colour setting.
    fn load(path: &Path, layout: &Layout, color: bool) -> Option<Record> {
        let text = std::fs::read_to_string(path).ok()?;
        let record: Record = serde_json::from_str(&text).ok()?;
        (record.harness == layout.fingerprint && record.color == color).then_some(record)
    }

    /// The program built last, if it was built from `text` and is still on disk as it was.
    fn reuse(&self, text: &str) -> Option<Built> {
        let last = self.last.as_ref().filter(|last| last.text == text && last.executable.is_current())?;
        Some(Built::Ok { executable: last.executable.path.clone(), warnings: last.warnings.clone() })
    }

    /// The recorded rustc command, if everything it reads is as it was.
    fn command(&self) -> Option<&Invocation> {
        let command = self.command.as_ref().filter(|c| c.inputs.iter().all(Stamp::is_current))?;
        Some(&command.invocation)
    }
}

/// Where the records are kept.
pub fn records_dir(private_dir: &Path) -> PathBuf {
    private_dir.join("builds")
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
    let path = records_dir(private_dir).join(format!("{bin}.json"));
    let record = Record::load(&path, layout, options.color);
    if let Some(record) = &record {
        if let Some(built) = record.reuse(text) {
            return Ok(built);
        }
    }
    let replayed = match record.as_ref().and_then(Record::command) {
        Some(invocation) => {
            let place = replay::Place { harness: &layout.root, learner_copy, shown_as, color: options.color };
            replay::run(invocation, &place, options.build_timeout, &options.cancel, on_event)?
        }
        None => None,
    };
    let (built, command) = match replayed {
        Some(built) => (built, record.and_then(|r| r.command)),
        None => {
            let (built, invocation) = cargo::build(
                &layout.manifest,
                bin,
                learner_copy,
                shown_as,
                options.color,
                options.build_timeout,
                &options.cancel,
                on_event,
            )?;
            let command = invocation.and_then(|invocation| {
                let inputs = invocation.inputs().iter().map(|p| Stamp::of(p)).collect::<Option<Vec<_>>>()?;
                Some(Recorded { invocation, inputs })
            });
            (built, command)
        }
    };
    let last = match &built {
        Built::Ok { executable, warnings } => Stamp::of(executable).map(|executable| LastBuild {
            text: text.to_string(),
            executable,
            warnings: warnings.clone(),
        }),
        _ => None,
    };
    let record = Record { harness: layout.fingerprint, color: options.color, command, last };
    if !options.cancel.is_cancelled() {
        save(&path, &record);
    }
    Ok(built)
}

/// Writes `record`; a failure only means the next check goes through cargo.
fn save(path: &Path, record: &Record) {
    if let Ok(text) = serde_json::to_string(record) {
        let _ = write_if_changed(path, &text);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_record_holds_for_its_harness_and_colour_setting_only() {
        let dir = std::env::temp_dir().join(format!("tutor-build-record-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("ex.json");
        let layout = Layout { root: dir.clone(), manifest: dir.join("Cargo.toml"), built_before: true, fingerprint: 7 };
        save(&path, &Record { harness: 7, color: false, command: None, last: None });
        assert!(Record::load(&path, &layout, false).is_some());
        assert!(Record::load(&path, &layout, true).is_none(), "rendered without colours");
        assert!(Record::load(&path, &Layout { fingerprint: 8, ..layout }, false).is_none(), "another harness");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_program_is_reused_for_its_own_text_while_it_is_unchanged() {
        let dir = std::env::temp_dir().join(format!("tutor-build-reuse-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let program = dir.join("program");
        std::fs::write(&program, "built").unwrap();
        let last =
            LastBuild { text: "fn a() {}".into(), executable: Stamp::of(&program).unwrap(), warnings: Vec::new() };
        let record = Record { harness: 1, color: false, command: None, last: Some(last) };
        assert!(matches!(record.reuse("fn a() {}"), Some(Built::Ok { .. })));
        assert!(record.reuse("fn a() {} ").is_none(), "another text");
        std::fs::write(&program, "built again").unwrap();
        assert!(record.reuse("fn a() {}").is_none(), "the program changed");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
