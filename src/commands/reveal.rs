//! `tutor reveal [EXERCISE] [--yes]`: the solution, but only after a STOP HERE confirmation.

use std::io::IsTerminal;
use std::process::ExitCode;

use anyhow::{Context, Result};
use colored::Colorize;
use similar::{ChangeTag, TextDiff};

use super::{confirm, Session};
use crate::course::lesson::Language;
use crate::course::{Lesson, Part};
use crate::errors::CliError;
use crate::fsutil::regular::{self, FileError, Links};
use crate::render::markdown;
use crate::runner::learner_file;
use crate::text;

/// The word a learner types to confirm.
const CONFIRM_WORD: &str = "reveal";

/// Asks, then shows the solution, the explanation and a diff against the learner's file.
pub fn run(session: &Session, name: Option<&str>, yes: bool) -> Result<ExitCode> {
    let exercise = session.exercise(name)?;
    let printer = &session.printer;
    if !yes && !std::io::stdin().is_terminal() {
        return Err(CliError::NeedsConfirmation("reveal").into());
    }

    // The banner is always in both languages: it must not be missed.
    let columns = printer.width();
    let rule = "━".repeat(columns.min(60));
    println!("{}", rule.red().bold());
    let stop: Vec<&str> = Language::BOTH.iter().map(|&l| text::ui(l).stop_here).collect();
    println!("{}", format!("🛑  {}  🛑", stop.join(" · ")).red().bold());
    for &language in &Language::BOTH {
        let detail = text::fill(text::ui(language).stop_here_detail, &[("id", &exercise.id)]);
        println!("{}", crate::render::wrap::wrap(&detail, "", "", columns));
    }
    println!("{}", rule.red().bold());

    let prompt: Vec<&str> = Language::BOTH.iter().map(|&l| text::ui(l).confirm_prompt).collect();
    if !confirm("reveal", &prompt.join("\n"), CONFIRM_WORD, yes)? {
        printer.say(|u| u.declined, &[("id", &exercise.id)]);
        return Ok(ExitCode::SUCCESS);
    }

    let solution = exercise.solution();
    let header = printer.lines(|u| u.solution_header, &[("id", &exercise.id)]);
    println!("\n{}\n", crate::render::wrap::wrap(&header, "", "  ", columns).bold());
    println!("{solution}");

    let lesson = Lesson::parse(exercise.lesson_source()).context("parsing the lesson")?;
    println!("{}\n", printer.label(|u| u.explanation_header).bold());
    for &language in printer.languages() {
        if let Some(text) = lesson.text(Part::Explanation, language) {
            println!("{}", markdown::render(&crate::invocation::course_text(text), printer.width()));
        }
    }

    println!("{}", printer.lines(|u| u.diff_header, &[]).bold());
    let file = session.workspace.exercise_file(exercise);
    match regular::read_bytes(&file, learner_file::MAX_BYTES, Links::Refuse) {
        Err(FileError::NotRegular(kind)) => println!(
            "{}",
            printer.per_language(|ui, _| text::fill(
                ui.reveal_not_a_file,
                &[("file", &exercise.file), ("kind", &crate::errors::kind_text(ui, kind))]
            ))
        ),
        // A file that is missing, too large or unreadable compares as empty.
        read => {
            let learner = String::from_utf8_lossy(&read.unwrap_or_default()).into_owned();
            print!("{}", diff(&learner, solution, printer));
        }
    }

    session.update(|state| state.exercises.entry(exercise.key()).or_default().revealed = true)?;
    Ok(ExitCode::SUCCESS)
}

/// A unified diff, learner's file first, coloured when colour is on.
fn diff(learner: &str, solution: &str, printer: &crate::render::Printer) -> String {
    let diff = TextDiff::from_lines(learner, solution);
    if diff.ratio() == 1.0 {
        return format!("{}\n", printer.lines(|u| u.diff_identical, &[]));
    }
    let mut out = String::new();
    for group in diff.grouped_ops(2) {
        out.push_str(&format!("{}\n", "@@".cyan()));
        for op in group {
            for change in diff.iter_changes(&op) {
                // The learner's lines may hold control characters: shown, not obeyed.
                let line = change.to_string_lossy();
                let line = tutor_grade::text::printable(line.trim_end_matches('\n').trim_end_matches('\r'));
                match change.tag() {
                    ChangeTag::Delete => out.push_str(&format!("{}\n", format!("-{line}").red())),
                    ChangeTag::Insert => out.push_str(&format!("{}\n", format!("+{line}").green())),
                    ChangeTag::Equal => out.push_str(&format!(" {line}\n")),
                }
            }
        }
    }
    out
}
