//! The checks of `dev check` that build and grade: every stub fails on its own TODO, every
//! solution passes. They go through the real runner, as `tutor check` does (the confined cargo
//! build, the confined graded program), in a private scratch workspace per course under the
//! system's temporary folder, reused between runs so that later runs are warm.
//!
//! The scratch workspace's catalogue lists every exercise twice, as its stub and as its solution
//! (`<id>-solution`), so that each has its own copy and its own binary in the harness: a run in
//! which nothing changed rebuilds nothing.

use std::path::PathBuf;

use anyhow::{Context, Result};
use colored::Colorize;

use crate::cli::Limits;
use crate::course::{Catalogue, Exercise};
use crate::fsutil::below::write_below;
use crate::fsutil::OnFile;
use crate::render::progress_line::ProgressLine;
use crate::render::Printer;
use crate::runner::{self, CheckOptions, CheckOutcome, Refusal};
use crate::workspace::Workspace;
use tutor_grade::report::{CaseResult, Report, Status};

use super::content::Course;
use super::Problem;
use crate::render::pick;

/// Which of an exercise's two files is graded.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Role {
    /// The stub, which must fail on its own TODO.
    Stub,
    /// The solution, which must pass every case.
    Solution,
}

/// Grades every stub (or every solution) of `course`; returns the problems found.
pub fn run(printer: &Printer, course: &Course, role: Role, limits: &Limits) -> Result<Vec<Problem>> {
    let workspace = Workspace::at(&scratch_dir(&course.id)?);
    let catalogue = scratch_catalogue(course);
    let options = CheckOptions::from_limits(limits, false);
    let mut problems = Vec::new();
    for original in course.exercises() {
        let path = match role {
            Role::Stub => &original.file,
            Role::Solution => &original.solution,
        };
        let Some(text) = course.text(path) else {
            problems.push(Problem::new(path, printer.inline(|u| u.dev_file_absent, &[])));
            continue;
        };
        let entry = catalogue
            .exercises
            .iter()
            .find(|e| e.local == scratch_id(original, role))
            .context("the scratch catalogue lists every exercise")?;
        let outcome = grade(printer, &workspace, &catalogue, entry, text, &options)?;
        let reason = match role {
            Role::Stub => stub_problem(printer, original.todo, &outcome),
            Role::Solution => solution_problem(printer, &outcome),
        };
        // A panic's location names the harness's copy: show the author's file instead.
        let copy = runner::harness::learner_copy_in(&workspace.private_dir(), entry);
        let copy = copy.to_string_lossy();
        problems.extend(reason.map(|reason| Problem::new(path, reason.replace(copy.as_ref(), path))));
    }
    Ok(problems)
}

/// Grades `text` as `exercise`'s file, under the scratch workspace's lock: another `dev check`
/// may share the folder, so the file is written only once the lock is held. The build's
/// progress goes to stderr.
fn grade(
    printer: &Printer,
    workspace: &Workspace,
    catalogue: &Catalogue,
    exercise: &Exercise,
    text: &str,
    options: &CheckOptions,
) -> Result<CheckOutcome> {
    let mut progress = ProgressLine::new();
    let lock = runner::lock_checks(workspace, &mut || progress.event(printer, runner::CheckEvent::Waiting))?;
    if !runner::harness::is_built(&workspace.private_dir()) {
        eprintln!("{}", printer.lines(|u| u.first_build, &[]).dimmed());
    }
    write_below(workspace.root(), &workspace.exercise_file(exercise), text)?;
    let outcome = runner::check(workspace, catalogue, exercise, options, &lock, &mut |e: runner::CheckEvent| {
        progress.event(printer, e)
    });
    drop(lock);
    progress.clear();
    outcome
}

/// The private scratch folder of `course`: `<temp>/tutor-dev-<uid>/<course>`, made if needed,
/// and refused when it belongs to another user.
fn scratch_dir(course: &str) -> Result<PathBuf> {
    let dir = std::env::temp_dir().join(format!("tutor-dev-{}", user_id())).join(course);
    std::fs::create_dir_all(&dir).with_context(|| OnFile::write(&dir))?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        let parent = dir.parent().unwrap_or(&dir);
        let owner = std::fs::symlink_metadata(parent).with_context(|| OnFile::read(parent))?.uid();
        anyhow::ensure!(owner == user_id(), "{} belongs to another user", parent.display());
    }
    Ok(dir)
}

/// This process's user id (0 where there is none).
fn user_id() -> u32 {
    #[cfg(unix)]
    // SAFETY: getuid has no preconditions and cannot fail.
    unsafe {
        libc::getuid()
    }
    #[cfg(not(unix))]
    0
}

