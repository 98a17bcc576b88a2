//! One module per command; [`Session`] holds what they share.

pub mod check;
pub mod dev;
pub mod doctor;
pub mod hint;
pub mod init;
pub mod lesson;
pub mod list;
pub mod record;
pub mod reset;
pub mod reveal;
pub mod watch;

use std::io::{BufRead, IsTerminal, Write};
use std::process::ExitCode;

use anyhow::{Context, Result};
use colored::Colorize;

use crate::cli::{Cli, Command};
use crate::course::{Catalogue, Exercise};
use crate::errors::CliError;
use crate::progress::{ExerciseStatus, ProgressStore, Recovered, State, Unreadable};
use crate::render::check::Detail;
use crate::render::{list::current, Printer};
use crate::text;
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
        let mut migrated = crate::migrate::run(workspace.root(), &catalogue, &store)?;
        let recovered = migrated.recovered.take();
        if migrated.any() {
            eprintln!("{}", describe_migrated(&printer, &migrated));
        }
        // The editor project a migration writes names every chapter's kit in the harness: they
        // are written now, so that `cargo test` and rust-analyzer work before any check has run.
        // Best effort: they serve the editor and cargo, not this command.
        let kits_missing = crate::runner::harness::kits_missing(&workspace.private_dir(), &catalogue);
        if (migrated.any() || kits_missing) && crate::course::editor::in_use(workspace.root()) {
            let _ = crate::runner::write_kits(&workspace, &catalogue);
        }
        let session = Session { printer, workspace, catalogue, store };
        session.tell_recovered(recovered);
        Ok(session)
    }

    /// The named exercise (a course's id names the first of its exercises not passed yet), or the
    /// current one (first not passed; the last when all are).
    pub fn exercise(&self, name: Option<&str>) -> Result<&Exercise> {
        match name {
            Some(name) if self.catalogue.course(name.trim()).is_some() => {
                // A course's id: where the learner stands in that course.
                let state = self.state()?;
                let course: Vec<&Exercise> =
                    self.catalogue.exercises.iter().filter(|e| e.course == name.trim()).collect();
                let first_open = course.iter().find(|e| state.of(&e.key()).status != ExerciseStatus::Passed);
                first_open.or(course.last()).copied().context("the course lists no exercise")
            }
            Some(name) => {
                // A name several courses share means the one in the course being taken.
                let state = self.state()?;
                let taking = current(&self.catalogue, &state).map(|e| e.course.as_str());
                let (chosen, others) =
                    self.catalogue.resolve_preferring(name, taking).map_err(CliError::UnknownExercise)?;
                // Said on stderr: which other exercises the name could have meant.
                if !others.is_empty() {
                    let others = others.iter().map(|c| format!("`{c}`")).collect::<Vec<_>>().join(", ");
                    let values: [(&str, &dyn std::fmt::Display); 3] =
                        [("given", &name), ("chosen", &chosen.key()), ("others", &others)];
                    eprintln!("{}", self.printer.wrapped(|u| u.name_also_means, &values).dimmed());
                }
                Ok(chosen)
            }
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
            let text = describe_recovered(&self.printer, &r);
            eprintln!("{}", crate::render::wrap::wrap(&text, "", "  ", self.printer.width()));
        }
    }
}

/// The line about a migration, naming only what it did: "0 progress records" would read as loss.
pub fn describe_migrated(printer: &Printer, migrated: &crate::migrate::Migrated) -> String {
    let text = printer.per_language(|ui, _| {
        let mut parts = Vec::new();
        if migrated.moved > 0 {
            parts.push(text::fill(ui.migrated_moved, &[("n", &migrated.moved)]));
        }
        if migrated.progress > 0 {
            parts.push(text::fill(ui.migrated_progress, &[("n", &migrated.progress)]));
        }
        if !migrated.added.is_empty() {
            parts.push(text::fill(ui.migrated_added, &[("added", &migrated.added.join(", "))]));
        }
        text::fill(ui.migrated, &[("changes", &parts.join(ui.migrated_join))])
    });
    crate::render::wrap::wrap(&text, "", "  ", printer.width())
}

