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
            // A line longer than the terminal would wrap, and `\r` returns only to its last row.
            let text = super::wrap::truncate(text, super::wrap::terminal_width().saturating_sub(1));
            let (line, widest) = overwrite(&text, self.width);
            eprint!("{line}");
            self.width = widest;
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

/// What rewrites a status line that was `widest` columns wide with `text`: a carriage return,
/// the text, and blanks over whatever of the old line the text leaves, counted in display
/// columns (a Chinese character takes two, so counting characters would leave a stray `1）`).
/// Returns it with the widest the line has now been.
fn overwrite(text: &str, widest: usize) -> (String, usize) {
    let shown = super::wrap::width(text);
    (format!("\r{text}{}", " ".repeat(widest.saturating_sub(shown))), widest.max(shown))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_line_is_measured_and_blanked_in_display_columns() {
        let chinese = "编译 tutor_kit（12）";
        assert_eq!(super::super::wrap::width(chinese), 20, "each Chinese character and parenthesis takes two columns");
        let (line, widest) = overwrite(chinese, 0);
        assert_eq!((line.as_str(), widest), ("\r编译 tutor_kit（12）", 20));
        // A shorter line afterwards blanks every column the longer one used.
        let (line, widest) = overwrite("正在运行检查", widest);
        assert_eq!(line, format!("\r正在运行检查{}", " ".repeat(20 - 12)));
        assert_eq!(widest, 20);
    }
}
