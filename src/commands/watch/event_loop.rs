//! The watch's loop: what each key, save and piece of news from the check does.
//!
//! One check runs at a time, on a worker thread. Anything that makes its result moot — quitting,
//! moving to another exercise, checking again, a new save, opening the list — cancels it first,
//! and waits for its thread, which ends at once.

use std::path::Path;
use std::sync::mpsc::{Receiver, RecvTimeoutError, Sender};
use std::thread::Scope;
use std::time::{Duration, Instant};

use anyhow::{Context, Result};
use colored::Colorize;

use super::keys::{Command, Key};
use super::list::{Action, ListView};
use super::screen::{Screen, Scroll};
use super::wording;
use super::worker::{self, Finished, News, Running, Status};
use super::WatchEvent;
use crate::cli::Limits;
use crate::commands::{check, hint, lesson, reset, Session};
use crate::course::Exercise;
use crate::errors::CliError;
use crate::render::check::{render, summary, Detail};
use crate::render::list::{course_title, progress_bar, render as render_list};
use crate::render::title;
use crate::runner::CheckOutcome;

mod list;
mod shown;

/// Saves arrive as bursts of events (write, chmod, rename …): the check starts after this much
/// quiet.
const DEBOUNCE: Duration = Duration::from_millis(150);

/// How the watch was started.
pub struct Options {
    /// Single keys on a terminal (otherwise lines, and no file watcher).
    pub interactive: bool,
    /// Move on after a pass without waiting for `n`.
    pub auto_advance: bool,
    /// How much of each report to show (`--verbose`).
    pub detail: Detail,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Flow {
    Go,
    Quit,
}

/// The watch's state.
pub struct Watch<'scope, 'env> {
    session: &'env Session,
    limits: &'env Limits,
    options: Options,
    scope: &'scope Scope<'scope, 'env>,
    sender: Sender<WatchEvent>,
    screen: Screen,
    /// The index of the watched exercise in the catalogue.
    watched: usize,
    check: Option<Running<'scope>>,
    /// The number of the latest check; news from older ones is dropped.
    runs: u64,
    /// When a save has settled and the check should start.
    recheck_at: Option<Instant>,
    list: Option<ListView>,
    /// The screen's report no longer tells what the file holds (a check was cancelled by the
    /// list, or the file changed meanwhile): leaving the list checks again.
    stale: bool,
    /// Said at the top of the next run.
    top: Vec<String>,
    /// What the running check is doing, and since when (its elapsed time is shown each second).
    status: Option<(Status, Instant)>,
    /// Lines typed (without a terminal) while a check runs, handled once it is done, so that
    /// what they print comes after its report.
    queued: Vec<WatchEvent>,
    /// The hint the last check's named mistake points to (exercise, level): `h` shows it first,
    /// whatever level the hints read so far have reached.
    pointed_hint: Option<(String, u32)>,
    /// The finished check on screen and the width it was laid out for: laid out again when the
    /// terminal's width changes (its report and verdict are wrapped to it).
    shown: Option<(Finished, usize)>,
}

impl<'scope, 'env> Watch<'scope, 'env> {
    /// A watch of exercise number `first`, whose checks run on threads of `scope` and report on
    /// `sender`.
    pub fn new(
        session: &'env Session,
        limits: &'env Limits,
        options: Options,
        scope: &'scope Scope<'scope, 'env>,
        sender: Sender<WatchEvent>,
        first: usize,
    ) -> Self {
        let screen = Screen::new(options.interactive, session.printer.clone());
        Watch {
            session,
            limits,
            options,
            scope,
            sender,
            screen,
            watched: first,
            check: None,
            runs: 0,
            recheck_at: None,
            list: None,
            stale: false,
            top: Vec::new(),
            status: None,
            queued: Vec::new(),
            pointed_hint: None,
            shown: None,
        }
    }

    /// Checks the watched exercise, then handles events until the learner quits.
    pub fn run(mut self, events: &Receiver<WatchEvent>) -> Result<()> {
        self.start_check()?;
        loop {
            let event = match self.wake_at() {
                Some(at) => match events.recv_timeout(at.saturating_duration_since(Instant::now())) {
                    Ok(event) => event,
                    Err(RecvTimeoutError::Timeout) => {
                        self.on_timeout()?;
                        continue;
                    }
                    Err(RecvTimeoutError::Disconnected) => break,
                },
                None => match events.recv() {
                    Ok(event) => event,
                    Err(_) => break,
                },
            };
            // Without a terminal, the lines typed during a check wait for its report.
            if !self.options.interactive
                && self.check.is_some()
                && matches!(event, WatchEvent::Key(_) | WatchEvent::InputClosed)
            {
                self.queued.push(event);
                continue;
            }
            let flow = self.on_event(event)?;
            if flow == Flow::Quit {
                break;
            }
            if self.check.is_none() && !self.queued.is_empty() && self.replay_queued()? == Flow::Quit {
                break;
            }
        }
        self.stop_check();
        self.screen.bye(&self.session.printer.lines(|u| u.watch_bye, &[]));
        Ok(())
    }

