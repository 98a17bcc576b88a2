//! `tutor reset EXERCISE`: the original stub back, the learner's file kept under
//! `.tutor/backups/`, the exercise marked not started.

use std::fs::OpenOptions;
use std::path::Path;
use std::process::ExitCode;

use anyhow::{Context, Result};
use colored::Colorize;

use super::{confirm, Session};
use crate::course::embedded::course_file;
use crate::course::Exercise;
use crate::errors::CliError;
use crate::fsutil::regular::{self, FileError, Links};
use crate::fsutil::OnFile;
use crate::progress::ExerciseStatus;
use crate::runner;

/// The word the learner types to confirm a reset (here and in `tutor watch`'s list).
pub const CONFIRMATION: &str = "reset";

/// Restores the stub after a confirmation (or `--yes`).
pub fn run(session: &Session, name: &str, yes: bool) -> Result<ExitCode> {
    let exercise = session.exercise(Some(name))?;
    let printer = &session.printer;
    let prompt = printer.lines(|u| u.reset_prompt, &[("file", &exercise.file)]);
    if !confirm("reset", &prompt, CONFIRMATION, yes)? {
        printer.say(|u| u.reset_declined, &[]);
        return Ok(ExitCode::SUCCESS);
    }

    let backup = restore_stub(session, exercise, &mut || {
        eprintln!("{}", printer.wrapped(|u| u.waiting_for_lock, &[]).dimmed());
    })?;
    if let Some(shown) = backup {
        printer.say(|u| u.reset_backup, &[("backup", &shown)]);
    }
    printer.say(|u| u.reset_done, &[("file", &exercise.file), ("id", &exercise.id)]);
    Ok(ExitCode::SUCCESS)
}

/// Puts the stub of `exercise` back, once the learner has confirmed: the learner's file is
/// copied to `.tutor/backups/` first (its path in the workspace is returned), and the exercise
/// is marked not started. `on_wait` is called if a check must be waited for. `tutor watch`
/// resets from its list through this too.
pub fn restore_stub(session: &Session, exercise: &Exercise, on_wait: &mut dyn FnMut()) -> Result<Option<String>> {
    // A check running now must record its verdict before the stub replaces the file it
    // graded; otherwise its "passed" would land on the fresh stub. The lock is held to the end.
    let _lock = runner::lock_checks(&session.workspace, on_wait)?;

    let file = session.workspace.exercise_file(exercise);
    // A link is never read through (it may lead to `/proc/self/environ`): refused like a FIFO,
    // for the learner to move.
    let root = session.workspace.root();
    crate::fsutil::below::no_link_below(root, file.parent().unwrap_or(root))?;
    let kept = match regular::kind_at(&file, Links::Refuse) {
        Err(FileError::Missing) => None,
        Ok(None) => Some(back_up(session, exercise, &file)?),
        Ok(Some(kind)) => {
            let (file, id) = (exercise.file.clone(), exercise.id.clone());
            return Err(CliError::ExerciseNotAFile { file, id, kind }.into());
        }
        Err(e) => return Err(e.at(&file, false)),
    };
    let stub = course_file(&exercise.file).context("the stub is embedded")?;
    crate::fsutil::below::write_below(root, &file, stub)?;
    session.update(|state| state.exercises.entry(exercise.key()).or_default().status = ExerciseStatus::NotStarted)?;
    Ok(kept)
}

/// Copies the learner's file to a new file in `.tutor/backups/`; returns its path in the
/// workspace. The copy streams, so a file of any size is kept whole.
fn back_up(session: &Session, exercise: &Exercise, file: &Path) -> Result<String> {
    let backups = session.workspace.private_dir().join("backups");
    crate::fsutil::below::real_folders_below(session.workspace.root(), &backups)?;
    let stamp = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs());
    let mut source = regular::open_read(file, Links::Refuse).map_err(|e| e.at(file, false))?;
    for n in 0..10_000u32 {
        let name = match n {
            0 => format!("{}-{stamp}.rs", exercise.local),
            n => format!("{}-{stamp}-{n}.rs", exercise.local),
        };
        let backup = backups.join(name);
        // `create_new` never opens what is there, a link included.
        let mut copy = match OpenOptions::new().write(true).create_new(true).open(&backup) {
            Ok(copy) => copy,
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(e).with_context(|| OnFile::write(&backup)),
        };
        std::io::copy(&mut source, &mut copy).and_then(|_| copy.sync_all()).with_context(|| OnFile::write(&backup))?;
        return Ok(backup.strip_prefix(session.workspace.root()).unwrap_or(&backup).display().to_string());
    }
    anyhow::bail!("choosing a backup name in {}", backups.display())
}
