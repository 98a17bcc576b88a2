//! `tutor watch`: check the current exercise, then again on every save of it.
//!
//! On a terminal the screen is cleared before each run and the progress bar and the keys stay
//! at the bottom. Single keys steer: `c` check again, `h` hint, `l` an interactive list (move,
//! Enter to watch another exercise, `r` to reset one after a typed confirmation), `n` next,
//! `p` previous, `q` or Ctrl-C quit; Space, `b`, PgDn, PgUp and the arrows page a report taller
//! than the terminal (the header, the summary and the keys stay on screen; the list scrolls with
//! its cursor). After a pass the watch waits for `n` unless
//! `--auto-advance`. Without a terminal, or with `--manual`, lines on stdin steer and Enter
//! re-checks; a line typed while a check runs waits for its report, so the output reads in
//! order. A running check shows how long it has run, each second; where the report suggests a
//! command the watch has a key for, it names the key. Bare `tutor` at a terminal starts it.
//!
//! The check runs on a worker thread (`worker`), so keys work while it runs: quitting or moving
//! on cancels it, killing the process group of cargo or of the graded program at once. The
//! terminal is given back on every way out: the [`crate::tty::KeyMode`] guard, the panic hook and
//! the signal handlers all restore it.
//!
//! The parts: `keys` (reading keys and lines), `screen` (what is drawn), `list` (the interactive
//! list), `worker` (the cancellable check) and `event_loop` (what each event does).

mod event_loop;
mod keys;
mod list;
mod screen;
mod wording;
mod worker;

use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::mpsc::{self, Sender};

use anyhow::{Context, Result};
use notify::{EventKind, RecursiveMode, Watcher};

use super::Session;
use crate::cli::Limits;
use crate::render::check::Detail;
use crate::runner::process;

/// Everything the watch waits for, from the key reader, the file watcher and the check worker.
pub(crate) enum WatchEvent {
    /// A key (or, without a terminal, a line).
    Key(keys::Key),
    /// Something in the exercises folder changed.
    Saved(PathBuf),
    /// News from check number `run`.
    Check { run: u64, news: worker::News },
    /// Standard input ended.
    InputClosed,
}

/// Runs the watch until `q`, Ctrl-C or the end of input.
pub fn run(session: &Session, manual: bool, auto_advance: bool, limits: &Limits, detail: Detail) -> Result<ExitCode> {
    let interactive = !manual && std::io::stdin().is_terminal();
    // Before the terminal changes, so that a SIGTERM finds the handler that gives it back.
    process::install_interrupt_handlers();
    let _key_mode = if interactive {
        Some(crate::tty::KeyMode::enter().context("switching the terminal to single keys")?)
    } else {
        None
    };
    let (sender, events) = mpsc::channel();
    if interactive {
        keys::spawn_key_reader(sender.clone());
    } else {
        keys::spawn_line_reader(sender.clone());
    }
    // Watch the folder, not the file: editors that save by writing a new file and renaming it
    // over the old one replace the very inode a file watch would follow.
    // Every course's folder.
    let folders: Vec<PathBuf> = session
        .catalogue
        .courses
        .iter()
        .map(|c| session.workspace.root().join("exercises").join(&c.id))
        .filter(|d| d.is_dir())
        .collect();
    let _watcher = if interactive { Some(watch_folders(&folders, sender.clone())?) } else { None };

    let first = session.exercise(None)?;
    let first = session.catalogue.exercises.iter().position(|e| e.id == first.id).unwrap_or(0);
    let options = event_loop::Options { interactive, auto_advance, detail };
    std::thread::scope(|scope| event_loop::Watch::new(session, limits, options, scope, sender, first).run(&events))?;
    Ok(ExitCode::SUCCESS)
}

fn watch_folders(dirs: &[PathBuf], sender: Sender<WatchEvent>) -> Result<notify::RecommendedWatcher> {
    let mut watcher = notify::recommended_watcher(move |result: notify::Result<notify::Event>| {
        let Ok(event) = result else { return };
        if matches!(event.kind, EventKind::Access(_)) {
            return;
        }
        for path in event.paths {
            let _ = sender.send(WatchEvent::Saved(path));
        }
    })
    .context("starting the file watcher")?;
    for dir in dirs {
        watcher.watch(dir, RecursiveMode::NonRecursive).with_context(|| format!("watching {}", dir.display()))?;
    }
    Ok(watcher)
}
