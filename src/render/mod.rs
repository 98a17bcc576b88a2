//! Terminal output: language selection, colour, and the renderings of each command.

pub mod check;
pub mod compile_note;
pub mod failures;
pub mod json;
pub mod list;
pub mod markdown;
pub mod mismatch;
pub mod pager;
pub mod progress_line;
pub mod table;
pub mod viewport;
pub mod wrap;

use std::io::IsTerminal;

use tutor_grade::text::Bi;

use crate::course::lesson::Language;
use crate::text::{self, LangChoice, Ui};

/// `text` without terminal colour codes: for measuring widths and for machine-readable output.
pub fn plain(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut in_escape = false;
    for c in text.chars() {
        match (in_escape, c) {
            (false, '\u{1b}') => in_escape = true,
            (true, c) if c.is_ascii_alphabetic() => in_escape = false,
            (true, _) => {}
            (false, c) => out.push(c),
        }
    }
    out
}

/// Writes text in the languages the learner chose, with or without colour.
#[derive(Clone)]
pub struct Printer {
    choice: LangChoice,
    /// Whether ANSI colour is on.
    pub color: bool,
}

impl Printer {
    /// Colour is on only for a terminal, and never with `--no-color` or `NO_COLOR`.
    pub fn new(choice: LangChoice, no_color_flag: bool) -> Self {
        let no_color_env = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
        let color = !no_color_flag && !no_color_env && std::io::stdout().is_terminal();
        colored::control::set_override(color);
        Printer { choice, color }
    }

    /// The languages asked for.
    pub fn choice(&self) -> LangChoice {
        self.choice
    }

    /// The content languages to show, in order.
    pub fn languages(&self) -> &'static [Language] {
        self.choice.languages()
    }

    /// One line per chosen language, each made by `line` from that language's UI text.
    pub fn per_language(&self, line: impl Fn(&'static Ui, Language) -> String) -> String {
        self.languages().iter().map(|&l| line(text::ui(l), l)).collect::<Vec<_>>().join("\n")
    }

    /// A sentence from the UI text, filled in, one line per language.
    pub fn lines(&self, pick: fn(&Ui) -> &'static str, values: &[(&str, &dyn std::fmt::Display)]) -> String {
        self.per_language(|ui, _| text::fill(pick(ui), values))
    }

    /// [`Printer::lines`] wrapped to the terminal, each language's line on its own.
    pub fn wrapped(&self, pick: fn(&Ui) -> &'static str, values: &[(&str, &dyn std::fmt::Display)]) -> String {
        wrap::wrap(&self.lines(pick, values), "", "  ", self.width())
    }

    /// A short label, languages joined on one line.
    pub fn label(&self, pick: fn(&Ui) -> &'static str) -> String {
        self.languages().iter().map(|&l| pick(text::ui(l))).collect::<Vec<_>>().join(" / ")
    }

    /// A kit sentence in the chosen languages, one line each.
    pub fn bi_lines(&self, bi: &Bi) -> String {
        self.languages().iter().map(|l| pick_bi(bi, *l)).collect::<Vec<_>>().join("\n")
    }

    /// A kit sentence in the chosen languages, on one line.
    pub fn bi_label(&self, bi: &Bi) -> String {
        self.languages().iter().map(|l| pick_bi(bi, *l)).collect::<Vec<_>>().join(" / ")
    }

    /// A sentence from the UI text, filled in, languages joined on one line.
    pub fn inline(&self, pick: fn(&Ui) -> &'static str, values: &[(&str, &dyn std::fmt::Display)]) -> String {
        self.languages().iter().map(|&l| text::fill(pick(text::ui(l)), values)).collect::<Vec<_>>().join(" / ")
    }

    /// What follows a label: a Chinese colon when only Chinese is shown (Chinese text does not
    /// mix `:` and `：`), else `: `.
    pub fn colon(&self) -> &'static str {
        if self.languages() == [Language::Zh] {
            "："
        } else {
            ": "
        }
    }

    /// The width to wrap text to, asked afresh (a terminal may have been resized).
    pub fn width(&self) -> usize {
        wrap::terminal_width()
    }

    /// A sentence from the UI text on one line, each language filled with its own values (a
    /// case's message, a title: they differ between languages).
    pub fn inline_each(
        &self,
        pick: fn(&Ui) -> &'static str,
        values: impl Fn(Language) -> Vec<(&'static str, String)>,
    ) -> String {
        let each = |language: Language| {
            let values = values(language);
            let values: Vec<(&str, &dyn std::fmt::Display)> =
                values.iter().map(|(name, value)| (*name, value as &dyn std::fmt::Display)).collect();
            text::fill(pick(text::ui(language)), &values)
        };
        self.languages().iter().map(|&l| each(l)).collect::<Vec<_>>().join(" / ")
    }

    /// Prints [`Printer::lines`], each language's line wrapped to the terminal.
    pub fn say(&self, pick: fn(&Ui) -> &'static str, values: &[(&str, &dyn std::fmt::Display)]) {
        println!("{}", self.wrapped(pick, values));
    }
}

