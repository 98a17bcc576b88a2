//! Lesson markdown, rendered for a terminal: headings, emphasis, inline code, code blocks, lists
//! and tables, in colour when colour is on and as plain, readable text otherwise. Paragraphs are
//! reflowed to the width (the author's line breaks are not kept: they were made for an editor,
//! not for this terminal); code blocks are kept as written; a table too wide for the terminal is
//! laid out as a list (see [`super::table`]).

use colored::Colorize;
use pulldown_cmark::{CodeBlockKind, Event, HeadingLevel, Options, Parser, Tag, TagEnd};
use unicode_width::UnicodeWidthChar;

use super::table::Table;
use super::wrap;

/// Indentation of a code block's lines.
const CODE_INDENT: &str = "  ";

/// The widest a code block's line may be for the block to fit `columns` (code is shown as
/// written, never wrapped).
pub fn code_fits(columns: usize) -> usize {
    columns.saturating_sub(CODE_INDENT.len())
}

/// The lines of `source`'s code blocks, each with its display width.
pub fn code_lines(source: &str) -> Vec<(usize, String)> {
    let mut lines = Vec::new();
    let mut in_code = false;
    for event in Parser::new_ext(source, Options::ENABLE_TABLES) {
        match event {
            Event::Start(Tag::CodeBlock(_)) => in_code = true,
            Event::End(TagEnd::CodeBlock) => in_code = false,
            Event::Text(text) if in_code => lines.extend(text.lines().map(|l| (wrap::width(l), l.to_string()))),
            _ => {}
        }
    }
    lines
}

/// Renders `source` for a terminal `columns` wide.
pub fn render(source: &str, columns: usize) -> String {
    let mut out = Renderer { columns, ..Renderer::default() };
    for event in Parser::new_ext(source, Options::ENABLE_TABLES) {
        out.event(event);
    }
    out.finish()
}

#[derive(Default)]
struct Renderer {
    columns: usize,
    out: String,
    /// The block being built (inline text is collected, then wrapped as a whole).
    line: String,
    /// A line break of the source is pending: a space, or nothing between two CJK characters.
    soft_break: bool,
    heading: Option<HeadingLevel>,
    strong: bool,
    emphasis: bool,
    code_block: bool,
    /// Open lists: the next number of each ordered one, `None` for bullets.
    lists: Vec<Option<u64>>,
    /// The marker (`• `, `2. `) of the list item whose first block has not been written yet.
    marker: Option<String>,
    /// The hanging indentation of the innermost list item's lines.
    hang: Vec<usize>,
    table: Option<Table>,
}

impl Renderer {
    fn event(&mut self, event: Event) {
        match event {
            Event::Start(tag) => self.start(tag),
            Event::End(tag) => self.end(tag),
            Event::Text(text) => self.text(&text),
            Event::Code(code) => {
                let shown = format!("`{code}`");
                self.push(&shown.cyan().to_string());
            }
            Event::SoftBreak => self.soft_break = true,
            Event::HardBreak if self.table.is_none() => self.push("\n"),
            Event::Rule => {
                self.flush_block();
                self.out.push_str(&format!("{}\n\n", "─".repeat(40.min(self.columns)).dimmed()));
            }
            _ => {}
        }
    }

    fn start(&mut self, tag: Tag) {
        match tag {
            Tag::Heading { level, .. } => {
                self.flush_block();
                self.heading = Some(level);
            }
            Tag::Strong => self.strong = true,
            Tag::Emphasis => self.emphasis = true,
            Tag::CodeBlock(kind) => {
                self.flush_block();
                self.code_block = true;
                if let CodeBlockKind::Fenced(lang) = kind {
                    if !lang.is_empty() {
                        self.out.push_str(&format!("{}{CODE_INDENT}{}\n", self.base_indent(), lang.dimmed()));
                    }
                }
            }
            Tag::List(start) => {
                self.flush_block();
                self.lists.push(start);
            }
            Tag::Item => {
                self.flush_block();
                let marker = match self.lists.last_mut() {
                    Some(Some(n)) => {
                        *n += 1;
                        format!("{}. ", *n - 1)
                    }
                    _ => "• ".to_string(),
                };
                self.hang.push(wrap::width(&marker));
                self.marker = Some(marker);
            }
            Tag::Table(alignments) => {
                self.flush_block();
                self.table = Some(Table::new(alignments));
            }
            Tag::TableHead | Tag::TableRow => {
                if let Some(table) = &mut self.table {
                    table.start_row();
                }
            }
            _ => {}
        }
    }

