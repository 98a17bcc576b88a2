//! What the watch shows. On a terminal the whole screen is redrawn from its parts whenever one
//! changes (rustlings does the same): the screen is cleared first, and the progress bar and the
//! keys end every drawing, so they stay at the bottom. Without a terminal nothing is cleared and
//! each part is printed once, when it arrives, the footer after each run and each key.

use std::io::Write;

use colored::Colorize;

/// Clears the screen and its scrollback and puts the cursor at the top left.
const CLEAR: &str = "\x1b[H\x1b[2J\x1b[3J";

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
}

impl Screen {
    /// A screen that redraws itself when `live` (a terminal), and prints as it goes otherwise.
    pub fn new(live: bool) -> Screen {
        Screen {
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
            self.notes.push(note);
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

    fn draw(&self) {
        let mut text = String::from(CLEAR);
        for line in &self.top {
            text.push_str(&format!("{line}\n"));
        }
        text.push_str(&format!("{}\n", self.header));
        if let Some(status) = &self.status {
            text.push_str(&format!("{}\n", status.dimmed()));
        }
        if !self.report.is_empty() {
            text.push_str(&self.report);
            text.push('\n');
        }
        for line in &self.verdict {
            text.push_str(&format!("{line}\n"));
        }
        for note in &self.notes {
            text.push_str(&format!("\n{}\n", note.trim_end()));
        }
        text.push_str(&format!("\n{}\n", self.footer));
        emit(&text);
    }
}

/// Writes `text` in one piece, so that a redraw does not flicker line by line.
fn emit(text: &str) {
    let mut stdout = std::io::stdout().lock();
    // A closed terminal is noticed by the key reader, which ends the watch.
    let _ = stdout.write_all(text.as_bytes());
    let _ = stdout.flush();
}
