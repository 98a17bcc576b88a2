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
    /// A command that asks for a typed confirmation, without a terminal and without `--yes`.
    NeedsConfirmation(&'static str),
    /// `init` into a folder that has files, without `--force`.
    InitNotEmpty(std::path::PathBuf),
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
        describe_cargo_error(printer, e)
    } else {
        format!("{error:#}")
    };
    eprintln!("{label}: {message}");
}

/// What to tell the learner about a toolchain problem.
pub fn describe_cargo_error(printer: &Printer, error: &CargoError) -> String {
    match error {
        CargoError::Missing => printer.lines(|u| u.cargo_missing, &[]),
        CargoError::TooOld { found } => {
            let needed = format!("{}.{}", MINIMUM.0, MINIMUM.1);
            printer.lines(|u| u.cargo_too_old, &[("found", found), ("needed", &needed)])
        }
        CargoError::Failed(detail) => printer.lines(|u| u.cargo_failed, &[("detail", detail)]),
    }
}

/// What to tell the learner when there is no workspace.
pub fn describe_workspace_error(printer: &Printer, error: &WorkspaceError) -> String {
    match error {
        WorkspaceError::NotFound => printer.lines(|u| u.no_workspace, &[]),
        WorkspaceError::NotAWorkspace(dir) => printer.lines(|u| u.not_a_workspace, &[("dir", &dir.display())]),
    }
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
        CliError::Workspace(e) => describe_workspace_error(printer, e),
        CliError::NeedsConfirmation(command) => printer.lines(|u| u.needs_confirmation, &[("command", command)]),
        CliError::InitNotEmpty(dir) => printer.lines(|u| u.init_not_empty, &[("dir", &dir.display())]),
    }
}
