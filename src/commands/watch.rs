//! `tutor watch`: check the current exercise, then again on every save of it; move on when it
//! passes. Single keys steer it on a terminal (`h` hint, `l` list, `n` next, `r` re-run, `q`
//! quit); without a terminal, or with `--manual`, lines on stdin do, and Enter re-checks.
//!
//! Raw mode is on only while waiting for a key, and a guard turns it off on every way out
//! (including Ctrl-C, which raw mode delivers as a key, and a panic, through the panic hook).

use std::io::{BufRead, IsTerminal};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::time::Duration;

use anyhow::{Context, Result};
use colored::Colorize;
use crossterm::event::{self, Event, KeyCode, KeyEventKind, KeyModifiers};
use notify::{EventKind, RecursiveMode, Watcher};

use super::{check::check_one, hint, list, Session};
use crate::cli::Limits;
use crate::course::Exercise;
use crate::render::check::Detail;
use crate::runner::CheckOptions;

/// Saves arrive as bursts of events (write, chmod, rename …): wait for this much quiet.
const DEBOUNCE: Duration = Duration::from_millis(150);

/// What the learner asked for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Action {
    Hint,
    List,
    Next,
    Rerun,
    Quit,
}

/// Everything the loop waits for.
enum WatchEvent {
    Key(Action),
    FileChanged(PathBuf),
    InputClosed,
}

/// Runs the watch loop until `q`, Ctrl-C or the end of input.
pub fn run(session: &Session, manual: bool, limits: &Limits, detail: Detail) -> Result<ExitCode> {
    let interactive = !manual && std::io::stdin().is_terminal();
    let options = CheckOptions::from_limits(limits, session.printer.color);
    let (sender, events) = mpsc::channel();
    if interactive {
        spawn_key_reader(sender.clone());
    } else {
        spawn_line_reader(sender.clone());
    }
    let exercises_dir = session.workspace.root().join("exercises");
    // Watch the folder, not the file: editors that save by writing a new file and renaming it
    // over the old one replace the very inode a file watch would follow.
    let _watcher = if interactive { Some(watch_folder(&exercises_dir, sender)?) } else { None };

    let mut exercise = session.exercise(None)?;
    let mut raw = RawMode::default();
    exercise = check_and_advance(session, exercise, &options, detail)?;
    loop {
        banner(session, exercise, interactive);
        raw.set(interactive)?;
        let event = events.recv();
        raw.set(false)?;
        let action = match event {
            Ok(WatchEvent::Key(action)) => action,
            Ok(WatchEvent::FileChanged(path)) if is_file_of(&path, session, exercise) => {
                settle(&events);
                Action::Rerun
            }
            Ok(WatchEvent::FileChanged(_)) => continue,
            Ok(WatchEvent::InputClosed) | Err(_) => Action::Quit,
        };
        match action {
            Action::Quit => break,
            Action::Hint => {
                hint::run(session, Some(&exercise.id), false, None)?;
            }
            Action::List => {
                list::run(session, false)?;
            }
            Action::Next => {
                let position = session.catalogue.exercises.iter().position(|e| e.id == exercise.id).unwrap_or(0);
                exercise = &session.catalogue.exercises[(position + 1) % session.catalogue.exercises.len()];
                exercise = check_and_advance(session, exercise, &options, detail)?;
            }
            Action::Rerun => exercise = check_and_advance(session, exercise, &options, detail)?,
        }
    }
    raw.set(false)?;
    session.printer.say(|u| u.watch_bye, &[]);
    Ok(ExitCode::SUCCESS)
}

/// Checks `exercise`; when it passes, announces and checks the next exercise not yet done.
fn check_and_advance<'a>(
    session: &'a Session,
    exercise: &'a Exercise,
    options: &CheckOptions,
    detail: Detail,
) -> Result<&'a Exercise> {
    let checked = check_one(session, exercise, options, detail)?;
    if !checked.passed {
        return Ok(exercise);
    }
    match checked.current {
        Some(next) if next.id != exercise.id => {
            println!();
            session.printer.say(|u| u.watch_moving_on, &[("id", &next.id)]);
            check_one(session, next, options, detail)?;
            Ok(next)
        }
        Some(_) => Ok(exercise),
        None => {
            session.printer.say(|u| u.course_complete, &[]);
            Ok(exercise)
        }
    }
}