    fn end(&mut self, tag: TagEnd) {
        match tag {
            TagEnd::Heading(level) => {
                let text = std::mem::take(&mut self.line);
                let wrapped = wrap::wrap(text.trim(), "", "", self.columns);
                let width = wrapped.lines().map(wrap::width).max().unwrap_or(1);
                self.out.push_str(&format!("{}\n", wrapped.bold()));
                if matches!(level, HeadingLevel::H1 | HeadingLevel::H2) {
                    self.out.push_str(&format!("{}\n", "─".repeat(width.max(1)).dimmed()));
                }
                self.out.push('\n');
                self.heading = None;
                self.soft_break = false;
            }
            TagEnd::Strong => self.strong = false,
            TagEnd::Emphasis => self.emphasis = false,
            TagEnd::Paragraph => {
                self.flush_block();
                if self.lists.is_empty() {
                    self.out.push('\n');
                }
            }
            TagEnd::CodeBlock => {
                self.code_block = false;
                self.out.push('\n');
            }
            TagEnd::List(_) => {
                self.flush_block();
                self.lists.pop();
                if self.lists.is_empty() {
                    self.out.push('\n');
                }
            }
            TagEnd::Item => {
                self.flush_block();
                self.hang.pop();
                self.marker = None;
            }
            TagEnd::TableCell => {
                if let Some(table) = &mut self.table {
                    table.end_cell();
                }
            }
            TagEnd::Table => {
                if let Some(table) = self.table.take() {
                    self.out.push_str(&table.render(self.columns));
                    self.out.push('\n');
                }
            }
            _ => {}
        }
    }

    fn text(&mut self, text: &str) {
        if self.code_block {
            let indent = self.base_indent();
            for line in text.lines() {
                self.out.push_str(&format!("{indent}{CODE_INDENT}{}\n", line.dimmed()));
            }
            return;
        }
        let styled = if self.strong {
            text.bold().to_string()
        } else if self.emphasis {
            text.italic().to_string()
        } else {
            text.to_string()
        };
        self.push(&styled);
    }

    fn push(&mut self, text: &str) {
        if std::mem::take(&mut self.soft_break) {
            let before = super::plain(&self.line).chars().last();
            let after = super::plain(text).chars().next();
            // Chinese has no spaces between words, and its full-width punctuation carries its
            // own: a source line break between two CJK characters, or next to a Chinese comma
            // or colon, joins them; anywhere else it is a space.
            let wide = |c: Option<char>| c.is_some_and(|c| c.width() == Some(2));
            let full_width_punctuation =
                |c: Option<char>| c.is_some_and(|c| matches!(c, '\u{3000}'..='\u{303f}' | '\u{ff00}'..='\u{ffef}'));
            let joined =
                (wide(before) && wide(after)) || full_width_punctuation(before) || full_width_punctuation(after);
            if !joined {
                self.push_raw(" ");
            }
        }
        self.push_raw(text);
    }

    fn push_raw(&mut self, text: &str) {
        match &mut self.table {
            Some(table) => table.push(text),
            None => self.line.push_str(text),
        }
    }

    /// The indentation of a list item's text (the markers of outer lists included).
    fn base_indent(&self) -> String {
        " ".repeat(self.hang.iter().sum())
    }

