//! A window on lines taller than the room left for them on the terminal: the watch's report and
//! its list keep their header, summary and keys on screen and show only the lines that fit, with
//! a marker above ("n lines above") and below ("n more lines") where lines are left out.

use super::wrap;

/// The terminal's rows when stdout is one (else `LINES`); `None` when neither says, and then
/// nothing is cut.
pub fn terminal_rows() -> Option<usize> {
    use std::io::IsTerminal;
    let terminal = || crossterm::terminal::size().ok().map(|(_, rows)| usize::from(rows));
    let from_terminal = if std::io::stdout().is_terminal() { terminal() } else { None };
    let from_env = || std::env::var("LINES").ok()?.trim().parse::<usize>().ok();
    // A pseudo-terminal nobody sized says 0.
    from_terminal.filter(|&r| r > 0).or_else(|| from_env().filter(|&r| r > 0))
}

/// The terminal rows `text` takes at `columns`: each line at least one, a longer one as many as
/// the terminal wraps it into.
pub fn rows_of(text: &str, columns: usize) -> usize {
    text.split('\n').map(|line| line_rows(line, columns)).sum()
}

fn line_rows(line: &str, columns: usize) -> usize {
    wrap::width(line).div_ceil(columns.max(1)).max(1)
}

/// Which of a text's lines a window shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Window {
    /// The first line shown.
    pub first: usize,
    /// One past the last line shown.
    pub end: usize,
    /// Lines in all.
    pub total: usize,
}

impl Window {
    /// The lines from `first` (moved back as far as needed for the window to be full, or to 0)
    /// that fit in `room` rows at `columns`, a row kept for each marker needed: one above when
    /// lines are left out above, one below when lines are left out below.
    pub fn fit(lines: &[&str], room: usize, first: usize, columns: usize) -> Window {
        let total = lines.len();
        let rows: Vec<usize> = lines.iter().map(|l| line_rows(l, columns)).collect();
        let room = room.max(1);
        if rows.iter().sum::<usize>() <= room {
            return Window { first: 0, end: total, total };
        }
        // The latest start that still fills the window: the tail that fits below a top marker.
        let mut last_start = total;
        let mut used = 0;
        while last_start > 0 && used + rows[last_start - 1] <= room.saturating_sub(1) {
            used += rows[last_start - 1];
            last_start -= 1;
        }
        let first = first.min(last_start);
        let mut left = room - usize::from(first > 0);
        let mut end = first;
        while end < total && rows[end] <= left {
            // The last line to fit leaves a row for the bottom marker, unless it is the last.
            let after = left - rows[end];
            if end + 1 < total && after == 0 {
                break;
            }
            left = after;
            end += 1;
        }
        // A single line taller than the window is shown anyway (cut by the terminal).
        let end = end.max((first + 1).min(total));
        Window { first, end, total }
    }

    /// Lines left out above.
    pub fn above(&self) -> usize {
        self.first
    }

    /// Lines left out below.
    pub fn below(&self) -> usize {
        self.total - self.end
    }

    /// The first line of the next page (what is shown now scrolls off, less one line of context).
    pub fn next_page(&self) -> usize {
        if self.below() == 0 {
            return self.first;
        }
        (self.end.saturating_sub(1)).max(self.first + 1)
    }

    /// The first line of the page before.
    pub fn previous_page(&self) -> usize {
        let shown = self.end - self.first;
        self.first.saturating_sub(shown.saturating_sub(1).max(1))
    }

    /// The window that shows lines `from..to` whole (the list's cursor), scrolled as little as
    /// possible from one starting at `first`, with `context` lines above them where there are
    /// (a chapter's heading).
    pub fn showing(
        lines: &[&str],
        room: usize,
        first: usize,
        (from, to): (usize, usize),
        context: usize,
        columns: usize,
    ) -> Window {
        let mut start = if from.saturating_sub(context) < first { from.saturating_sub(context) } else { first };
        loop {
            let window = Window::fit(lines, room, start, columns);
            if window.end >= to || window.first >= from || start >= lines.len() {
                return window;
            }
            start += 1;
        }
    }
}

/// The window's lines, joined, with a marker line (`marker(n, above)`, `above` true for the one
/// on top) where lines are left out above and below.
pub fn shown(lines: &[&str], window: &Window, marker: impl Fn(usize, bool) -> String) -> String {
    let mut out = Vec::new();
    if window.above() > 0 {
        out.push(marker(window.above(), true));
    }
    out.extend(lines[window.first..window.end].iter().map(|l| l.to_string()));
    if window.below() > 0 {
        out.push(marker(window.below(), false));
    }
    out.join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(n: usize) -> Vec<String> {
        (0..n).map(|i| format!("line {i}")).collect()
    }

    fn refs(lines: &[String]) -> Vec<&str> {
        lines.iter().map(String::as_str).collect()
    }

    #[test]
    fn lines_that_fit_are_all_shown() {
        let all = lines(5);
        assert_eq!(Window::fit(&refs(&all), 5, 3, 80), Window { first: 0, end: 5, total: 5 });
    }

    #[test]
    fn a_window_leaves_rows_for_its_markers_and_pages() {
        let all = lines(20);
        let top = Window::fit(&refs(&all), 6, 0, 80);
        // Five lines and the bottom marker.
        assert_eq!((top.first, top.end, top.above(), top.below()), (0, 5, 0, 15));
        let next = Window::fit(&refs(&all), 6, top.next_page(), 80);
        // The top marker, four lines, the bottom marker; one line of context kept.
        assert_eq!((next.first, next.end), (4, 8));
        assert_eq!(Window::fit(&refs(&all), 6, next.previous_page(), 80).first, 1);
        // The last page is full: the top marker and five lines.
        let last = Window::fit(&refs(&all), 6, 99, 80);
        assert_eq!((last.first, last.end, last.below()), (15, 20, 0));
        assert_eq!(last.next_page(), 15);
    }

    #[test]
    fn wrapped_lines_count_their_rows() {
        let long = "x".repeat(170);
        let all = vec![long.as_str(), "a", "b", "c"];
        assert_eq!(rows_of(&long, 80), 3);
        assert_eq!(rows_of("a\n\nb", 80), 3);
        let window = Window::fit(&all, 4, 0, 80);
        assert_eq!((window.first, window.end), (0, 1), "three rows and the marker");
    }

    #[test]
    fn following_a_cursor_scrolls_as_little_as_possible() {
        let all = lines(30);
        let all = refs(&all);
        let show = |first, cursor: (usize, usize)| Window::showing(&all, 10, first, cursor, 3, 80);
        assert_eq!(show(0, (2, 4)).first, 0, "on screen: no scroll");
        let down = show(0, (12, 14));
        assert!(down.first <= 12 && down.end >= 14, "{down:?}");
        assert_eq!(down.end, 14, "scrolled only as far as needed: {down:?}");
        assert_eq!(show(down.first, (down.first + 3, down.first + 5)), down, "still on screen");
        assert_eq!(show(down.first, (down.first + 1, down.first + 3)).first, down.first - 2, "its context too");
        let up = show(down.first, (down.first - 1, down.first + 1));
        assert_eq!(up.first, down.first - 4, "scrolling up keeps three lines of context");
        assert_eq!(show(20, (0, 2)).first, 0);
    }
}
