//! `tutor watch` on a pseudo-terminal of 80×24 (issue 32, point 6), in Chinese, English and
//! both: every drawing fits the screen; a report taller than the room left keeps the header, the
//! summary and the keys on screen and shows a window with "… n more lines", which Space and `b`
//! page; the `l` list scrolls with its cursor, which never leaves the screen.

use crate::common;

use std::process::Command;
use std::time::Duration;

use common::pty::{Live, CLEAR};
use common::Course;
use unicode_width::UnicodeWidthStr;

const CHECK: Duration = Duration::from_secs(90);
const KEY: Duration = Duration::from_secs(20);
const COLUMNS: usize = 80;
const ROWS: usize = 24;

/// A course where 01-weight has passed and 02-norm holds a wrong answer whose report (a NaN, its
/// numbers and a named mistake) is taller than what 24 rows leave for it.
fn course(name: &str) -> Course {
    let course = Course::new(name);
    course.write_exercise("01-weight", &Course::solution("01-weight"));
    course.tutor(&["check", "01-weight"]).expect(0);
    let no_eps = std::fs::read_to_string(common::repo().join("tests/mistakes/rmsnorm/no-eps.rs")).unwrap();
    course.write_exercise("02-norm", &no_eps);
    course
}

/// `tutor watch` on a pseudo-terminal sized 80×24, in `lang`, no colour.
fn watch(course: &Course, lang: &str) -> Live {
    let script = format!(
        "stty cols {COLUMNS} rows {ROWS}; before=$(stty -g); '{}' watch; after=$(stty -g); [ \"$before\" = \"$after\" ] && echo TERMINAL-RESTORED || echo TERMINAL-CHANGED",
        env!("CARGO_BIN_EXE_tutor")
    );
    let mut command = Command::new("script");
    command
        .args(["-qfec", &script, "/dev/null"])
        .current_dir(&course.root)
        .env("TUTOR_LANG", lang)
        .env("NO_COLOR", "1")
        .env_remove("COLUMNS")
        .env_remove("LINES");
    Live::start(command)
}

/// The last drawing, as the screen shows it: what follows the last clear, escape sequences (the
/// cursor hidden) and carriage returns left out.
fn screen(output: &str) -> String {
    let last = output.rfind(CLEAR).map_or(output, |at| &output[at + CLEAR.len()..]);
    let mut shown = String::new();
    let mut chars = last.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\u{1b}' => {
                // CSI: ESC [ parameters, then a final letter.
                if chars.next_if_eq(&'[').is_some() {
                    while chars.next().is_some_and(|c| !c.is_ascii_alphabetic()) {}
                }
            }
            '\r' => {}
            c => shown.push(c),
        }
    }
    shown
}

/// Every line within 80 columns, and all of them within 24 rows.
#[track_caller]
fn fits(screen: &str) {
    fits_in(screen, COLUMNS, ROWS);
}

/// Every line within `columns`, and all of them within `rows`.
#[track_caller]
fn fits_in(screen: &str, columns: usize, rows: usize) {
    for line in screen.lines() {
        assert!(line.width() <= columns, "wider than {columns} columns: {line:?}\n{screen}");
    }
    let taken: usize = screen.lines().map(|l| l.width().div_ceil(columns).max(1)).sum();
    assert!(taken <= rows, "{taken} rows on a screen of {rows}:\n{screen}");
}

/// Waits for a drawing that holds `text` and ends with the keys (`quit`, in the language
/// shown), and returns it with where the output ends.
#[track_caller]
fn drawing_with(live: &mut Live, text: &str, quit: &str, from: usize, limit: Duration) -> (String, usize) {
    let at = live.wait_for(text, from, limit);
    let end = live.wait_for(quit, at, KEY);
    // The drawing's own last line: wait a moment for the rest of it.
    let end = live.collect_for(Duration::from_millis(300)).max(end);
    (screen(live.seen()), end)
}

#[track_caller]
fn quit(mut live: Live) {
    live.send("q");
    let (code, output) = live.finish(KEY);
    assert_eq!(code, 0, "{output}");
    assert!(output.contains("TERMINAL-RESTORED"), "{output}");
}

/// A tall report in `lang`: the header, the summary and the keys on screen; Space pages on, `b`
/// back, and `h` scrolls to the hint it adds under the report. The texts: the markers below and
/// above, the summary, the hint's heading and the key to quit.
fn a_tall_report_pages(lang: &str, [marker_below, marker_above, summary, hint, quit_key]: [&str; 5]) {
    let course = course(&format!("watch-80x24-{lang}"));
    let mut live = watch(&course, lang);
    let (first, at) = drawing_with(&mut live, summary, quit_key, 0, CHECK);
    fits(&first);
    assert!(first.lines().next().is_some_and(|l| l.contains("02-norm")), "the header first:\n{first}");
    assert!(first.contains(marker_below) && !first.contains(marker_above), "{first}");
    assert!(first.trim_end().ends_with(quit_key), "the keys last:\n{first}");

    live.send(" ");
    let (second, at) = drawing_with(&mut live, marker_above, quit_key, at, KEY);
    fits(&second);
    assert!(second.lines().next().is_some_and(|l| l.contains("02-norm")), "the header stays:\n{second}");
    assert!(second.contains(summary), "the summary stays:\n{second}");
    assert_ne!(first, second, "Space showed the next page");

    live.send("b");
    let (back, at) = drawing_with(&mut live, marker_below, quit_key, at, KEY);
    fits(&back);
    assert!(!back.contains(marker_above), "b went back to the top:\n{back}");

    // A hint asked for under the cut report is scrolled to, the summary and keys still shown.
    live.send("h");
    let (hinted, _) = drawing_with(&mut live, hint, quit_key, at, KEY);
    fits(&hinted);
    assert!(hinted.contains(marker_above) && hinted.contains(summary), "{hinted}");
    quit(live);
}