    /// The lines typed during the last check, in order, until one starts another check.
    fn replay_queued(&mut self) -> Result<Flow> {
        while self.check.is_none() && !self.queued.is_empty() {
            let event = self.queued.remove(0);
            if self.on_event(event)? == Flow::Quit {
                return Ok(Flow::Quit);
            }
        }
        Ok(Flow::Go)
    }

    /// When the loop must wake without an event: a save has settled, or the running check's
    /// elapsed time moves on a second (on a terminal).
    fn wake_at(&self) -> Option<Instant> {
        let tick = self.status.filter(|_| self.options.interactive).map(|(_, since)| {
            let elapsed = since.elapsed().as_secs() + 1;
            since + Duration::from_secs(elapsed)
        });
        match (self.recheck_at, tick) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    fn on_timeout(&mut self) -> Result<()> {
        if self.recheck_at.is_some_and(|at| at <= Instant::now()) {
            return self.start_check();
        }
        if let Some((status, since)) = self.status {
            let text = self.status_text(status, since);
            self.screen.status(text);
        }
        Ok(())
    }

    fn on_event(&mut self, event: WatchEvent) -> Result<Flow> {
        Ok(match event {
            WatchEvent::Key(key) => self.on_key(&key)?,
            WatchEvent::Saved(path) => {
                self.on_saved(&path);
                Flow::Go
            }
            WatchEvent::Check { run, news } if run == self.runs => {
                self.on_news(news)?;
                Flow::Go
            }
            // From a check cancelled since.
            WatchEvent::Check { .. } => Flow::Go,
            WatchEvent::InputClosed => Flow::Quit,
        })
    }

    fn exercise(&self) -> &'env Exercise {
        &self.session.catalogue.exercises[self.watched]
    }

    fn on_key(&mut self, key: &Key) -> Result<Flow> {
        if self.list.is_some() {
            return self.on_list_key(key);
        }
        if *key == Key::Resize {
            self.redraw()?;
            return Ok(Flow::Go);
        }
        let Some(command) = key.command() else { return Ok(Flow::Go) };
        let printer = &self.session.printer;
        match command {
            Command::PageDown => _ = self.screen.scroll(Scroll::PageDown),
            Command::PageUp => _ = self.screen.scroll(Scroll::PageUp),
            Command::LineDown => _ = self.screen.scroll(Scroll::LineDown),
            Command::LineUp => _ = self.screen.scroll(Scroll::LineUp),
            Command::Quit => return Ok(Flow::Quit),
            Command::Check => self.start_check()?,
            Command::Hint => {
                let text = match self.pointed_hint.take() {
                    Some((exercise, level)) => hint::text(self.session, Some(&exercise), false, Some(level))?,
                    None => hint::text(self.session, Some(&self.exercise().key()), false, None)?,
                };
                self.refresh_footer()?;
                self.screen.note(text);
            }
            Command::Lesson => {
                let text = lesson::text(self.session, Some(&self.exercise().key()))?;
                self.screen.note(text);
            }
            Command::List if self.options.interactive => self.open_list()?,
            Command::List => {
                let text = render_list(printer, &self.session.catalogue, &self.session.state()?);
                self.screen.note(text);
            }
            Command::Next => match self.next_exercise()? {
                Some(next) => self.watch(next)?,
                None => self.screen.note(printer.lines(|u| u.watch_no_next, &[("id", &self.exercise().id)])),
            },
            Command::Previous => match self.watched.checked_sub(1) {
                Some(previous) => self.watch(previous)?,
                None => self.screen.note(printer.lines(|u| u.watch_no_previous, &[("id", &self.exercise().id)])),
            },
        }
        Ok(Flow::Go)
    }

    /// A save of the watched file checks it once the save has settled; anything else in the
    /// folder is no business of the screen.
    fn on_saved(&mut self, path: &Path) {
        let watched = self.session.workspace.exercise_file(self.exercise());
        // The file and its course's folder: two courses may have files of the same name.
        let last_two = |p: &Path| p.components().rev().take(2).map(|c| c.as_os_str().to_owned()).collect::<Vec<_>>();
        if path.file_name().is_none() || last_two(path) != last_two(&watched) {
            return;
        }
        if self.list.is_some() {
            self.stale = true;
        } else {
            self.recheck_at = Some(Instant::now() + DEBOUNCE);
        }
    }