fn banner(session: &Session, exercise: &Exercise, interactive: bool) {
    let values: [(&str, &dyn std::fmt::Display); 1] = [("file", &exercise.file)];
    let text = if interactive {
        session.printer.lines(|u| u.watch_banner, &values)
    } else {
        session.printer.lines(|u| u.watch_manual_banner, &values)
    };
    println!("\n{}", text.cyan());
}

fn is_file_of(path: &Path, session: &Session, exercise: &Exercise) -> bool {
    path.file_name().is_some() && path.file_name() == session.workspace.exercise_file(exercise).file_name()
}

/// Swallows the rest of a burst of file events.
fn settle(events: &Receiver<WatchEvent>) {
    loop {
        match events.recv_timeout(DEBOUNCE) {
            Ok(WatchEvent::FileChanged(_)) => continue,
            // A key pressed mid-save is rare; dropping it is better than re-checking twice.
            Ok(_) => continue,
            Err(RecvTimeoutError::Timeout | RecvTimeoutError::Disconnected) => return,
        }
    }
}

fn watch_folder(dir: &Path, sender: Sender<WatchEvent>) -> Result<notify::RecommendedWatcher> {
    let mut watcher = notify::recommended_watcher(move |result: notify::Result<notify::Event>| {
        let Ok(event) = result else { return };
        if matches!(event.kind, EventKind::Access(_)) {
            return;
        }
        for path in event.paths {
            let _ = sender.send(WatchEvent::FileChanged(path));
        }
    })
    .context("starting the file watcher")?;
    watcher.watch(dir, RecursiveMode::NonRecursive).with_context(|| format!("watching {}", dir.display()))?;
    Ok(watcher)
}

/// Single keys from the terminal.
fn spawn_key_reader(sender: Sender<WatchEvent>) {
    std::thread::spawn(move || loop {
        let action = match event::read() {
            Ok(Event::Key(key)) if key.kind == KeyEventKind::Press => match key.code {
                KeyCode::Char('c') if key.modifiers.contains(KeyModifiers::CONTROL) => Some(Action::Quit),
                KeyCode::Char('h') => Some(Action::Hint),
                KeyCode::Char('l') => Some(Action::List),
                KeyCode::Char('n') => Some(Action::Next),
                KeyCode::Char('r') | KeyCode::Enter => Some(Action::Rerun),
                KeyCode::Char('q') | KeyCode::Esc => Some(Action::Quit),
                _ => None,
            },
            Ok(_) => None,
            Err(_) => {
                let _ = sender.send(WatchEvent::InputClosed);
                return;
            }
        };
        if let Some(action) = action {
            if sender.send(WatchEvent::Key(action)).is_err() || action == Action::Quit {
                return;
            }
        }
    });
}

/// Whole lines from stdin: Enter re-checks, a letter and Enter steers.
fn spawn_line_reader(sender: Sender<WatchEvent>) {
    std::thread::spawn(move || {
        for line in std::io::stdin().lock().lines() {
            let Ok(line) = line else { break };
            let action = match line.trim() {
                "" | "r" => Action::Rerun,
                "h" => Action::Hint,
                "l" => Action::List,
                "n" => Action::Next,
                "q" => Action::Quit,
                _ => continue,
            };
            if sender.send(WatchEvent::Key(action)).is_err() {
                return;
            }
        }
        let _ = sender.send(WatchEvent::InputClosed);
    });
}

/// Raw terminal mode, on only while asked and always off again when dropped.
#[derive(Default)]
struct RawMode {
    on: bool,
}

impl RawMode {
    fn set(&mut self, on: bool) -> Result<()> {
        if on != self.on {
            if on {
                crossterm::terminal::enable_raw_mode().context("switching the terminal to raw mode")?;
            } else {
                crossterm::terminal::disable_raw_mode().context("restoring the terminal")?;
            }
            self.on = on;
        }
        Ok(())
    }
}

impl Drop for RawMode {
    fn drop(&mut self) {
        if self.on {
            let _ = crossterm::terminal::disable_raw_mode();
        }
    }
}