/// The half of a kit sentence in `language`, made [`shown`]: a kit sentence may carry the
/// learner's values (an error's text, a panic's message, what a reply said).
fn pick_bi(bi: &Bi, language: Language) -> String {
    shown(pick(language, &bi.zh, &bi.en))
}

/// Text from outside the binary's own catalogue — the learner's values, what their program
/// printed, a panic's message, an error's text, a file of the course folder, an argument —
/// made safe for the terminal: control characters (ESC, CR, BEL …) but line breaks and tabs,
/// and the bidi controls and invisible characters, shown as `\u{..}` rather than obeyed. The
/// one escaping function of every renderer (it is the grading kit's `printable`, which the
/// kit's own renderings use too); the JSON report carries the raw strings.
pub fn shown(text: &str) -> String {
    tutor_grade::text::printable(text)
}

/// [`shown`] for rustc's rendering of a diagnostic, whose own colour (SGR sequences,
/// `ESC [ digits ; … m`) is kept when colour is on: anything else that is not text (an escape
/// sequence in a message the learner's code wrote, a carriage return) is shown.
pub fn shown_keeping_colour(text: &str, color: bool) -> String {
    if !color {
        return shown(text);
    }
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find('\u{1b}') {
        out.push_str(&shown(&rest[..at]));
        let after = &rest[at + 1..];
        let sgr = after.strip_prefix('[').and_then(|body| {
            let end = body.find(|c: char| !(c.is_ascii_digit() || c == ';'))?;
            (body[end..].starts_with('m')).then_some(end + 2)
        });
        match sgr {
            Some(len) => {
                out.push_str(&rest[at..at + 1 + len]);
                rest = &after[len..];
            }
            None => {
                out.push_str(&shown("\u{1b}"));
                rest = after;
            }
        }
    }
    out.push_str(&shown(rest));
    out
}

/// The half of a pair of titles or messages in `language`.
pub fn pick<'a>(language: Language, zh: &'a str, en: &'a str) -> &'a str {
    match language {
        Language::Zh => zh,
        Language::En => en,
    }
}

/// An exercise title in the chosen languages.
pub fn title(printer: &Printer, zh: &str, en: &str) -> String {
    printer.bi_label(&Bi::new(zh, en))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn outside_text_is_shown_and_rustcs_own_colour_kept() {
        let attack = "a\u{1b}[2J\u{1b}]0;t\u{7}\rb\u{202e}c\n\td";
        assert_eq!(shown(attack), "a\\u{1b}[2J\\u{1b}]0;t\\u{7}\\u{d}b\\u{202e}c\n\td");
        let rendered = "\u{1b}[0m\u{1b}[1m\u{1b}[38;5;9merror\u{1b}[0m: x\u{1b}[2J\u{1b}]0;t\u{7}";
        assert_eq!(
            shown_keeping_colour(rendered, true),
            "\u{1b}[0m\u{1b}[1m\u{1b}[38;5;9merror\u{1b}[0m: x\\u{1b}[2J\\u{1b}]0;t\\u{7}"
        );
        assert_eq!(shown_keeping_colour(rendered, false), shown(rendered));
        assert!(!shown_keeping_colour(rendered, false).contains('\u{1b}'));
    }
}
