//! A one-line progress display for builds.

use std::io::{IsTerminal, Write};

use colored::Colorize;

use super::Printer;
use crate::runner::{BuildEvent, CheckEvent};

/// One status line on stderr that rewrites itself on a terminal and stays silent elsewhere.
pub struct ProgressLine {
    live: bool,
    width: usize,
}

impl ProgressLine {
    /// A line on stderr, live only when stderr is a terminal.
    pub fn new() -> Self {
        ProgressLine { live: std::io::stderr().is_terminal(), width: 0 }
    }

    /// Replaces the line with `text`.
    pub fn show(&mut self, text: &str) {
        if self.live {
            eprint!("\r{text:<width$}", width = self.width);
            self.width = self.width.max(text.chars().count());
            let _ = std::io::stderr().flush();
        }
    }

    /// Wipes the line.
    pub fn clear(&mut self) {
        if self.live && self.width > 0 {
            eprint!("\r{}\r", " ".repeat(self.width));
            self.width = 0;
        }
    }

    /// Shows a runner event: a wait for another check, or a crate being compiled.
    pub fn event(&mut self, printer: &Printer, event: CheckEvent) {
        match event {
            CheckEvent::Waiting => eprintln!("{}", printer.lines(|u| u.waiting_for_lock, &[]).dimmed()),
            CheckEvent::Build(BuildEvent::Compiled { name, count }) => {
                let text = printer.label(|u| u.compiling).replace("{name}", name).replace("{n}", &count.to_string());
                self.show(&text)
            }
            CheckEvent::Build(BuildEvent::WaitingForCargo) => {
                eprintln!("{}", printer.lines(|u| u.waiting_for_cargo, &[]).dimmed())
            }
            CheckEvent::Running => self.show(&printer.label(|u| u.running_checks)),
        }
    }
}
