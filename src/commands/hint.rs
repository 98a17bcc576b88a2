//! `tutor hint [EXERCISE] [--all]`: the next hint level, remembered in the progress file.

use std::fmt::Write as _;
use std::process::ExitCode;

use anyhow::{Context, Result};
use colored::Colorize;

use super::Session;
use crate::course::{Lesson, Part};
use crate::errors::CliError;
use crate::render::{markdown, wrap};

/// Prints the next hint (or all of them, or one level) and records the level reached.
pub fn run(session: &Session, name: Option<&str>, all: bool, level: Option<u32>) -> Result<ExitCode> {
    print!("{}", text(session, name, all, level)?);
    Ok(ExitCode::SUCCESS)
}

/// What [`run`] prints (`tutor watch` shows it on its screen), after recording the level reached.
pub fn text(session: &Session, name: Option<&str>, all: bool, level: Option<u32>) -> Result<String> {
    let exercise = session.exercise(name)?;
    let lesson = Lesson::parse(exercise.lesson_source()).context("parsing the lesson")?;
    let total = lesson.hint_count();
    if total == 0 {
        return Ok(format!("{}\n", session.printer.lines(|u| u.no_hints, &[])));
    }
    let next = session.state()?.of(&exercise.key()).next_hint(total);
    let levels: Vec<u32> = match (all, level) {
        (true, _) => (1..=total).collect(),
        (false, Some(level)) if level > total => {
            return Err(CliError::NoSuchHint { id: exercise.id.clone(), level, total }.into());
        }
        (false, Some(level)) => vec![level],
        (false, None) => vec![next],
    };
    let columns = session.printer.width();
    let mut out = String::new();
    for &level in &levels {
        let header =
            session.printer.lines(|u| u.hint_header, &[("n", &level), ("total", &total), ("id", &exercise.id)]);
        let header = wrap::wrap(&header.replace('\n', " · "), "", "  ", columns);
        let _ = writeln!(out, "{}", header.bold().cyan());
        for &language in session.printer.languages() {
            if let Some(text) = lesson.text(Part::Hint(level), language) {
                let _ = writeln!(out, "{}", markdown::render(&crate::invocation::course_text(text), columns));
            }
        }
    }
    let reached = *levels.last().unwrap_or(&0);
    session.update(|state| {
        let progress = state.exercises.entry(exercise.key()).or_default();
        progress.hints = progress.hints.max(reached);
    })?;
    if reached == total && !all {
        let last = session.printer.lines(|u| u.last_hint, &[("id", &exercise.id)]);
        let _ = writeln!(out, "{}", wrap::wrap(&last, "", "  ", columns).dimmed());
    }
    Ok(out)
}