    /// Writes the collected block, wrapped to the width: a list item's first block after its
    /// marker, every other line under the item's text.
    fn flush_block(&mut self) {
        self.soft_break = false;
        let text = std::mem::take(&mut self.line);
        if text.trim().is_empty() {
            return;
        }
        let rest = self.base_indent();
        let first = match self.marker.take() {
            Some(marker) => {
                let outer: usize = self.hang.iter().rev().skip(1).sum();
                format!("{}{marker}", " ".repeat(outer))
            }
            None => rest.clone(),
        };
        // A hard line break starts a new line under the same indentation.
        for (i, piece) in text.trim().split('\n').enumerate() {
            let start = if i == 0 { first.as_str() } else { rest.as_str() };
            self.out.push_str(&wrap::wrap(piece.trim(), start, &rest, self.columns));
            self.out.push('\n');
        }
    }

    fn finish(mut self) -> String {
        self.flush_block();
        self.out.trim_end().to_string() + "\n"
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plain(source: &str, columns: usize) -> String {
        colored::control::set_override(false);
        render(source, columns)
    }

    #[test]
    fn renders_structure_as_plain_text_without_markup() {
        let shown = plain(
            "## Why\n\nSome **bold** and `code`.\n\n```\nlet x = 1;\n```\n\n- one\n- two\n\n| 阶段 | why |\n|---|---|\n| 平方 | FP32 |\n",
            80,
        );
        assert!(shown.contains("Why\n───"), "{shown}");
        assert!(shown.contains("Some bold and `code`."), "{shown}");
        assert!(shown.contains("  let x = 1;"), "{shown}");
        assert!(shown.contains("• one\n• two"), "{shown}");
        assert!(!shown.contains("**") && !shown.contains("|---"), "{shown}");
    }

    #[test]
    fn code_lines_are_measured_in_display_columns() {
        let lines = code_lines("text\n\n```\nlet x = 1;\n平方 → 均值\n```\n");
        assert_eq!(lines, vec![(10, "let x = 1;".to_string()), (11, "平方 → 均值".to_string())]);
        assert_eq!(code_fits(80), 78);
    }

    #[test]
    fn paragraphs_reflow_to_the_width() {
        let source =
            "one two three four five six seven eight nine ten eleven twelve thirteen\nfourteen `a code span` end.\n";
        let narrow = plain(source, 24);
        for line in narrow.lines() {
            assert!(wrap::width(line) <= 24, "{line:?}\n{narrow}");
        }
        assert!(narrow.contains("`a code span`"), "{narrow}");
        assert_eq!(narrow.split_whitespace().collect::<Vec<_>>(), source.split_whitespace().collect::<Vec<_>>());
        // Wide enough, the author's line break is gone: one line.
        assert_eq!(plain(source, 200).lines().count(), 1);
    }

    #[test]
    fn chinese_lines_join_without_a_space_and_break_between_characters() {
        let shown = plain("只沿最后一维统计；批次维和序列维原样保留，\n不同 token 之间互不影响：\n4096 个。\n", 20);
        assert!(shown.replace('\n', "").contains("保留，不同"), "{shown}");
        assert!(shown.replace('\n', "").contains("影响：4096"), "no space after full-width punctuation: {shown}");
        for line in shown.lines() {
            assert!(wrap::width(line) <= 20, "{line:?}");
            assert!(!line.starts_with(['，', '。', '；']), "{line:?}");
        }
    }

    #[test]
    fn list_items_hang_under_their_text() {
        let shown = plain(
            "1. first item that is long enough to wrap twice here\n2. second\n\n- a\n  - nested item wraps too\n",
            20,
        );
        let lines: Vec<&str> = shown.lines().collect();
        assert!(lines[0].starts_with("1. first"), "{shown}");
        assert!(lines[1].starts_with("   ") && !lines[1].starts_with("    "), "{shown}");
        assert!(shown.contains("\n2. second"), "{shown}");
        assert!(shown.contains("\n  • nested item\n    wraps too"), "{shown}");
    }
}
