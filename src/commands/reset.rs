//! `tutor reset EXERCISE`: the original stub back, the learner's file kept under
//! `.tutor/backups/`, the exercise marked not started.

use std::process::ExitCode;

use anyhow::{Context, Result};
use colored::Colorize;

use super::{confirm, Session};
use crate::course::embedded::course_file;
use crate::errors::OnFile;
use crate::fsutil::write_if_changed;
use crate::progress::ExerciseStatus;
use crate::runner;

/// Restores the stub after a confirmation (or `--yes`).
pub fn run(session: &Session, name: &str, yes: bool) -> Result<ExitCode> {
    let exercise = session.exercise(Some(name))?;
    let printer = &session.printer;
    let prompt = printer.lines(|u| u.reset_prompt, &[("file", &exercise.file)]);
    if !confirm("reset", &prompt, "reset", yes)? {
        printer.say(|u| u.reset_declined, &[]);
        return Ok(ExitCode::SUCCESS);
    }

    // A check running now must record its verdict before the stub replaces the file it
    // graded; otherwise its "passed" would land on the fresh stub. The lock is held to the end.
    let _lock = runner::lock_checks(&session.workspace, &mut || {
        eprintln!("{}", printer.lines(|u| u.waiting_for_lock, &[]).dimmed());
    })?;

    let file = session.workspace.exercise_file(exercise);
    if file.exists() {
        let backups = session.workspace.private_dir().join("backups");
        std::fs::create_dir_all(&backups).with_context(|| OnFile::write(&backups))?;
        let stamp = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs());
        let backup = (0..)
            .map(|n| {
                backups.join(if n == 0 {
                    format!("{}-{stamp}.rs", exercise.id)
                } else {
                    format!("{}-{stamp}-{n}.rs", exercise.id)
                })
            })
            .find(|candidate| !candidate.exists())
            .context("choosing a backup name")?;
        std::fs::copy(&file, &backup).with_context(|| OnFile::write(&backup))?;
        let shown = backup.strip_prefix(session.workspace.root()).unwrap_or(&backup).display().to_string();
        printer.say(|u| u.reset_backup, &[("backup", &shown)]);
    }
    let stub = course_file(&exercise.file).context("the stub is embedded")?;
    write_if_changed(&file, stub)?;
    session
        .update(|state| state.exercises.entry(exercise.id.clone()).or_default().status = ExerciseStatus::NotStarted)?;
    printer.say(|u| u.reset_done, &[("file", &exercise.file), ("id", &exercise.id)]);
    Ok(ExitCode::SUCCESS)
}