/// What to tell the learner about a progress file that was set aside, one line per language.
pub fn describe_recovered(printer: &Printer, recovered: &Recovered) -> String {
    let backup = recovered.backup.display().to_string();
    printer.per_language(|ui, _| {
        let reason = match &recovered.reason {
            Unreadable::TooLarge => ui.state_too_large.to_string(),
            Unreadable::NotUtf8 => ui.state_not_utf8.to_string(),
            Unreadable::NotToml(detail) => text::fill(ui.state_not_toml, &[("detail", detail)]),
            Unreadable::NotRegular(kind) => {
                text::fill(ui.state_not_regular, &[("kind", &crate::errors::kind_text(ui, *kind))])
            }
        };
        text::fill(ui.state_corrupt, &[("reason", &reason), ("backup", &backup)])
    })
}

/// Runs the command the learner typed.
pub fn run(cli: Cli, printer: Printer) -> Result<ExitCode> {
    // These work without (or before) a workspace.
    match &cli.command {
        Some(Command::Init { dir, force, no_build }) => return init::run(&printer, dir.as_deref(), *force, *no_build),
        Some(Command::Doctor) => return doctor::run(&printer, cli.workspace.as_deref()),
        Some(Command::Dev { command }) => return dev::run(&printer, command),
        Some(Command::Completions { shell }) => {
            // Made from the same definitions as the help, in the languages asked for.
            clap_complete::generate(
                *shell,
                &mut crate::cli::localized(printer.choice()),
                "tutor",
                &mut std::io::stdout(),
            );
            return Ok(ExitCode::SUCCESS);
        }
        _ => {}
    }
    let session = Session::open(&cli, printer)?;
    // Checks build with cargo, which cannot take a path that is not UTF-8 (it would print its
    // own usage text): said plainly before anything runs.
    let builds = matches!(cli.command, Some(Command::Check { .. } | Command::Watch { .. }));
    if builds && session.workspace.root().to_str().is_none() {
        return Err(CliError::PathNotUtf8(session.workspace.root().to_path_buf()).into());
    }
    match cli.command {
        // rustlings' habit: the bare command, typed at a terminal, starts the watch.
        None if std::io::stdin().is_terminal() && std::io::stdout().is_terminal() => {
            watch::run(&session, false, false, &crate::cli::Limits::default(), Detail::from_flag(false))
        }
        None => list::run(&session, true),
        Some(Command::List) => list::run(&session, false),
        Some(Command::Check { exercise, all, limits, verbose: _, format: crate::cli::Format::Json }) => {
            check::run_json(&session, exercise.as_deref(), all, &limits)
        }
        Some(Command::Check { exercise, all, limits, verbose, format: crate::cli::Format::Text }) => {
            check::run(&session, exercise.as_deref(), all, &limits, Detail::from_flag(verbose))
        }
        Some(Command::Hint { exercise, all, level }) => hint::run(&session, exercise.as_deref(), all, level),
        Some(Command::Reveal { exercise, yes }) => reveal::run(&session, exercise.as_deref(), yes),
        Some(Command::Lesson { exercise }) => lesson::run(&session, exercise.as_deref()),
        Some(Command::Watch { manual, auto_advance, verbose, limits }) => {
            watch::run(&session, manual, auto_advance, &limits, Detail::from_flag(verbose))
        }
        Some(Command::Reset { exercise, yes }) => reset::run(&session, &exercise, yes),
        Some(Command::Init { .. } | Command::Doctor | Command::Completions { .. } | Command::Dev { .. }) => {
            Ok(ExitCode::SUCCESS)
        }
    }
}

/// Asks the learner to type `word` after `prompt`; `--yes` skips the question, and without a
/// terminal (and without `--yes`) the command refuses rather than guess.
pub fn confirm(command: &'static str, prompt: &str, word: &str, yes: bool) -> Result<bool> {
    if yes {
        return Ok(true);
    }
    if !std::io::stdin().is_terminal() {
        return Err(CliError::NeedsConfirmation(command).into());
    }
    let prompt = crate::render::wrap::wrap(prompt, "", "  ", crate::render::wrap::terminal_width());
    print!("{prompt}\n> ");
    std::io::stdout().flush().context("writing the prompt")?;
    let mut answer = String::new();
    std::io::stdin().lock().read_line(&mut answer).context("reading the confirmation")?;
    Ok(answer.trim().eq_ignore_ascii_case(word))
}
