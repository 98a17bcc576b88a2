//! One module per command; [`Session`] holds what they share.

pub mod check;
pub mod hint;
pub mod lesson;
pub mod list;
pub mod reveal;

use std::process::ExitCode;

use anyhow::{Context, Result};

use crate::cli::{Cli, Command};
use crate::course::{Catalogue, Exercise};
use crate::errors::CliError;
use crate::progress::{ProgressStore, Recovered, State};
use crate::render::{list::current, Printer};
use crate::workspace::Workspace;

/// What every command works with.
pub struct Session {
    /// Output in the chosen languages.
    pub printer: Printer,
    /// The course folder.
    pub workspace: Workspace,
    /// The course.
    pub catalogue: Catalogue,
    store: ProgressStore,
}

impl Session {
    fn open(cli: &Cli, printer: Printer) -> Result<Session> {
        let here = std::env::current_dir().context("reading the current folder")?;
        let workspace = Workspace::find(cli.workspace.as_deref(), &here).map_err(CliError::Workspace)?;
        let catalogue = Catalogue::embedded().context("reading the embedded catalogue")?;
        let store = ProgressStore::new(&workspace.private_dir());
        Ok(Session { printer, workspace, catalogue, store })
    }

    /// The named exercise, or the current one (first not passed; the last when all are).
    pub fn exercise(&self, name: Option<&str>) -> Result<&Exercise> {
        match name {
            Some(name) => Ok(self.catalogue.resolve(name).map_err(CliError::UnknownExercise)?),
            None => {
                let state = self.state()?;
                current(&self.catalogue, &state)
                    .or(self.catalogue.exercises.last())
                    .context("the catalogue lists no exercise")
            }
        }
    }

    /// The learner's progress.
    pub fn state(&self) -> Result<State> {
        let (state, recovered) = self.store.load()?;
        self.tell_recovered(recovered);
        Ok(state)
    }

    /// Changes the progress atomically.
    pub fn update<T>(&self, change: impl FnOnce(&mut State) -> T) -> Result<T> {
        let (result, recovered) = self.store.update(change)?;
        self.tell_recovered(recovered);
        Ok(result)
    }

    fn tell_recovered(&self, recovered: Option<Recovered>) {
        if let Some(r) = recovered {
            let backup = r.backup.display();
            eprintln!("{}", self.printer.lines(|u| u.state_corrupt, &[("reason", &r.reason), ("backup", &backup)]));
        }
    }
}

/// Runs the command the learner typed.
pub fn run(cli: Cli, printer: Printer) -> Result<ExitCode> {
    let session = Session::open(&cli, printer)?;
    match cli.command {
        None => list::run(&session, true),
        Some(Command::List) => list::run(&session, false),
        Some(Command::Check { exercise, all, timeout }) => check::run(&session, exercise.as_deref(), all, timeout),
        Some(Command::Hint { exercise, all, level }) => hint::run(&session, exercise.as_deref(), all, level),
        Some(Command::Reveal { exercise, yes }) => reveal::run(&session, exercise.as_deref(), yes),
        Some(Command::Lesson { exercise }) => lesson::run(&session, exercise.as_deref()),
    }
}