    fn on_news(&mut self, news: News) -> Result<()> {
        match news {
            News::Status(status) => {
                let since = match self.status {
                    Some((shown, since)) if shown == status => since,
                    _ => Instant::now(),
                };
                self.status = Some((status, since));
                let text = self.status_text(status, since);
                self.screen.status(text);
            }
            News::Done(done) => {
                self.status = None;
                if let Some(check) = self.check.take() {
                    check.join();
                }
                if let Some(finished) = done? {
                    self.show(finished, false)?;
                }
            }
        }
        Ok(())
    }

    fn status_text(&self, status: Status, since: Instant) -> String {
        wording::status_line(&self.session.printer, status, since, &self.exercise().file)
    }

    /// Watches exercise number `index` and checks it; crossing into another chapter says so.
    fn watch(&mut self, index: usize) -> Result<()> {
        self.top = self.new_chapter(index).into_iter().collect();
        self.watched = index;
        self.pointed_hint = None;
        self.start_check()
    }

    /// The line announcing exercise `index`'s chapter, when it is not the watched one's.
    fn new_chapter(&self, index: usize) -> Option<String> {
        let catalogue = &self.session.catalogue;
        let course = &catalogue.exercises.get(index)?.course;
        if *course == self.exercise().course {
            return None;
        }
        let printer = &self.session.printer;
        let title = course_title(printer, catalogue, course);
        let line = printer.lines(|u| u.watch_new_chapter, &[("course", &title), ("course_id", course)]);
        Some(line.bold().to_string())
    }

    /// Cancels the running check, if any, and starts a new one of the watched exercise.
    fn start_check(&mut self) -> Result<()> {
        self.stop_check();
        self.shown = None;
        self.recheck_at = None;
        self.stale = false;
        self.runs += 1;
        let exercise = self.exercise();
        let printer = &self.session.printer;
        let name = title(printer, &exercise.title_zh, &exercise.title_en);
        let header = format!("{} {} · {name}", printer.label(|u| u.checking), exercise.id).bold().to_string();
        self.refresh_footer()?;
        self.screen.begin(std::mem::take(&mut self.top), header);
        self.check =
            Some(worker::start(self.scope, self.session, self.limits, self.watched, self.runs, self.sender.clone()));
        Ok(())
    }

    /// Draws the watch screen again, at the terminal's size now: a finished check's report and
    /// verdict laid out anew (the terminal may have changed while the list covered it).
    fn redraw(&mut self) -> Result<()> {
        self.refresh_footer()?;
        match self.shown.take() {
            Some((finished, width)) if width != self.session.printer.width() => self.show(finished, true),
            kept => {
                self.shown = kept;
                self.screen.redraw();
                Ok(())
            }
        }
    }

    fn stop_check(&mut self) {
        self.status = None;
        if let Some(check) = self.check.take() {
            check.stop();
        }
    }

    /// The progress bar and the keys, from the progress as it is now.
    fn refresh_footer(&mut self) -> Result<()> {
        let printer = &self.session.printer;
        let state = self.session.state()?;
        let bar = progress_bar(printer, &self.session.catalogue, &state);
        let file = &self.exercise().file;
        let keys = if self.options.interactive {
            printer.lines(|u| u.watch_banner, &[("file", file)])
        } else {
            printer.lines(|u| u.watch_manual_banner, &[("file", file)])
        };
        let keys = wording::fit_items(&keys, printer.width());
        self.screen.set_footer(format!("{bar}\n{}", keys.cyan()));
        Ok(())
    }

    /// The first exercise after the watched one (going round) not passed yet.
    fn next_not_passed(&self) -> Result<Option<usize>> {
        let state = self.session.state()?;
        Ok(crate::render::list::next_not_passed(&self.session.catalogue, &state, self.watched))
    }

    /// Where `n` goes: the next exercise not passed yet; when all are, simply the next one.
    fn next_exercise(&self) -> Result<Option<usize>> {
        let following = Some(self.watched + 1).filter(|&i| i < self.session.catalogue.exercises.len());
        Ok(self.next_not_passed()?.or(following))
    }
}

impl Drop for Watch<'_, '_> {
    fn drop(&mut self) {
        // On an error the scope still waits for the worker: make that wait short.
        if let Some(check) = &self.check {
            check.cancel();
        }
    }
}
