//! A markdown table for the terminal: columns padded to their display width when the table fits
//! the width, else laid out as a list (one entry per row, each cell under its column's name), so
//! that nothing runs past the terminal's edge.

use colored::Colorize;
use pulldown_cmark::Alignment;
use unicode_width::UnicodeWidthChar;

use super::wrap;

/// A table's rows (the header first) as the renderer collects them.
pub struct Table {
    rows: Vec<Vec<String>>,
    alignments: Vec<Alignment>,
    cell: String,
}

/// What is drawn left of a row, and between two cells.
const LEFT: &str = "  ";
const BETWEEN: &str = " │ ";

impl Table {
    /// An empty table with the columns' alignments.
    pub fn new(alignments: Vec<Alignment>) -> Table {
        Table { rows: Vec::new(), alignments, cell: String::new() }
    }

    /// Starts the header or the next row.
    pub fn start_row(&mut self) {
        self.rows.push(Vec::new());
    }

    /// Adds text to the cell being read.
    pub fn push(&mut self, text: &str) {
        self.cell.push_str(text);
    }

    /// Ends the cell being read.
    pub fn end_cell(&mut self) {
        let cell = std::mem::take(&mut self.cell);
        if let Some(row) = self.rows.last_mut() {
            row.push(cell.trim().to_string());
        }
    }

    /// The table at `columns`: as a table when it fits, else as a list.
    pub fn render(&self, columns: usize) -> String {
        let widths = self.widths();
        let natural =
            wrap::width(LEFT) + widths.iter().sum::<usize>() + wrap::width(BETWEEN) * widths.len().saturating_sub(1);
        if natural <= columns {
            self.as_table(&widths)
        } else {
            self.as_list(columns)
        }
    }

    fn widths(&self) -> Vec<usize> {
        let columns = self.rows.iter().map(Vec::len).max().unwrap_or(0);
        (0..columns)
            .map(|c| self.rows.iter().filter_map(|r| r.get(c)).map(|cell| wrap::width(cell)).max().unwrap_or(0))
            .collect()
    }

    fn as_table(&self, widths: &[usize]) -> String {
        let mut out = String::new();
        for (i, row) in self.rows.iter().enumerate() {
            let cells: Vec<String> = widths
                .iter()
                .enumerate()
                .map(|(c, &w)| {
                    let cell = row.get(c).map_or("", String::as_str);
                    let pad = " ".repeat(w.saturating_sub(wrap::width(cell)));
                    match self.alignments.get(c) {
                        Some(Alignment::Right) => format!("{pad}{cell}"),
                        _ => format!("{cell}{pad}"),
                    }
                })
                .collect();
            let line = format!("{LEFT}{}", cells.join(BETWEEN)).trim_end().to_string();
            if i == 0 {
                out.push_str(&format!("{}\n", line.bold()));
                let rule: Vec<String> = widths.iter().map(|&w| "─".repeat(w)).collect();
                out.push_str(&format!("{LEFT}{}\n", rule.join("─┼─")));
            } else {
                out.push_str(&format!("{line}\n"));
            }
        }
        out
    }

    /// Each row as an entry: its first cell after a bullet, then every other cell after its
    /// column's name, wrapped under the entry.
    fn as_list(&self, columns: usize) -> String {
        let Some((header, body)) = self.rows.split_first() else { return String::new() };
        // A Chinese table's names take a Chinese colon.
        let chinese = header.iter().any(|h| super::plain(h).chars().any(|c| c.width() == Some(2)));
        let colon = if chinese { "：" } else { ": " };
        let mut out = String::new();
        for row in body {
            let first = row.first().map_or("", String::as_str);
            out.push_str(&format!("{}\n", wrap::wrap(first, "• ", "  ", columns).bold()));
            for (name, cell) in header.iter().zip(row).skip(1) {
                if cell.is_empty() {
                    continue;
                }
                let name = super::plain(name);
                let entry = format!("{}{colon}{cell}", name.dimmed());
                out.push_str(&format!("{}\n", wrap::wrap(&entry, "  ", "    ", columns)));
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table(rows: &[&[&str]]) -> Table {
        let mut table = Table::new(vec![Alignment::None; rows[0].len()]);
        for row in rows {
            table.start_row();
            for cell in *row {
                table.push(cell);
                table.end_cell();
            }
        }
        table
    }

    #[test]
    fn a_table_that_fits_lines_up_its_columns() {
        colored::control::set_override(false);
        let shown = table(&[&["阶段", "why"], &["平方", "FP32"]]).render(80);
        // CJK cells take two columns each: the separators line up.
        let rows: Vec<&str> = shown.lines().filter(|l| l.contains('│')).collect();
        assert_eq!(rows.len(), 2, "{shown}");
        let column = |line: &str| wrap::width(&line[..line.find('│').unwrap()]);
        assert_eq!(column(rows[0]), column(rows[1]), "{shown}");
    }

    #[test]
    fn a_table_too_wide_becomes_a_list_that_fits() {
        colored::control::set_override(false);
        let long = "a long explanation of why this stage is computed the way it is, in many words";
        let shown = table(&[&["stage", "dtype", "why"], &["square", "FP32", long], &["round", "T", "once"]]).render(40);
        for line in shown.lines() {
            assert!(wrap::width(line) <= 40, "{line:?}\n{shown}");
        }
        assert!(shown.starts_with("• square\n  dtype: FP32\n  why: a long"), "{shown}");
        assert!(shown.contains("\n• round\n  dtype: T\n  why: once"), "{shown}");
        let chinese = table(&[&["阶段", "原因"], &["平方", long]]).render(30);
        assert!(chinese.contains("  原因：a long"), "{chinese}");
    }
}
