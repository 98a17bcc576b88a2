//! `tutor check [EXERCISE] [--all]`: compile, grade, render, save progress.

use std::io::Write;
use std::process::ExitCode;

use anyhow::Result;
use colored::Colorize;

use super::Session;
use crate::cli::Limits;
use crate::course::Exercise;
use crate::render::check::{render, Detail, FileNames};
use crate::render::list::current;
use crate::render::progress_line::ProgressLine;
use crate::render::{title, Printer};
use crate::runner::{self, CheckEvent, CheckOptions};

/// Checks one exercise (or all); exit 0 when every check passed, 1 otherwise.
pub fn run(session: &Session, name: Option<&str>, all: bool, limits: &Limits, detail: Detail) -> Result<ExitCode> {
    let selected: Vec<&Exercise> =
        if all { session.catalogue.exercises.iter().collect() } else { vec![session.exercise(name)?] };
    let options = CheckOptions::from_limits(limits, session.printer.color);
    let mut every_one_passed = true;
    for exercise in &selected {
        let checked = check_one(session, exercise, &options, detail)?;
        every_one_passed &= checked.passed;
        if checked.passed && !all {
            tell_what_is_next(&session.printer, exercise, checked.current);
        }
    }
    Ok(if every_one_passed { ExitCode::SUCCESS } else { ExitCode::from(1) })
}

/// What one check found, for the caller to act on.
pub struct Checked<'a> {
    /// Every case passed.
    pub passed: bool,
    /// The first exercise not yet passed, after recording this check (`None`: all done).
    pub current: Option<&'a Exercise>,
}

/// Checks one exercise, prints the verdict (as much of it as `detail` asks) and records it.
pub fn check_one<'a>(
    session: &'a Session,
    exercise: &Exercise,
    options: &CheckOptions,
    detail: Detail,
) -> Result<Checked<'a>> {
    let printer = &session.printer;
    let name = title(printer, &exercise.title_zh, &exercise.title_en);
    let heading = format!("{} {} · {name}", printer.label(|u| u.checking), exercise.id);
    println!("{}", crate::render::wrap::wrap(&heading, "", "  ", printer.width()).bold());
    let _ = std::io::stdout().flush();

    let first_build = !runner::harness::is_built(&session.workspace.private_dir());
    if first_build {
        eprintln!("{}", printer.lines(|u| u.first_build, &[]).dimmed());
    }
    let mut progress = ProgressLine::new();
    // Held until the verdict is recorded, so that a `tutor reset` waits for it (see
    // `runner::CheckLock`).
    let outcome = runner::lock_checks(&session.workspace, &mut || progress.event(printer, CheckEvent::Waiting))
        .and_then(|lock| {
            runner::check(&session.workspace, &session.catalogue, exercise, options, &lock, &mut |e| {
                progress.event(printer, e)
            })
            .map(|outcome| (lock, outcome))
        });
    progress.clear();
    let (lock, outcome) = outcome?;

    let copy = runner::harness::learner_copy_in(&session.workspace.private_dir(), exercise);
    let absolute = copy.to_string_lossy().into_owned();
    let files = FileNames { absolute: &absolute, shown: &exercise.file };
    print!("{}", render(printer, &outcome, &exercise.id, exercise.todo, &files, detail));

    let passed = outcome.passed();
    let current = session.update(|state| {
        state.exercises.entry(exercise.id.clone()).or_default().record_check(passed);
        current(&session.catalogue, state)
    })?;
    drop(lock);

    if let Some(verdict) = verdict(printer, exercise, &outcome) {
        println!("\n{verdict}");
    }
    Ok(Checked { passed, current })
}

/// The line under a report: passed, or how many cases fail (nothing when the program was not
/// graded: the report said why).
pub fn verdict(printer: &Printer, exercise: &Exercise, outcome: &runner::CheckOutcome) -> Option<String> {
    // A failed graded check already ends on its summary line, which says what to run next.
    outcome.passed().then(|| printer.lines(|u| u.passed_all, &[("id", &exercise.id)]).green().bold().to_string())
}

fn tell_what_is_next(printer: &Printer, done: &Exercise, current: Option<&Exercise>) {
    match current {
        Some(next) if next.id != done.id => {
            let name = title(printer, &next.title_zh, &next.title_en);
            printer.say(|u| u.next_exercise, &[("id", &next.id), ("title", &name), ("file", &next.file)]);
        }
        Some(_) => {}
        None => printer.say(|u| u.course_complete, &[]),
    }
}
