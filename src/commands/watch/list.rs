//! The watch's interactive list: the course list with a cursor. Arrow keys or `j`/`k` move it,
//! Page Up/Down (or `b`/space) by a screenful, Home/End (or `g`/`G`) to the first or last; Enter
//! watches the exercise under it, `r` resets that exercise once the learner has typed the
//! confirmation word, Esc or `q` go back. This holds only the list's own state; the event loop
//! does what it asks.

use std::cell::Cell;

use anyhow::Result;
use colored::Colorize;

use super::keys::Key;
use crate::commands::reset::CONFIRMATION;
use crate::commands::Session;
use crate::render::list::{progress_bar, render_marking};
use crate::render::viewport::{self, Window};
use crate::render::wrap;
use crate::text::Ui;

/// Longest confirmation kept: the word is short, anything longer is not it.
const MAX_TYPED: usize = 32;

/// Rows of context kept above the cursor when the list scrolls up: a chapter's heading, the blank
/// line under it and the one before it.
const HEADING_ROWS: usize = 3;

/// The list's state.
pub struct ListView {
    cursor: usize,
    /// The first line of the list on screen, when the terminal is too short for all of it: the
    /// window follows the cursor, scrolling as little as it can.
    first: Cell<usize>,
    /// How many exercises a page key moves the cursor: about as many as the screen showed when
    /// the list was last drawn (its rows times the list's exercises per line; 10 on a terminal of
    /// unknown height).
    page: Cell<usize>,
    /// What the learner has typed at the reset prompt, while it is open.
    typing: Option<String>,
    /// Lines under the list (what the last reset did).
    message: Vec<String>,
}

/// What a key in the list asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Action {
    /// Draw the list again.
    Redraw,
    /// Nothing changed.
    Nothing,
    /// Watch exercise number `n`.
    Watch(usize),
    /// Reset exercise number `n` (confirmed).
    Reset(usize),
    /// Back to the watch.
    Back,
    /// Stop watching (Ctrl-C).
    Quit,
}

impl ListView {
    /// The list with its cursor on exercise number `cursor`.
    pub fn at(cursor: usize) -> ListView {
        ListView { cursor, first: Cell::new(0), page: Cell::new(10), typing: None, message: Vec::new() }
    }

    /// Applies `key`; `count` is the number of exercises.
    pub fn key(&mut self, key: &Key, count: usize, declined: impl FnOnce() -> String) -> Action {
        if key == &Key::Interrupt {
            return Action::Quit;
        }
        if let Some(typed) = &mut self.typing {
            match key {
                Key::Char(c) if typed.chars().count() < MAX_TYPED => typed.push(*c),
                Key::Backspace => {
                    typed.pop();
                }
                Key::Enter => {
                    let confirmed = typed.trim().eq_ignore_ascii_case(CONFIRMATION);
                    self.typing = None;
                    if confirmed {
                        return Action::Reset(self.cursor);
                    }
                    self.message = vec![declined()];
                }
                Key::Esc => {
                    self.typing = None;
                    self.message = vec![declined()];
                }
                _ => return Action::Nothing,
            }
            return Action::Redraw;
        }
        let last = count.saturating_sub(1);
        let to = match key {
            Key::Up | Key::Char('k') => self.cursor.saturating_sub(1),
            Key::Down | Key::Char('j') => (self.cursor + 1).min(last),
            Key::PageUp | Key::Char('b') => self.cursor.saturating_sub(self.page.get()),
            Key::PageDown | Key::Char(' ') => (self.cursor + self.page.get()).min(last),
            Key::Home | Key::Char('g') => 0,
            Key::End | Key::Char('G') => last,
            _ => self.cursor,
        };
        if to != self.cursor {
            self.cursor = to;
            return Action::Redraw;
        }
        match key {
            Key::Enter => return Action::Watch(self.cursor),
            Key::Char('r') => {
                self.typing = Some(String::new());
                self.message.clear();
            }
            Key::Esc | Key::Char('q') => return Action::Back,
            _ => return Action::Nothing,
        }
        Action::Redraw
    }

    /// Shows what a reset did.
    pub fn told(&mut self, message: Vec<String>) {
        self.message = message;
    }

