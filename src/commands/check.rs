//! `tutor check [EXERCISE] [--all]`: compile, grade, render, save progress.

use std::io::Write;
use std::process::ExitCode;

use anyhow::Result;
use colored::Colorize;

use super::Session;
use crate::cli::Limits;
use crate::course::Exercise;
use crate::progress::clock;
use crate::render::check::{render, Detail, FileNames};
use crate::render::json;
use crate::render::list::course_title;
use crate::render::progress_line::ProgressLine;
use crate::render::{plain, title, Printer};
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
            tell_what_is_next(session, exercise, checked.current, checked.finished_course)?;
        }
    }
    Ok(if every_one_passed { ExitCode::SUCCESS } else { ExitCode::from(1) })
}

/// What one check found, for the caller to act on.
pub struct Checked<'a> {
    /// Every case passed.
    pub passed: bool,
    /// The next exercise not yet passed after this one (the rest of its course first), after
    /// recording this check (`None`: all done).
    pub current: Option<&'a Exercise>,
    /// This check passed the last exercise of its course not passed before.
    pub finished_course: bool,
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
    // Events and the report share the status line: the report clears it first.
    let progress = std::cell::RefCell::new(ProgressLine::new());
    let graded = grade(session, exercise, options, &mut |e| progress.borrow_mut().event(printer, e), |outcome| {
        progress.borrow_mut().clear();
        let files = shown_files(session, exercise);
        print!("{}", render(printer, outcome, &exercise.id, exercise.todo, &files.as_names(), detail));
    });
    progress.borrow_mut().clear();
    let (outcome, current, kept, finished_course) = graded?;
    if let Some(verdict) = verdict(printer, exercise, &outcome) {
        println!("\n{verdict}");
    }
    if let Some(failed_at) = kept {
        println!("\n{}", pass_kept(printer, exercise, failed_at));
    }
    Ok(Checked { passed: outcome.passed(), current, finished_course })
}

/// Checks one exercise under the workspace's check lock, shows the outcome with `show`, and
/// records the verdict before the lock is let go (so that a `tutor reset` waits for it, see
/// `runner::CheckLock`). Returns the outcome, the next exercise not yet passed, and, when this
/// check failed an exercise that had passed (its pass is kept), when.
fn grade<'a>(
    session: &'a Session,
    exercise: &Exercise,
    options: &CheckOptions,
    on_event: &mut dyn FnMut(CheckEvent),
    show: impl FnOnce(&runner::CheckOutcome),
) -> Result<(runner::CheckOutcome, Option<&'a Exercise>, Option<u64>, bool)> {
    let lock = runner::lock_checks(&session.workspace, &mut || on_event(CheckEvent::Waiting))?;
    let outcome = runner::check(&session.workspace, &session.catalogue, exercise, options, &lock, on_event)?;
    show(&outcome);
    let recorded = session.record_verdict(exercise, outcome.passed())?;
    drop(lock);
    Ok((outcome, recorded.next, recorded.pass_kept_since, recorded.finished_course))
}

/// The harness's copy of the learner's file and the name to show in its place.
pub struct ShownFiles {
    absolute: String,
    shown: String,
}

impl ShownFiles {
    /// The names as the report renderer takes them.
    pub fn as_names(&self) -> FileNames<'_> {
        FileNames { absolute: &self.absolute, shown: &self.shown }
    }
}

/// Where the harness keeps its copy of `exercise`, and the workspace name to show instead.
pub fn shown_files(session: &Session, exercise: &Exercise) -> ShownFiles {
    let copy = runner::harness::learner_copy_in(&session.workspace.private_dir(), exercise);
    ShownFiles { absolute: copy.to_string_lossy().into_owned(), shown: exercise.file.clone() }
}

