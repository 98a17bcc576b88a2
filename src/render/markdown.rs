//! Lesson markdown, rendered for a terminal: headings, emphasis, inline code, code blocks, lists
//! and tables, in colour when colour is on and as plain, readable text otherwise. Line breaks of
//! the source are kept (the lessons are written at a readable width).

use colored::Colorize;
use pulldown_cmark::{Alignment, CodeBlockKind, Event, HeadingLevel, Options, Parser, Tag, TagEnd};
use unicode_width::UnicodeWidthStr;

/// Renders `source` for the terminal.
pub fn render(source: &str) -> String {
    let mut out = Renderer::default();
    for event in Parser::new_ext(source, Options::ENABLE_TABLES) {
        out.event(event);
    }
    out.finish()
}

#[derive(Default)]
struct Renderer {
    out: String,
    /// The line being built (inline text is collected, then styled as a whole where needed).
    line: String,
    heading: Option<HeadingLevel>,
    strong: bool,
    emphasis: bool,
    code_block: bool,
    /// Open lists: the next number of each ordered one, `None` for bullets.
    lists: Vec<Option<u64>>,
    table: Option<Table>,
}

#[derive(Default)]
struct Table {
    rows: Vec<Vec<String>>,
    alignments: Vec<Alignment>,
    cell: String,
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
            Event::SoftBreak | Event::HardBreak if self.table.is_none() => {
                self.flush_line();
                self.indent_for_list_continuation();
            }
            Event::Rule => {
                self.flush_line();
                self.out.push_str(&format!("{}\n\n", "─".repeat(40).dimmed()));
            }
            _ => {}
        }
    }

    fn start(&mut self, tag: Tag) {
        match tag {
            Tag::Heading { level, .. } => {
                self.flush_line();
                self.heading = Some(level);
            }
            Tag::Strong => self.strong = true,
            Tag::Emphasis => self.emphasis = true,
            Tag::CodeBlock(kind) => {
                self.flush_line();
                self.code_block = true;
                if let CodeBlockKind::Fenced(lang) = kind {
                    if !lang.is_empty() {
                        self.out.push_str(&format!("    {}\n", lang.dimmed()));
                    }
                }
            }
            Tag::List(start) => {
                self.flush_line();
                self.lists.push(start);
            }
            Tag::Item => {
                self.flush_line();
                let depth = self.lists.len().saturating_sub(1);
                let marker = match self.lists.last_mut() {
                    Some(Some(n)) => {
                        *n += 1;
                        format!("{}.", *n - 1)
                    }
                    _ => "•".to_string(),
                };
                self.line.push_str(&format!("{}{marker} ", "  ".repeat(depth)));
            }
            Tag::Table(alignments) => {
                self.flush_line();
                self.table = Some(Table { alignments, ..Table::default() });
            }
            Tag::TableHead | Tag::TableRow => {
                if let Some(table) = &mut self.table {
                    table.rows.push(Vec::new());
                }
            }
            _ => {}
        }
    }

    fn end(&mut self, tag: TagEnd) {
        match tag {
            TagEnd::Heading(level) => {
                let text = std::mem::take(&mut self.line);
                let width = text.width();
                self.out.push_str(&format!("{}\n", text.bold()));
                if matches!(level, HeadingLevel::H1 | HeadingLevel::H2) {
                    self.out.push_str(&format!("{}\n", "─".repeat(width.max(1)).dimmed()));
                }
                self.out.push('\n');
                self.heading = None;
            }
            TagEnd::Strong => self.strong = false,
            TagEnd::Emphasis => self.emphasis = false,
            TagEnd::Paragraph => {
                self.flush_line();
                if self.lists.is_empty() {
                    self.out.push('\n');
                }
            }
            TagEnd::CodeBlock => {
                self.code_block = false;
                self.out.push('\n');
            }
            TagEnd::List(_) => {
                self.flush_line();
                self.lists.pop();
                if self.lists.is_empty() {
                    self.out.push('\n');
                }
            }
            TagEnd::Item => self.flush_line(),
            TagEnd::TableCell => {
                if let Some(table) = &mut self.table {
                    let cell = std::mem::take(&mut table.cell);
                    if let Some(row) = table.rows.last_mut() {
                        row.push(cell.trim().to_string());
                    }
                }
            }
            TagEnd::Table => {
                if let Some(table) = self.table.take() {
                    self.out.push_str(&render_table(&table));
                    self.out.push('\n');
                }
            }
            _ => {}
        }
    }

    fn text(&mut self, text: &str) {
        if self.code_block {
            for line in text.lines() {
                self.out.push_str(&format!("    {}\n", line.dimmed()));
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
        match &mut self.table {
            Some(table) => table.cell.push_str(text),
            None => self.line.push_str(text),
        }
    }

    fn flush_line(&mut self) {
        if !self.line.trim().is_empty() {
            self.out.push_str(self.line.trim_end());
            self.out.push('\n');
        }
        self.line.clear();
    }

    /// A wrapped line inside a list item lines up under the item's text.
    fn indent_for_list_continuation(&mut self) {
        if !self.lists.is_empty() {
            self.line.push_str(&"  ".repeat(self.lists.len()));
        }
    }

    fn finish(mut self) -> String {
        self.flush_line();
        self.out.trim_end().to_string() + "\n"
    }
}

/// A table with columns padded to their display width (a CJK character takes two columns).
fn render_table(table: &Table) -> String {
    let columns = table.rows.iter().map(Vec::len).max().unwrap_or(0);
    let widths: Vec<usize> = (0..columns)
        .map(|c| table.rows.iter().filter_map(|r| r.get(c)).map(|cell| visible_width(cell)).max().unwrap_or(0))
        .collect();
    let mut out = String::new();
    for (i, row) in table.rows.iter().enumerate() {
        let cells: Vec<String> = (0..columns)
            .map(|c| {
                let cell = row.get(c).map_or("", String::as_str);
                let pad = " ".repeat(widths[c].saturating_sub(visible_width(cell)));
                match table.alignments.get(c) {
                    Some(Alignment::Right) => format!("{pad}{cell}"),
                    _ => format!("{cell}{pad}"),
                }
            })
            .collect();
        let line = format!("  {}", cells.join(" │ ")).trim_end().to_string();
        if i == 0 {
            out.push_str(&format!("{}\n", line.bold()));
            let rule: Vec<String> = widths.iter().map(|&w| "─".repeat(w)).collect();
            out.push_str(&format!("  {}\n", rule.join("─┼─")));
        } else {
            out.push_str(&format!("{line}\n"));
        }
    }
    out
}

/// Display width without the colour codes a cell may hold.
fn visible_width(text: &str) -> usize {
    super::plain(text).width()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renders_structure_as_plain_text_without_markup() {
        colored::control::set_override(false);
        let shown = render(
            "## Why\n\nSome **bold** and `code`.\n\n```\nlet x = 1;\n```\n\n- one\n- two\n\n| 阶段 | why |\n|---|---|\n| 平方 | FP32 |\n",
        );
        assert!(shown.contains("Why\n───"), "{shown}");
        assert!(shown.contains("Some bold and `code`."), "{shown}");
        assert!(shown.contains("    let x = 1;"), "{shown}");
        assert!(shown.contains("• one\n• two"), "{shown}");
        assert!(!shown.contains("**") && !shown.contains("|---"), "{shown}");
        // CJK cells take two columns each: the separators line up.
        let rows: Vec<&str> = shown.lines().filter(|l| l.contains('│')).collect();
        assert_eq!(rows.len(), 2, "{shown}");
        let column = |line: &str| line[..line.find('│').unwrap()].width();
        assert_eq!(column(rows[0]), column(rows[1]), "{shown}");
    }
}