/// The id an exercise's stub or solution has in the scratch catalogue.
fn scratch_id(exercise: &Exercise, role: Role) -> String {
    match role {
        Role::Stub => exercise.local.clone(),
        Role::Solution => format!("{}-solution", exercise.local),
    }
}

/// The course's catalogue with every exercise twice, stub and solution, each at a path of the
/// scratch workspace's own choosing (a catalogue's paths are never written to as they are).
fn scratch_catalogue(course: &Course) -> Catalogue {
    let mut exercises = Vec::new();
    for exercise in course.exercises() {
        for (role, folder) in [(Role::Stub, "exercises"), (Role::Solution, "solutions")] {
            let mut entry = exercise.clone();
            entry.local = scratch_id(exercise, role);
            entry.id = entry.local.clone();
            entry.file = format!("{folder}/{}/{}.rs", course.id, exercise.local);
            exercises.push(entry);
        }
    }
    Catalogue { courses: course.catalogue.courses.clone(), exercises }
}

/// What is wrong with a stub's check, if anything: it must be graded, fail, and have a case
/// that is not done.
fn stub_problem(printer: &Printer, todo: u32, outcome: &CheckOutcome) -> Option<String> {
    let CheckOutcome::Graded { report, .. } = outcome else { return Some(not_graded(printer, outcome)) };
    if report.cases.is_empty() {
        return Some(printer.inline(|u| u.dev_no_cases, &[]));
    }
    if report.all_passed() {
        return Some(printer.inline(|u| u.dev_stub_passes, &[("todo", &todo)]));
    }
    if report.cases.iter().any(|c| c.status == Status::NotDone) {
        return None;
    }
    let failing = failing(report);
    let first = failing.first()?;
    Some(printer.inline_each(
        |u| u.dev_stub_fails_otherwise,
        |l| {
            vec![
                ("todo", todo.to_string()),
                ("failed", failing.len().to_string()),
                ("case", first.id.clone()),
                ("message", message(l, first)),
            ]
        },
    ))
}

/// What is wrong with a solution's check, if anything: it must be graded and pass every case.
fn solution_problem(printer: &Printer, outcome: &CheckOutcome) -> Option<String> {
    let CheckOutcome::Graded { report, .. } = outcome else { return Some(not_graded(printer, outcome)) };
    if report.cases.is_empty() {
        return Some(printer.inline(|u| u.dev_no_cases, &[]));
    }
    let failing = failing(report);
    let first = failing.first()?;
    Some(printer.inline_each(
        |u| u.dev_solution_fails,
        |l| {
            vec![
                ("failed", failing.len().to_string()),
                ("total", report.cases.len().to_string()),
                ("seed", report.seed.to_string()),
                ("case", first.id.clone()),
                ("message", message(l, first)),
            ]
        },
    ))
}

/// The cases that did not pass.
fn failing(report: &Report) -> Vec<&CaseResult> {
    report.cases.iter().filter(|c| c.status != Status::Passed).collect()
}

/// A failing case's message in one language, on one line.
fn message(language: crate::course::lesson::Language, case: &CaseResult) -> String {
    let text = case.message.as_ref().map(|m| crate::render::shown(pick(language, &m.zh, &m.en))).unwrap_or_default();
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Why a file could not be graded at all.
fn not_graded(printer: &Printer, outcome: &CheckOutcome) -> String {
    match outcome {
        CheckOutcome::Graded { .. } => String::new(),
        CheckOutcome::CompileFailed { diagnostics, .. } => {
            let first = diagnostics.iter().find(|d| d.level == "error").or(diagnostics.first());
            let message = first.map(|d| d.message.clone()).unwrap_or_default();
            printer.inline(|u| u.dev_does_not_compile, &[("message", &message)])
        }
        CheckOutcome::BuildTimedOut { limit } => {
            printer.inline(|u| u.dev_build_timed_out, &[("secs", &format!("{:.0}", limit.as_secs_f64()))])
        }
        CheckOutcome::CompilerDied { detail } => printer.inline(|u| u.dev_compiler_died, &[("detail", detail)]),
        CheckOutcome::ForeignSources { files } => {
            let files = files.iter().map(|f| f.display().to_string()).collect::<Vec<_>>().join(", ");
            printer.inline(|u| u.dev_foreign_sources, &[("files", &files)])
        }
        CheckOutcome::ReplacesLibraryCode { symbols } => {
            let symbols = crate::render::check::symbol_list(symbols);
            printer.inline(|u| u.dev_replaces_library_code, &[("symbols", &symbols)])
        }
        CheckOutcome::Refused(Refusal::Missing) => printer.inline(|u| u.dev_file_absent, &[]),
        CheckOutcome::Refused(Refusal::Empty) => printer.inline(|u| u.dev_file_blank, &[]),
        CheckOutcome::Refused(_) => printer.inline(|u| u.dev_file_unusable, &[]),
    }
}
