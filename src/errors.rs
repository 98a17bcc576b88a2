//! Errors the learner can act on, each with a bilingual message; they exit with code 2.

use colored::Colorize;

use crate::course::catalogue::UnknownExercise;
use crate::render::Printer;
use crate::runner::cargo::{CargoError, MINIMUM};
use crate::workspace::WorkspaceError;

/// A usage or environment problem with a message for the learner.
#[derive(Debug)]
pub enum CliError {
    /// The exercise name matched nothing.
    UnknownExercise(UnknownExercise),
    /// No workspace to work in.
    Workspace(WorkspaceError),
    /// `reveal` without a terminal and without `--yes`.
    RevealNeedsTerminal,
}

impl std::fmt::Display for CliError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{self:?}")
    }
}

impl std::error::Error for CliError {}

/// Prints an error in the chosen languages: ours by their text, others with their context chain.
pub fn report(printer: &Printer, error: &anyhow::Error) {
    let label = printer.label(|u| u.error).red().bold();
    let message = if let Some(e) = error.downcast_ref::<CliError>() {
        describe(printer, e)
    } else if let Some(e) = error.downcast_ref::<CargoError>() {
        match e {
            CargoError::Missing => printer.lines(|u| u.cargo_missing, &[]),
            CargoError::TooOld { found } => {
                let needed = format!("{}.{}", MINIMUM.0, MINIMUM.1);
                printer.lines(|u| u.cargo_too_old, &[("found", found), ("needed", &needed)])
            }
            CargoError::Failed(detail) => printer.lines(|u| u.cargo_failed, &[("detail", detail)]),
        }
    } else {
        format!("{error:#}")
    };
    eprintln!("{label}: {message}");
}

fn describe(printer: &Printer, error: &CliError) -> String {
    match error {
        CliError::UnknownExercise(e) => {
            let mut lines = vec![printer.lines(|u| u.unknown_exercise, &[("given", &e.given)])];
            if let Some(suggestion) = &e.suggestion {
                lines.push(printer.lines(|u| u.did_you_mean, &[("suggestion", suggestion)]));
            }
            lines.push(printer.lines(|u| u.see_list, &[]));
            lines.join("\n")
        }
        CliError::Workspace(WorkspaceError::NotFound) => printer.lines(|u| u.no_workspace, &[]),
        CliError::Workspace(WorkspaceError::NotAWorkspace(dir)) => {
            printer.lines(|u| u.not_a_workspace, &[("dir", &dir.display())])
        }
        CliError::RevealNeedsTerminal => printer.lines(|u| u.reveal_needs_terminal, &[]),
    }
}