    /// The list, its message, and the keys or the prompt. On a terminal too short for all of
    /// it, the list shows the window around the cursor, with markers for what is above and
    /// below, and the message, keys and prompt stay at the bottom.
    pub fn render(&self, session: &Session) -> Result<String> {
        let printer = &session.printer;
        let state = session.state()?;
        let (list, marked) = render_marking(printer, &session.catalogue, &state, Some(self.cursor));
        let mut tail = format!("\n{}\n\n", progress_bar(printer, &session.catalogue, &state));
        for line in &self.message {
            tail.push_str(&format!("{line}\n"));
        }
        match (&self.typing, session.catalogue.exercises.get(self.cursor)) {
            (Some(typed), Some(exercise)) => {
                let prompt = printer.lines(|u| u.reset_prompt, &[("file", &exercise.file)]);
                let keys = printer.label(|u| u.watch_confirm_keys);
                tail.push_str(&format!("{prompt}\n{}\n> {typed}", keys.dimmed()));
            }
            _ => tail.push_str(&format!("{}\n", printer.lines(|u| u.watch_list_keys, &[]).cyan())),
        }
        let Some(rows) = viewport::terminal_rows() else { return Ok(format!("{list}{tail}")) };
        let columns = printer.width();
        // The last line is not ended: a newline on the terminal's last row would scroll it.
        let tail = tail.strip_suffix('\n').unwrap_or(&tail);
        let lines: Vec<&str> = list.trim_end_matches('\n').split('\n').collect();
        let room = rows.saturating_sub(viewport::rows_of(tail, columns));
        let window = Window::showing(&lines, room, self.first.get(), marked, HEADING_ROWS, columns);
        let exercises = session.catalogue.exercises.len();
        self.page.set((room * exercises / lines.len().max(1)).max(1));
        self.first.set(window.first);
        let marker = |n: usize, above: bool| {
            let pick = if above { |u: &Ui| u.list_more_above } else { |u: &Ui| u.list_more_below };
            wrap::truncate(&printer.inline(pick, &[("n", &n)]), columns).dimmed().to_string()
        };
        Ok(format!("{}\n{tail}", viewport::shown(&lines, &window, marker)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn no() -> String {
        "Nothing changed.".into()
    }

    #[test]
    fn moves_within_the_list_and_picks_an_exercise() {
        let mut list = ListView::at(0);
        assert_eq!(list.key(&Key::Up, 3, no), Action::Nothing);
        assert_eq!(list.key(&Key::Down, 3, no), Action::Redraw);
        assert_eq!(list.key(&Key::Char('j'), 3, no), Action::Redraw);
        assert_eq!(list.key(&Key::Char('j'), 3, no), Action::Nothing);
        assert_eq!(list.key(&Key::Char('k'), 3, no), Action::Redraw);
        assert_eq!(list.key(&Key::Enter, 3, no), Action::Watch(1));
        assert_eq!(list.key(&Key::Char('q'), 3, no), Action::Back);
    }

    #[test]
    fn pages_and_ends_move_the_cursor_within_the_list() {
        let mut list = ListView::at(0);
        list.page.set(4);
        assert_eq!(list.key(&Key::PageUp, 15, no), Action::Nothing, "already at the top");
        assert_eq!(list.key(&Key::PageDown, 15, no), Action::Redraw);
        assert_eq!(list.cursor, 4);
        list.key(&Key::Char(' '), 15, no);
        list.key(&Key::PageDown, 15, no);
        list.key(&Key::PageDown, 15, no);
        assert_eq!(list.cursor, 14, "a page down stops at the last");
        assert_eq!(list.key(&Key::End, 15, no), Action::Nothing);
        list.key(&Key::Char('b'), 15, no);
        assert_eq!(list.cursor, 10);
        list.key(&Key::Home, 15, no);
        assert_eq!(list.cursor, 0);
        list.key(&Key::Char('G'), 15, no);
        assert_eq!(list.cursor, 14);
        list.key(&Key::Char('g'), 15, no);
        assert_eq!(list.cursor, 0);
        assert_eq!(list.key(&Key::End, 0, no), Action::Nothing, "an empty list");
    }

    #[test]
    fn resets_only_after_the_typed_word() {
        let mut list = ListView::at(1);
        list.key(&Key::Char('r'), 3, no);
        for c in "rest".chars() {
            list.key(&Key::Char(c), 3, no);
        }
        // `q` is typed, not a way out, while the prompt is open.
        list.key(&Key::Char('q'), 3, no);
        assert_eq!(list.key(&Key::Enter, 3, no), Action::Redraw);
        assert_eq!(list.message, vec![no()]);
        list.key(&Key::Char('r'), 3, no);
        for c in "resex".chars() {
            list.key(&Key::Char(c), 3, no);
        }
        list.key(&Key::Backspace, 3, no);
        list.key(&Key::Char('t'), 3, no);
        assert_eq!(list.key(&Key::Enter, 3, no), Action::Reset(1));
        list.key(&Key::Char('r'), 3, no);
        assert_eq!(list.key(&Key::Esc, 3, no), Action::Redraw);
        assert_eq!(list.key(&Key::Interrupt, 3, no), Action::Quit);
    }
}
