//! Text fitted to the terminal: its width, and wrapping that never splits a word, keeps a
//! `code span` (a command, a path) whole, and breaks Chinese between characters, where Chinese
//! text breaks. Widths are display columns: a CJK character takes two.

use std::io::IsTerminal;

use textwrap::core::Word;
use textwrap::{Options, WordSeparator, WordSplitter, WrapAlgorithm};
use unicode_width::UnicodeWidthChar;

/// The width when neither the terminal nor `COLUMNS` gives one.
pub const DEFAULT_WIDTH: usize = 80;

/// Narrower than this, wrapping would only shred the text.
const NARROWEST: usize = 20;

/// The width to wrap to: the terminal's when stdout is one, else `COLUMNS`, else 80.
pub fn terminal_width() -> usize {
    let terminal = || {
        let (columns, _) = crossterm::terminal::size().ok()?;
        Some(usize::from(columns))
    };
    let from_terminal = if std::io::stdout().is_terminal() { terminal() } else { None };
    let from_env = || std::env::var("COLUMNS").ok()?.trim().parse::<usize>().ok();
    // A terminal of unknown size (a pseudo-terminal nobody sized) says 0.
    from_terminal.filter(|&c| c > 0).or_else(|| from_env().filter(|&c| c > 0)).unwrap_or(DEFAULT_WIDTH).max(NARROWEST)
}

/// Display columns of `text`, ANSI colour sequences not counted.
pub fn width(text: &str) -> usize {
    textwrap::core::display_width(text)
}

/// Every line of `text` wrapped to `columns`: each starts with `first` and goes on, where it
/// wraps, after `rest` (both part of the width; one line per language keeps its own start). A
/// word wider than the line stays whole, on a line of its own. No trailing newline.
pub fn wrap(text: &str, first: &str, rest: &str, columns: usize) -> String {
    let mut out: Vec<String> = Vec::new();
    for line in text.lines() {
        let options = Options::new(columns)
            .initial_indent(first)
            .subsequent_indent(rest)
            .break_words(false)
            .word_separator(WordSeparator::Custom(break_opportunities))
            .word_splitter(WordSplitter::NoHyphenation)
            .wrap_algorithm(WrapAlgorithm::FirstFit);
        let wrapped = textwrap::wrap(line.trim_start(), options);
        if wrapped.is_empty() {
            out.push(String::new());
        }
        out.extend(wrapped.into_iter().map(|l| l.trim_end().to_string()));
    }
    out.join("\n")
}

/// [`wrap`] with the same indentation on every line.
pub fn indented(text: &str, indent: usize, columns: usize) -> String {
    let pad = " ".repeat(indent);
    wrap(text, &pad, &pad, columns)
}

/// `text` cut to `columns` display columns, ending in `…` when cut.
pub fn truncate(text: &str, columns: usize) -> String {
    if width(text) <= columns {
        return text.to_string();
    }
    let mut out = String::new();
    let mut used = 0;
    for c in text.chars() {
        let w = c.width().unwrap_or(0);
        if used + w + 1 > columns {
            break;
        }
        out.push(c);
        used += w;
    }
    out.push('…');
    out
}

/// How many terminal rows `text` takes at `columns` (a longer line wraps on the terminal).
pub fn rows(text: &str, columns: usize) -> usize {
    text.lines().map(|l| width(l).div_ceil(columns.max(1)).max(1)).sum()
}

/// Characters that may not start a line (closing punctuation) …
const NO_BREAK_BEFORE: &str = "，。、；：？！）」』】》〉”’…%,.;:!?)]}";
/// … and those that may not end one (opening punctuation).
const NO_BREAK_AFTER: &str = "（「『【《〈“‘([{";

