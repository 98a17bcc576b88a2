//! `tutor dev check [COURSE] [--root DIR]`: every check of every course (or one), one line per
//! check, each failure with its file and reason. Exit 0 when every check passes, 1 when a problem
//! is found, 2 for a usage or environment error.
//!
//! Content comes from `DIR`, else from the current folder when it is a repository checkout, else
//! from the files compiled in; the grading code is always the compiled-in one, and a checkout's
//! is compared with it.

use std::io::Write;
use std::path::{Path, PathBuf};
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
use super::{fingerprint, grading, rules, Problem};
use crate::render::pick;

/// The checks, in the order they are shown: the grading side first (when it is stale, every
/// result about cases and mistakes is about other code), the quick ones next, the builds last.
const CHECKS: [fn(&Ui) -> &'static str; 10] = [
    |u| u.dev_check_grading,
    |u| u.dev_check_catalogue,
    |u| u.dev_check_editor,
    |u| u.dev_check_lessons,
    |u| u.dev_check_hints,
    |u| u.dev_check_mistakes,
    |u| u.dev_check_cases,
    |u| u.dev_check_author,
    |u| u.dev_check_stubs,
    |u| u.dev_check_solutions,
];

/// What one check found.
enum Verdict {
    /// It ran and found these problems (none: it passes).
    Checked(Vec<Problem>),
    /// It did not run, for this reason (in the chosen languages).
    Skipped(String),
}

/// Checks the courses and prints what it finds.
pub fn run(printer: &Printer, course: Option<&str>, root: Option<&Path>, limits: &Limits) -> Result<ExitCode> {
    let source = match root {
        Some(dir) => Source::Root(checkout(dir)?),
        None => current_checkout()?.map_or(Source::Embedded, Source::Root),
    };
    let known: Vec<String> = embedded::courses().iter().map(|c| c.id.to_string()).collect();
    let ids: Vec<String> = match course {
        None => known.clone(),
        Some(given) if known.iter().any(|k| k == given) => vec![given.to_string()],
        Some(given) => return Err(CliError::DevUnknownCourse { given: given.to_string(), known }.into()),
    };
    let origin = match &source {
        Source::Embedded => printer.inline(|u| u.dev_source_embedded, &[]),
        Source::Root(dir) => printer.inline(|u| u.dev_source_root, &[("dir", &dir.display())]),
    };
    println!("{}", origin.dimmed());
    let mut problems = 0;
    for id in &ids {
        println!();
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
fn checkout(dir: &Path) -> Result<PathBuf> {
    let dir = if dir.is_absolute() {
        dir.to_path_buf()
    } else {
        std::env::current_dir().context("reading the current folder")?.join(dir)
    };
    if !dir.is_dir() {
        return Err(CliError::DevNotAFolder(dir).into());
    }
    // `.` and `..` spelled out, as the messages name this folder.
    let dir = dir.canonicalize().unwrap_or(dir);
    if !dir.join("exercises").is_dir() {
        return Err(CliError::DevNotARepository { dir, missing: "exercises/" }.into());
    }
    Ok(dir)
}

/// The current folder, when it is a checkout of the tutor repository (it has `courses/Cargo.toml`
/// and `exercises/`): an author running `dev check` there means the files they are editing.
fn current_checkout() -> Result<Option<PathBuf>> {
    let dir = std::env::current_dir().context("reading the current folder")?;
    Ok((dir.join("courses/Cargo.toml").is_file() && dir.join("exercises").is_dir()).then_some(dir))
}

/// Checks one course; returns how many problems it has.
fn check_course(printer: &Printer, source: &Source, id: &str, limits: &Limits) -> Result<usize> {
    // The grading side can be compared only in a checkout that has it.
    let grading_root = match source {
        Source::Embedded => Err(printer.inline(|u| u.dev_skipped_compiled_in, &[])),
        Source::Root(root) if !fingerprint::has_grading_side(root, id) => {
            Err(printer.inline(|u| u.dev_skipped_no_grading, &[("dir", &root.display()), ("id", &id)]))
        }
        Source::Root(root) => Ok(root.as_path()),
    };
    let compiled_in = match &grading_root {
        Ok(root) => Verdict::Checked(grading::compiled_in(printer, root, id)?),
        Err(reason) => Verdict::Skipped(reason.clone()),
    };
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
            let mut count = show(printer, CHECKS[0], &compiled_in);
            count += show(printer, CHECKS[1], &Verdict::Checked(vec![Problem::new(info, reason)]));
            let skipped = Verdict::Skipped(printer.inline(|u| u.dev_skipped, &[]));
            for check in &CHECKS[2..] {
                show(printer, *check, &skipped);
            }
            return Ok(count);
        }
    };
    let info = course.catalogue.course(id).map(|c| c.info.clone());
    heading(printer, id, |l| info.as_ref().map(|i| pick(l, &i.title_zh, &i.title_en).to_string()).unwrap_or_default());
    let editor = match &grading_root {
        Ok(_) => Verdict::Checked(grading::editor_file(printer, source, &course)?),
        Err(reason) => Verdict::Skipped(reason.clone()),
    };
    let files = source.author_files(id)?;
    let quick = [
        compiled_in,
        Verdict::Checked(rules::catalogue(printer, &course)),
        editor,
        Verdict::Checked(rules::lessons(printer, &course)),
        Verdict::Checked(rules::hints(printer, &course)),
        Verdict::Checked(rules::mistakes(printer, &course)),
        Verdict::Checked(rules::titles(printer, &course)),
        Verdict::Checked(rules::author_markers(printer, &files)),
    ];
    let mut count = 0;
    for (check, verdict) in CHECKS.iter().zip(&quick) {
        count += show(printer, *check, verdict);
    }
    for (check, role) in CHECKS[quick.len()..].iter().zip([Role::Stub, Role::Solution]) {
        let problems = graded::run(printer, &course, role, limits)?;
        count += show(printer, *check, &Verdict::Checked(problems));
    }
    Ok(count)
}

/// The course's heading: its id and title.
fn heading(printer: &Printer, id: &str, title: impl Fn(crate::course::lesson::Language) -> String) {
    let line = printer.inline_each(|u| u.dev_course, |l| vec![("id", id.to_string()), ("title", title(l))]);
    println!("{}", line.bold());
}

/// Rules off text to copy, above and below it.
const CUT: &str = "------------------------------------------------------------------------";

/// One check's line, ✓, ✗ or – (not checked), and under a ✗ every problem with its file and
/// any text to copy, verbatim between two rules. Returns how many problems it shows.
fn show(printer: &Printer, check: fn(&Ui) -> &'static str, verdict: &Verdict) -> usize {
    let label = printer.inline(check, &[]);
    let count = match verdict {
        Verdict::Skipped(reason) => {
            println!("{}", format!("  – {label} ({reason})").dimmed());
            0
        }
        Verdict::Checked(problems) if problems.is_empty() => {
            println!("  {} {label}", "✓".green());
            0
        }
        Verdict::Checked(problems) => {
            println!("  {} {label}", "✗".red());
            for problem in problems {
                println!("      {}: {}", problem.file.bold(), problem.reason);
                if let Some(detail) = &problem.detail {
                    println!("{}", CUT.dimmed());
                    print!("{detail}");
                    if !detail.ends_with('\n') {
                        println!();
                    }
                    println!("{}", CUT.dimmed());
                }
            }
            problems.len()
        }
    };
    let _ = std::io::stdout().flush();
    count
}