/// `tutor check --format json`: grades the exercises quietly, records each verdict, and writes
/// one JSON document on stdout (see `render::json`); exit codes as for the text report.
pub fn run_json(session: &Session, name: Option<&str>, all: bool, limits: &Limits) -> Result<ExitCode> {
    let selected: Vec<&Exercise> =
        if all { session.catalogue.exercises.iter().collect() } else { vec![session.exercise(name)?] };
    let options = CheckOptions::from_limits(limits, false);
    let mut outcomes = Vec::new();
    for exercise in &selected {
        // An exercise that cannot be graded (its program would not start, a folder refused) is
        // an `error` entry with the message tutor would print: the others keep their results,
        // and the document is written whatever happened.
        let (outcome, printed) = match grade(session, exercise, &options, &mut |_| {}, |_| {}) {
            // A graded check is described case by case.
            Ok((outcome @ runner::CheckOutcome::Graded { .. }, ..)) => (Some(outcome), String::new()),
            // One that could not be graded by the message tutor would print, without colour.
            Ok((outcome, ..)) => {
                let files = shown_files(session, exercise);
                let printed =
                    render(&session.printer, &outcome, &exercise.id, exercise.todo, &files.as_names(), Detail::Verbose);
                (Some(outcome), plain(&printed))
            }
            Err(error) => (None, plain(&crate::errors::describe_error(&session.printer, &error))),
        };
        outcomes.push((exercise, outcome, printed));
    }
    let checked: Vec<json::Checked> = outcomes
        .iter()
        .map(|(exercise, outcome, printed)| json::Checked {
            exercise: &exercise.id,
            course: &exercise.course,
            outcome: outcome.as_ref(),
            printed: printed.clone(),
        })
        .collect();
    let document = json::document(&checked);
    println!("{}", serde_json::to_string_pretty(&document)?);
    // An exercise that could not be graded is the environment's problem (exit 2, as in text).
    if outcomes.iter().any(|(_, outcome, _)| outcome.is_none()) {
        return Ok(ExitCode::from(2));
    }
    let every_one_passed = outcomes.iter().all(|(_, outcome, _)| outcome.as_ref().is_some_and(|o| o.passed()));
    Ok(if every_one_passed { ExitCode::SUCCESS } else { ExitCode::from(1) })
}

/// The line under a report: passed, or how many cases fail (nothing when the program was not
/// graded: the report said why).
pub fn verdict(printer: &Printer, exercise: &Exercise, outcome: &runner::CheckOutcome) -> Option<String> {
    // A failed graded check already ends on its summary line, which says what to run next.
    outcome.passed().then(|| printer.lines(|u| u.passed_all, &[("id", &exercise.id)]).green().bold().to_string())
}

/// After a failing check of an exercise that had passed (at `failed_at`): its pass is kept.
pub fn pass_kept(printer: &Printer, exercise: &Exercise, failed_at: u64) -> String {
    let values: [(&str, &dyn std::fmt::Display); 2] = [("id", &exercise.id), ("time", &clock(failed_at))];
    crate::render::wrap::wrap(&printer.lines(|u| u.pass_kept, &values), "", "", printer.width()).yellow().to_string()
}

/// After a pass: the end of its course, when this check finished it, and the next
/// exercise not passed yet, if any.
fn tell_what_is_next(session: &Session, done: &Exercise, next: Option<&Exercise>, finished_course: bool) -> Result<()> {
    let printer = &session.printer;
    // Said once, by the check that finished the course, not by every passing check after it.
    if finished_course {
        let course = course_title(printer, &session.catalogue, &done.course);
        printer.say(|u| u.course_complete, &[("course", &course)]);
    }
    match next.filter(|next| next.key() != done.key()) {
        // Another chapter: its overview comes before its first exercise.
        Some(next) if next.course != done.course => {
            let course = course_title(printer, &session.catalogue, &next.course);
            let values: [(&str, &dyn std::fmt::Display); 4] =
                [("course", &course), ("course_id", &next.course), ("id", &next.id), ("file", &next.file)];
            printer.say(|u| u.next_chapter, &values);
        }
        Some(next) => {
            let name = title(printer, &next.title_zh, &next.title_en);
            printer.say(|u| u.next_exercise, &[("id", &next.id), ("title", &name), ("file", &next.file)]);
        }
        None if finished_course => printer.say(|u| u.all_done, &[]),
        None => {}
    }
    Ok(())
}
