//! Text that fits the terminal, through the built binary on a real pseudo-terminal of a given
//! size: every lesson of every course (overviews included) fits 80 columns in zh, en and both;
//! every hint fits 60; one mistake fits 40 rows at 80 columns in each language, and a check
//! that ran out of time fits 25. Widths are display columns (unicode-width: CJK takes two).

use crate::common;

use std::path::Path;
use std::process::Command;
use std::time::Duration;

use common::fixtures::{Fixture, HOSTILE, MISTAKES};
use common::pty::Live;
use common::Course;
use unicode_width::UnicodeWidthStr;

const LANGUAGES: [&str; 3] = ["zh", "en", "both"];

/// `tutor ARGS` on a pseudo-terminal `columns` wide and `rows` tall, in `lang`, no colour, long
/// text paged through `cat` (so that the text a pager gets is what is measured). Returns the
/// exit code and the output as the screen shows it (see [`as_shown`]).
fn on_a_terminal(dir: &Path, args: &str, lang: &str, columns: usize, rows: usize) -> (i32, String) {
    let script = format!("stty cols {columns} rows {rows}; exec '{}' {args}", env!("CARGO_BIN_EXE_tutor"));
    let mut command = Command::new("script");
    command
        .args(["-qfec", &script, "/dev/null"])
        .current_dir(dir)
        .env("TUTOR_LANG", lang)
        .env("NO_COLOR", "1")
        .env("PAGER", "cat")
        .env_remove("COLUMNS");
    let (code, output) = Live::start(command).finish(Duration::from_secs(120));
    (code, as_shown(&output))
}

/// Terminal output as its lines end up on the screen: after a carriage return, what follows
/// writes over the line from its start (a progress line is blanked that way).
fn as_shown(raw: &str) -> String {
    let mut screen = Vec::new();
    for line in raw.split('\n') {
        // Display cells; a wide character's second cell is `None`.
        let mut cells: Vec<Option<char>> = Vec::new();
        for part in line.split('\r') {
            let mut at = 0;
            for c in part.chars() {
                let width = unicode_width::UnicodeWidthChar::width(c).unwrap_or(0);
                let spots = std::iter::once(Some(c)).chain(std::iter::repeat_n(None, width.saturating_sub(1)));
                for (i, cell) in spots.enumerate().take(width.max(1)) {
                    match cells.get_mut(at + i) {
                        Some(slot) => *slot = cell,
                        None => cells.push(cell),
                    }
                }
                at += width.max(1);
            }
        }
        screen.push(cells.into_iter().flatten().collect::<String>().trim_end().to_string());
    }
    screen.join("\n")
}

/// The widest line of `text`, with its width.
fn widest(text: &str) -> (usize, &str) {
    text.lines().map(|l| (l.width(), l)).max_by_key(|(w, _)| *w).unwrap_or((0, ""))
}

/// Terminal rows `text` takes at `columns` (a longer line wraps on the terminal).
fn rows(text: &str, columns: usize) -> usize {
    text.trim_end().lines().map(|l| l.width().div_ceil(columns).max(1)).sum()
}

#[test]
fn every_lesson_fits_80_columns_in_every_language() {
    let course = Course::cold("widths-lessons");
    let mut names: Vec<String> = common::courses();
    for course in common::courses() {
        names.extend(common::exercises_of(&course).into_iter().map(|(id, _)| format!("{course}/{id}")));
    }
    let mut paged = 0;
    for name in &names {
        for lang in LANGUAGES {
            let (code, shown) = on_a_terminal(&course.root, &format!("lesson {name}"), lang, 80, 24);
            assert_eq!(code, 0, "lesson {name} --lang {lang}:\n{shown}");
            // Taller than the screen, it went through the pager (wrapped before it).
            paged += usize::from(rows(&shown, 80) > 24);
            let (width, line) = widest(&shown);
            assert!(width <= 80, "lesson {name}, --lang {lang}: {width} columns: {line:?}");
        }
    }
    assert!(paged > 0, "no lesson went through the pager");
}