/// Splits one line into the pieces a line may break between: after a run of spaces, and
/// between two characters when either is a wide (CJK) one — except before closing and after
/// opening punctuation, and never inside a `code span`.
fn break_opportunities(line: &str) -> Box<dyn Iterator<Item = Word<'_>> + '_> {
    let mut words = Vec::new();
    let mut start = 0;
    let mut in_code = false;
    let mut previous: Option<char> = None;
    let mut chars = line.char_indices().peekable();
    while let Some((at, c)) = chars.next() {
        if !in_code && c == ' ' {
            while chars.next_if(|&(_, next)| next == ' ').is_some() {}
            let end = chars.peek().map_or(line.len(), |&(next, _)| next);
            words.push(Word::from(&line[start..end]));
            start = end;
            previous = None;
            continue;
        }
        if !in_code && at > start && previous.is_some_and(|p| breaks_between(p, c)) {
            words.push(Word::from(&line[start..at]));
            start = at;
        }
        if c == '`' && (in_code || line[at + 1..].contains('`')) {
            in_code = !in_code;
        }
        previous = Some(c);
    }
    if start < line.len() {
        words.push(Word::from(&line[start..]));
    }
    Box::new(words.into_iter())
}

/// Whether a line may break between `before` and `after` (no space between them).
fn breaks_between(before: char, after: char) -> bool {
    let wide = |c: char| c.width() == Some(2);
    (wide(before) || wide(after)) && !NO_BREAK_BEFORE.contains(after) && !NO_BREAK_AFTER.contains(before)
}

#[cfg(test)]
mod tests {
    use super::*;

    const MESSAGE: &str = "This looks like a known mistake: the sum of squares instead of their mean (outputs sqrt(D) times too small). Hint 2 of 02-norm is about it: `tutor hint 02-norm --level 2`.";

    #[test]
    fn english_breaks_only_between_words() {
        let wrapped = wrap(&format!("{MESSAGE}\n{MESSAGE}"), "", "  ", 40);
        for line in wrapped.lines() {
            assert!(width(line) <= 40, "{line:?}");
        }
        let words: Vec<&str> = wrapped.split_whitespace().collect();
        assert_eq!(words.join(" "), format!("{MESSAGE} {MESSAGE}"), "no word was split or lost");
        assert_eq!(wrapped.lines().filter(|l| l.starts_with("This")).count(), 2, "each line starts afresh");
        assert!(wrapped.contains("`tutor hint 02-norm --level 2`."), "the command stays whole:\n{wrapped}");
    }

    #[test]
    fn chinese_breaks_between_characters_and_keeps_punctuation_attached() {
        let text = "这像是一个常见错误：用了平方和而不是平方的均值（结果整体小了 sqrt(D) 倍）。02-norm 的第 2 条提示讲的就是它：`tutor hint 02-norm --level 2`。";
        let wrapped = wrap(text, "", "", 30);
        for line in wrapped.lines() {
            assert!(width(line) <= 30 || line.starts_with('`'), "{line:?} is {} wide", width(line));
            assert!(!line.starts_with(['，', '。', '）', '：']), "{line:?} starts with closing punctuation");
            assert!(!line.ends_with('（'), "{line:?} ends with opening punctuation");
        }
        // Breaking only drops the spaces it breaks at.
        assert_eq!(wrapped.replace(['\n', ' '], ""), text.replace(' ', ""), "nothing lost");
        assert!(wrapped.contains("`tutor hint 02-norm --level 2`"), "the command stays whole:\n{wrapped}");
    }

    #[test]
    fn indents_every_line_and_keeps_empty_lines() {
        let wrapped = indented("one two three four five six\n\nseven", 4, 20);
        assert_eq!(wrapped, "    one two three\n    four five six\n\n    seven");
    }

    #[test]
    fn truncates_by_display_width() {
        assert_eq!(truncate("abcdef", 4), "abc…");
        assert_eq!(truncate("最大误差", 5), "最大…");
        assert_eq!(truncate("ok", 4), "ok");
        assert_eq!(rows("ab\n\nabcde", 2), 1 + 1 + 3);
    }
}
