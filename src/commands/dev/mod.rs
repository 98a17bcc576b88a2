//! `tutor dev`: tools for course authors, in the spirit of `rustlings dev`. `dev check` checks
//! every course the way CI does; `dev new` scaffolds a course in a repository checkout. Neither
//! needs a learner workspace.

mod check;
mod content;
mod fingerprint;
mod graded;
mod grading;
mod leak;
mod new;
mod rules;
mod scaffold;

use std::process::ExitCode;

use anyhow::Result;

use crate::cli::DevCommand;
use crate::course::lesson::Language;
use crate::render::Printer;
use crate::text::{self, Ui};

/// Runs `tutor dev …`.
pub fn run(printer: &Printer, command: &DevCommand) -> Result<ExitCode> {
    match command {
        DevCommand::Check { course, root, limits } => check::run(printer, course.as_deref(), root.as_deref(), limits),
        DevCommand::New { name, root } => new::run(printer, name, root.as_deref()),
    }
}

/// One problem an author must fix: the file it is in, and why (in the chosen languages).
#[derive(Debug, Clone, PartialEq)]
pub struct Problem {
    /// The file, by its repository path.
    pub file: String,
    /// What is wrong with it.
    pub reason: String,
    /// Text to copy, shown verbatim under the reason (what the file should hold), if any.
    pub detail: Option<String>,
}

impl Problem {
    /// A problem in `file`.
    pub fn new(file: impl Into<String>, reason: String) -> Problem {
        Problem { file: file.into(), reason, detail: None }
    }

    /// A problem in `file`, with text to copy.
    pub fn with_detail(file: impl Into<String>, reason: String, detail: String) -> Problem {
        Problem { file: file.into(), reason, detail: Some(detail) }
    }
}

/// A sentence in the chosen languages on one line, each language filled with its own values
/// (a case's message, a title: they differ between languages).
pub fn say_each(
    printer: &Printer,
    pick: fn(&Ui) -> &'static str,
    values: impl Fn(Language) -> Vec<(&'static str, String)>,
) -> String {
    printer
        .languages()
        .iter()
        .map(|&language| {
            let values = values(language);
            let values: Vec<(&str, &dyn std::fmt::Display)> =
                values.iter().map(|(name, value)| (*name, value as &dyn std::fmt::Display)).collect();
            text::fill(pick(text::ui(language)), &values)
        })
        .collect::<Vec<_>>()
        .join(" / ")
}

/// The half of a pair of titles or messages in `language`.
pub fn pick(language: Language, zh: &str, en: &str) -> String {
    match language {
        Language::Zh => zh.to_string(),
        Language::En => en.to_string(),
    }
}
