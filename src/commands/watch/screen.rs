//! What the watch shows. On a terminal the whole screen is redrawn from its parts whenever one
//! changes (rustlings does the same): the screen is cleared first, and the progress bar and the
//! keys end every drawing, so they stay at the bottom. The body (the check's report and what keys
//! asked for) gets the rows the header, the summary and the keys leave: a taller one shows a
//! window, with "… n more lines" and the keys that page it (Space, `b`, the arrows). Without a
//! terminal nothing is cleared and each part is printed once, when it arrives, the footer after
//! each run and each key.

use std::cell::Cell;
use std::io::Write;

use colored::Colorize;

use crate::render::viewport::{self, Window};
use crate::render::{wrap, Printer};
use crate::text::Ui;

/// Clears the screen and its scrollback and puts the cursor at the top left.
const CLEAR: &str = "\x1b[H\x1b[2J\x1b[3J";

/// The fewest rows the body gets, however little the rest leaves: a terminal too short for the
/// header, summary and keys still shows some of the report.
const FEWEST_BODY_ROWS: usize = 3;

/// Where the learner asked the body to move.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scroll {
    /// The next page (Space, PgDn).
    PageDown,
    /// The page before (`b`, PgUp).
    PageUp,
    /// One line on (↓).
    LineDown,
    /// One line back (↑).
    LineUp,
}

/// The parts of the watch screen.
pub struct Screen {
    live: bool,
    /// Said before the run (e.g. that the last exercise passed and this one is next).
    top: Vec<String>,
    /// `Checking 02-norm · …`.
    header: String,
    /// What the running check is doing; `None` once it is done.
    status: Option<String>,
    /// The report of the last run.
    report: String,
    /// Passed, or how many cases fail, and what to do next.
    verdict: Vec<String>,
    /// What keys asked for since the run: hints, messages.
    notes: Vec<String>,
    /// The progress bar and the keys.
    footer: String,
    /// The sentences of the markers of a cut body, in the chosen languages.
    printer: Printer,
    /// The first line of the body on screen.
    first: Cell<usize>,
    /// The body's window as last drawn, if it was cut.
    window: Cell<Option<Window>>,
}

impl Screen {
    /// A screen that redraws itself when `live` (a terminal), and prints as it goes otherwise.
    pub fn new(live: bool, printer: Printer) -> Screen {
        Screen {
            printer,
            first: Cell::new(0),
            window: Cell::new(None),
            live,
            top: Vec::new(),
            header: String::new(),
            status: None,
            report: String::new(),
            verdict: Vec::new(),
            notes: Vec::new(),
            footer: String::new(),
        }
    }

    /// Replaces the footer (shown at the next drawing).
    pub fn set_footer(&mut self, footer: String) {
        self.footer = footer;
    }

    /// A new run: everything from the last one goes.
    pub fn begin(&mut self, top: Vec<String>, header: String) {
        self.top = top;
        self.header = header;
        self.status = None;
        self.report.clear();
        self.verdict.clear();
        self.notes.clear();
        self.first.set(0);
        if self.live {
            self.draw();
        } else {
            let mut text = String::new();
            for line in &self.top {
                text.push_str(&format!("{line}\n"));
            }
            text.push_str(&format!("{}\n", self.header));
            emit(&text);
        }
    }

    /// The status of the running check (drawn on a terminal only, like `tutor check`'s).
    pub fn status(&mut self, status: String) {
        if self.status.as_deref() != Some(status.as_str()) {
            self.status = Some(status);
            if self.live {
                self.draw();
            }
        }
    }

    /// The run is done: its report and verdict.
    pub fn finish(&mut self, report: String, verdict: Vec<String>) {
        self.status = None;
        self.report = report;
        self.verdict = verdict;
        self.first.set(0);
        if self.live {
            self.draw();
        } else {
            let mut text = self.report.clone();
            text.push('\n');
            for line in &self.verdict {
                text.push_str(&format!("{line}\n"));
            }
            emit(&format!("{text}\n{}\n", self.footer));
        }
    }

