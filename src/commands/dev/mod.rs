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
use crate::render::Printer;

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
