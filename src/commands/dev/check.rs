//! `tutor dev check [COURSE] [--root DIR]`: every check of every course (or one), one line per
//! check, each failure with its file and reason. Exit 0 when every check passes, 1 when a problem
//! is found, 2 for a usage or environment error.

use std::io::Write;
use std::path::Path;
use std::process::ExitCode;

use anyhow::{Context, Result};
use colored::Colorize;

use crate::cli::Limits;
use crate::course::embedded;
use crate::errors::CliError;
use crate::render::Printer;
use crate::text::Ui;

use super::content::{Course, Source, Unloadable};
use super::graded::{self, Role};
use super::{pick, rules, say_each, Problem};

/// The checks, in the order they are shown: the quick ones first, the builds last.
const CHECKS: [fn(&Ui) -> &'static str; 8] = [
    |u| u.dev_check_catalogue,
    |u| u.dev_check_lessons,
    |u| u.dev_check_hints,
    |u| u.dev_check_mistakes,
    |u| u.dev_check_cases,
    |u| u.dev_check_author,
    |u| u.dev_check_stubs,
    |u| u.dev_check_solutions,
];

/// Checks the courses and prints what it finds.
pub fn run(printer: &Printer, course: Option<&str>, root: Option<&Path>, limits: &Limits) -> Result<ExitCode> {
    let source = match root {
        None => Source::Embedded,
        Some(dir) => Source::Root(checkout(dir)?),
    };
    let known: Vec<String> = embedded::courses().iter().map(|c| c.id.to_string()).collect();
    let ids: Vec<String> = match course {
        None => known.clone(),
        Some(given) if known.iter().any(|k| k == given) => vec![given.to_string()],
        Some(given) => return Err(CliError::DevUnknownCourse { given: given.to_string(), known }.into()),
    };
    let mut problems = 0;
    for (index, id) in ids.iter().enumerate() {
        if index > 0 {
            println!();
        }
        problems += check_course(printer, &source, id, limits)?;
    }
    println!();
    let courses = ids.len();
    if problems == 0 {
        println!("{}", printer.lines(|u| u.dev_all_passed, &[("courses", &courses)]).green().bold());
        Ok(ExitCode::SUCCESS)
    } else {
        let values: [(&str, &dyn std::fmt::Display); 2] = [("problems", &problems), ("courses", &courses)];
        println!("{}", printer.lines(|u| u.dev_problems_found, &values).red().bold());
        Ok(ExitCode::from(1))
    }
}

/// `--root DIR` as an absolute path, when it is a folder with an `exercises/` folder.
fn checkout(dir: &Path) -> Result<std::path::PathBuf> {
    let dir = if dir.is_absolute() {
        dir.to_path_buf()
    } else {
        std::env::current_dir().context("reading the current folder")?.join(dir)
    };
    if !dir.is_dir() {
        return Err(CliError::DevNotAFolder(dir).into());
    }
    if !dir.join("exercises").is_dir() {
        return Err(CliError::DevNotARepository { dir, missing: "exercises/" }.into());
    }
    Ok(dir)
}

/// Checks one course; returns how many problems it has.
fn check_course(printer: &Printer, source: &Source, id: &str, limits: &Limits) -> Result<usize> {
    let course = match Course::load(source, id)? {
        Ok(course) => course,
        Err(unloadable) => {
            heading(printer, id, |_| crate::course::catalogue::info_path(id));
            let info = crate::course::catalogue::info_path(id);
            let reason = match unloadable {
                Unloadable::Missing => printer.inline(|u| u.dev_catalogue_missing, &[]),
                Unloadable::Unreadable(detail) => {
                    printer.inline(|u| u.dev_catalogue_unreadable, &[("detail", &detail)])
                }
            };
            show(printer, CHECKS[0], &[Problem::new(info, reason)]);
            for check in &CHECKS[1..] {
                let skipped =
                    format!("  – {} ({})", printer.inline(*check, &[]), printer.inline(|u| u.dev_skipped, &[]));
                println!("{}", skipped.dimmed());
            }
            return Ok(1);
        }
    };
    let info = course.catalogue.course(id).map(|c| c.info.clone());
    heading(printer, id, |l| info.as_ref().map(|i| pick(l, &i.title_zh, &i.title_en)).unwrap_or_default());
    let files = source.author_files(id)?;
    let quick = [
        rules::catalogue(printer, &course),
        rules::lessons(printer, &course),
        rules::hints(printer, &course),
        rules::mistakes(printer, &course),
        rules::titles(printer, &course),
        rules::author_markers(printer, &files),
    ];
    let mut count = 0;
    for (check, problems) in CHECKS.iter().zip(&quick) {
        show(printer, *check, problems);
        count += problems.len();
    }
    for (check, role) in CHECKS[6..].iter().zip([Role::Stub, Role::Solution]) {
        let problems = graded::run(printer, &course, role, limits)?;
        show(printer, *check, &problems);
        count += problems.len();
    }
    Ok(count)
}

/// The course's heading: its id and title.
fn heading(printer: &Printer, id: &str, title: impl Fn(crate::course::lesson::Language) -> String) {
    let line = say_each(printer, |u| u.dev_course, |l| vec![("id", id.to_string()), ("title", title(l))]);
    println!("{}", line.bold());
}

/// One check's line, ✓ or ✗, and under a ✗ every problem with its file.
fn show(printer: &Printer, check: fn(&Ui) -> &'static str, problems: &[Problem]) {
    let label = printer.inline(check, &[]);
    if problems.is_empty() {
        println!("  {} {label}", "✓".green());
    } else {
        println!("  {} {label}", "✗".red());
        for problem in problems {
            println!("      {}: {}", problem.file.bold(), problem.reason);
        }
    }
    let _ = std::io::stdout().flush();
}