    /// Something a key asked for (a hint, a message), under the report.
    pub fn note(&mut self, note: String) {
        if self.live {
            // The body scrolls to the new note: a hint under a long report is not left below.
            let before = self.body().split('\n').count();
            self.notes.push(note);
            self.first.set(if self.report.is_empty() && self.notes.len() == 1 { 0 } else { before + 1 });
            self.draw();
        } else {
            emit(&format!("{}\n\n{}\n", note.trim_end(), self.footer));
        }
    }

    /// Draws the screen again, on a terminal (after the list covered it).
    pub fn redraw(&self) {
        if self.live {
            self.draw();
        }
    }

    /// Replaces the whole screen with `text` (the list), on a terminal.
    pub fn show_instead(&self, text: &str) {
        if self.live {
            emit(&format!("{CLEAR}{text}"));
        }
    }

    /// Says goodbye under what is shown.
    pub fn bye(&self, text: &str) {
        emit(&format!("\n{text}\n"));
    }

    /// Moves the body's window, on a terminal where it was cut; says whether it moved.
    pub fn scroll(&self, to: Scroll) -> bool {
        let Some(window) = self.window.get().filter(|_| self.live) else { return false };
        let first = match to {
            Scroll::PageDown => window.next_page(),
            Scroll::PageUp => window.previous_page(),
            Scroll::LineDown if window.below() > 0 => window.first + 1,
            Scroll::LineDown => window.first,
            Scroll::LineUp => window.first.saturating_sub(1),
        };
        if first == window.first {
            return false;
        }
        self.first.set(first);
        self.draw();
        true
    }

    /// The report and the notes under it.
    fn body(&self) -> String {
        let mut body = self.report.trim_end().to_string();
        for note in &self.notes {
            if !body.is_empty() {
                body.push_str("\n\n");
            }
            body.push_str(note.trim_end());
        }
        body
    }

    fn draw(&self) {
        let mut head = String::new();
        for line in &self.top {
            head.push_str(&format!("{line}\n"));
        }
        head.push_str(&format!("{}\n", self.header));
        if let Some(status) = &self.status {
            head.push_str(&format!("{}\n", status.dimmed()));
        }
        let mut tail = String::new();
        for line in &self.verdict {
            tail.push_str(&format!("{line}\n"));
        }
        if !tail.is_empty() {
            tail.push('\n');
        }
        tail.push_str(&self.footer);
        let body = self.body();
        let rows = viewport::terminal_rows();
        let (body, window) = match rows {
            Some(rows) if !body.is_empty() => {
                let columns = wrap::terminal_width();
                // The head, the blank line under the body, the summary and the keys.
                let fixed =
                    viewport::rows_of(head.trim_end_matches('\n'), columns) + 1 + viewport::rows_of(&tail, columns);
                let room = rows.saturating_sub(fixed).max(FEWEST_BODY_ROWS);
                let lines: Vec<&str> = body.split('\n').collect();
                let window = Window::fit(&lines, room, self.first.get(), columns);
                self.first.set(window.first);
                let cut = (window.above() + window.below() > 0).then_some(window);
                (viewport::shown(&lines, &window, |n, above| self.marker(n, above, columns)), cut)
            }
            _ => (body, None),
        };
        self.window.set(window);
        let body = if body.is_empty() { body } else { format!("{body}\n\n") };
        // The last line is not ended on a terminal of known height: a newline on its last row
        // would scroll the header off.
        let end = if rows.is_some() { "" } else { "\n" };
        emit(&format!("{CLEAR}{head}{body}{tail}{end}"));
    }

    /// "… n lines above" or "… n more lines", with the keys that page.
    fn marker(&self, n: usize, above: bool, columns: usize) -> String {
        let pick = if above { |u: &Ui| u.report_more_above } else { |u: &Ui| u.report_more_below };
        wrap::truncate(&self.printer.inline(pick, &[("n", &n)]), columns).cyan().to_string()
    }
}

/// Writes `text` in one piece, so that a redraw does not flicker line by line.
fn emit(text: &str) {
    let mut stdout = std::io::stdout().lock();
    // A closed terminal is noticed by the key reader, which ends the watch.
    let _ = stdout.write_all(text.as_bytes());
    let _ = stdout.flush();
}