#[test]
fn a_tall_report_keeps_its_header_summary_and_keys_on_screen_in_english() {
    let below = "more line(s) · Space or PgDn: next page";
    a_tall_report_pages("en", [below, "line(s) above · b or PgUp: back", "cases pass", "Hint 3/3 · 02-norm", "q quit"]);
}

#[test]
fn a_tall_report_keeps_its_header_summary_and_keys_on_screen_in_chinese() {
    a_tall_report_pages("zh", ["行 · 空格或 PgDn：下一页", "上面还有", "个用例通过", "提示 3/3 · 02-norm", "q 退出"]);
}

#[test]
fn the_list_scrolls_with_its_cursor_in_both_languages() {
    let course = course("watch-80x24-list");
    let mut live = watch(&course, "both");
    let (_, mut at) = drawing_with(&mut live, "cases pass", "q quit", 0, CHECK);
    live.send("l");
    let keys = "Esc/q back";
    let (list, next) = drawing_with(&mut live, "↓", keys, at, KEY);
    at = next;
    fits(&list);
    assert!(list.lines().any(|l| l.starts_with(">✗ 02-norm")), "the cursor on the watched exercise:\n{list}");
    let count = common::total_exercises();
    // Down to the last exercise and back up to the first: the cursor always on screen.
    for step in 0..(count - 2) + (count - 1) {
        let key = if step < count - 2 { "j" } else { "k" };
        live.send(key);
        live.wait_for(keys, at, KEY);
        at = live.collect_for(Duration::from_millis(150));
        let shown = screen(live.seen());
        fits(&shown);
        assert!(shown.lines().any(|l| l.starts_with('>')), "the cursor left the screen after {step} moves:\n{shown}");
        assert!(shown.contains(keys), "the keys left the screen:\n{shown}");
        if step == count - 3 {
            // At the last exercise: the list's end is on screen.
            assert!(shown.contains("more line(s) above") && !shown.contains("more line(s) below"), "{shown}");
        }
    }
    let top = screen(live.seen());
    assert!(top.lines().any(|l| l.starts_with(">✓ 01-weight")), "back at the first one:\n{top}");
    assert!(!top.contains("more line(s) above"), "{top}");
    // A page down moves the cursor by what the screen holds, End and Home to the ends: the
    // cursor on screen each time.
    let mut press = |key: &str, at: usize| {
        live.send(key);
        live.wait_for(keys, at, KEY);
        let next = live.collect_for(Duration::from_millis(150));
        let shown = screen(live.seen());
        fits(&shown);
        let cursor = shown.lines().find(|l| l.starts_with('>')).unwrap_or_else(|| panic!("no cursor:\n{shown}"));
        (cursor.to_string(), next)
    };
    let (cursor, at) = press("\u{1b}[6~", at);
    let paged = ["01-weight", "02-norm", "06-backward"];
    assert!(!paged.iter().any(|id| cursor.contains(id)), "a page down, not to the end: {cursor}");
    let (cursor, at) = press("\u{1b}[H", at);
    assert!(cursor.contains("01-weight"), "Home: {cursor}");
    let (cursor, at) = press("\u{1b}[F", at);
    assert!(cursor.contains("06-backward"), "End: {cursor}");
    live.send("\u{1b}");
    live.wait_for("q quit", at, KEY);
    quit(live);
}

#[test]
fn a_terminal_made_smaller_is_drawn_again_to_fit() {
    let course = course("watch-80x24-resize");
    let mut live = watch(&course, "en");
    let (first, at) = drawing_with(&mut live, "cases pass", "q quit", 0, CHECK);
    fits(&first);
    // tutor's terminal, found by process id: the one of the script's descendants that runs tutor.
    let tutor = std::path::Path::new(env!("CARGO_BIN_EXE_tutor"));
    let pid = common::pty::descendants(live.pid())
        .into_iter()
        .map(|(pid, _)| pid)
        .find(|pid| std::fs::read_link(format!("/proc/{pid}/exe")).is_ok_and(|exe| exe == tutor))
        .expect("tutor runs under script");
    let terminal = std::fs::read_link(format!("/proc/{pid}/fd/0")).unwrap();
    // A smaller window: the kernel tells the terminal's foreground, tutor, with SIGWINCH.
    let resized = Command::new("stty").arg("-F").arg(&terminal).args(["cols", "60", "rows", "20"]).status();
    assert!(resized.unwrap().success());
    let (smaller, _) = drawing_with(&mut live, "cases pass", "q quit", at, KEY);
    fits_in(&smaller, 60, 20);
    assert!(smaller.lines().next().is_some_and(|l| l.contains("02-norm")), "the header first:\n{smaller}");
    assert!(smaller.trim_end().ends_with("q quit"), "the keys last:\n{smaller}");
    quit(live);
}