#[test]
fn every_hint_fits_60_columns_in_every_language() {
    let course = Course::cold("widths-hints");
    let every: Vec<String> = common::courses()
        .iter()
        .flat_map(|course| common::exercises_of(course).into_iter().map(move |(id, _)| format!("{course}/{id}")))
        .collect();
    for id in every {
        for lang in LANGUAGES {
            let (code, shown) = on_a_terminal(&course.root, &format!("hint {id} --all"), lang, 60, 40);
            assert_eq!(code, 0, "hint {id} --lang {lang}:\n{shown}");
            assert!(shown.contains("3/"), "the hints are shown: {shown}");
            let (width, line) = widest(&shown);
            assert!(width <= 60, "hints of {id}, --lang {lang}: {width} columns: {line:?}");
        }
    }
}

/// `tutor check` of a fixture file at 80 columns, in each language: (language, output).
fn check_fixture(course: &Course, fixture: &Fixture, extra: &str) -> Vec<(&'static str, String)> {
    let exercise = fixture.header("exercise").expect("an `//! exercise:` line");
    course.write_exercise(exercise, fixture.source);
    LANGUAGES
        .iter()
        .map(|&lang| {
            let (code, shown) = on_a_terminal(&course.root, &format!("check {exercise} {extra}"), lang, 80, 40);
            assert_eq!(code, 1, "{}, --lang {lang}:\n{shown}", fixture.name);
            (lang, shown)
        })
        .collect()
}

fn fixture(list: &'static [Fixture], name: &str) -> &'static Fixture {
    list.iter().find(|f| f.name == name).unwrap_or_else(|| panic!("no fixture {name}"))
}

#[test]
fn one_mistake_fits_40_rows_at_80_columns_in_every_language() {
    let course = Course::new("widths-mistakes");
    for name in ["sum-not-mean", "eps-outside-sqrt", "double-rounding", "rounds-toward-zero-bits", "weight-ignored"] {
        for (lang, shown) in check_fixture(&course, fixture(MISTAKES, name), "") {
            let rows = rows(&shown, 80);
            assert!(rows <= 40, "{name}, --lang {lang}: {rows} rows at 80 columns\n{shown}");
            let named = if lang == "en" { "This looks like a known mistake" } else { "这像是一个常见错误" };
            assert!(shown.contains(named), "{name}, --lang {lang}: the mistake is named\n{shown}");
        }
    }
    // The failure shown in full is the one that shows the named mistake: eps outside the root
    // shows the case about eps, not the first failure (the statistics' axis).
    let shown = &check_fixture(&course, fixture(MISTAKES, "eps-outside-sqrt"), "")[1].1;
    assert!(shown.contains("✗ FAIL eps inside the square root"), "{shown}");
    assert!(!shown.contains("✗ FAIL statistics along the last axis"), "{shown}");
}

#[test]
fn a_check_out_of_time_fits_25_rows_with_its_not_run_cases_on_one_line() {
    let course = Course::new("widths-timeout");
    let endless = fixture(HOSTILE, "endless-loop");
    for (lang, shown) in check_fixture(&course, endless, "--timeout 2") {
        let rows = rows(&shown, 80);
        assert!(rows <= 25, "--lang {lang}: {rows} rows at 80 columns\n{shown}");
        let not_run = if lang == "en" { "not run: an earlier case used up the time limit" } else { "未运行" };
        assert_eq!(shown.matches(not_run).count(), 1, "--lang {lang}: the cases not run, on one line\n{shown}");
    }
}

#[test]
fn the_list_and_a_passing_check_with_its_next_step_fit_60_columns() {
    let course = Course::new("widths-list");
    course.write_exercise("01-weight", &Course::solution("01-weight"));
    for lang in LANGUAGES {
        let (code, shown) = on_a_terminal(&course.root, "check 01-weight", lang, 60, 40);
        assert_eq!(code, 0, "--lang {lang}:\n{shown}");
        let next = if lang == "zh" { "下一个练习" } else { "Next up" };
        assert!(shown.contains(next), "--lang {lang}: the next step is shown\n{shown}");
        let (code, listed) = on_a_terminal(&course.root, "list", lang, 60, 40);
        assert_eq!(code, 0, "--lang {lang}:\n{listed}");
        for text in [&shown, &listed] {
            let (width, line) = widest(text);
            assert!(width <= 60, "--lang {lang}: {width} columns: {line:?}\n{text}");
        }
    }
}
