//! What a failed check looks like, through the built binary: one mistake fits a screen of 40
//! rows at 80 columns in every language setting, text wraps to the width without splitting a
//! word, compile errors get the course's notes, suggested commands match how tutor was started,
//! and `--lang zh` shows no English of tutor's own.

use crate::common;

use tutor_courses::rmsnorm as rmsnorm_grade;

use common::fixtures::MISTAKES;
use common::{Course, Run};
use unicode_width::UnicodeWidthStr;

/// The wrong solution of `tests/mistakes/` called `name`, and the exercise it is checked as.
fn mistake(name: &str) -> (&'static str, &'static str) {
    let fixture = MISTAKES.iter().find(|f| f.name == name).unwrap_or_else(|| panic!("no mistake file {name}"));
    (fixture.header("exercise").expect("an `//! exercise:` line"), fixture.source)
}

/// `tutor check EXERCISE` on the mistake file `name`, in `lang`, at `columns`.
fn check(course: &Course, name: &str, lang: &str, columns: usize, extra: &[&str]) -> Run {
    let (exercise, source) = mistake(name);
    course.write_exercise(exercise, source);
    let mut args = vec!["check", exercise];
    args.extend_from_slice(extra);
    let run = course.tutor_with(&args, |c| {
        c.env("TUTOR_LANG", lang).env("COLUMNS", columns.to_string());
    });
    run.expect(1);
    run
}

/// Terminal rows the text takes at `columns` (a longer line wraps on the terminal).
fn rows(text: &str, columns: usize) -> usize {
    text.lines().map(|l| l.width().div_ceil(columns).max(1)).sum()
}

#[test]
fn one_mistake_fits_a_screen_in_every_language() {
    let course = Course::new("report-screen");
    for (name, exercise) in [("sum-not-mean", "02-norm"), ("layernorm", "02-norm"), ("weight-ignored", "03-forward")] {
        for lang in ["zh", "en", "both"] {
            let run = check(&course, name, lang, 80, &[]);
            let rows = rows(&run.stdout, 80);
            assert!(rows <= 40, "{name}, --lang {lang}: {rows} rows at 80 columns\n{}", run.stdout);
            // The named mistake once, with its hint; the summary last, with what to run next.
            let named = if lang == "en" { "This looks like a known mistake" } else { "这像是一个常见错误" };
            assert_eq!(run.stdout.matches(named).count(), 1, "{name}, {lang}:\n{}", run.stdout);
            run.shows(&format!("`tutor hint {exercise} --level"));
            let last = run.stdout.lines().last().unwrap_or_default();
            assert!(last.contains(&format!("`tutor hint {exercise}`")), "{name}, {lang}: last line {last:?}");
        }
    }
    // English: the first failure in full, the others on a line each, passing cases counted (the
    // cases of TODO 2 only: what `tutor check 02-norm` runs).
    let run = check(&course, "sum-not-mean", "en", 80, &[]);
    run.shows("✗ Numeric contract · 2/12")
        .shows("✗ FAIL tutorial case")
        .shows("Mismatched elements: 2 / 4 (50.0%)")
        .shows("(0, 0, 0)           0.8485281            0.6  ←")
        .shows("greatest difference")
        .hides("✓ pass");
    assert!(run.stdout.trim_end().ends_with("cases pass · next: `tutor hint 02-norm`"), "{}", run.stdout);
    // --verbose: every case in full, and the seed that repeats the run.
    let verbose = check(&course, "sum-not-mean", "en", 1000, &["--verbose"]);
    verbose.shows("✓ pass").shows("Random inputs from seed");
    let own: Vec<_> = rmsnorm_grade::cases::all().into_iter().filter(|case| case.belongs_to(2)).collect();
    assert_eq!(own.len(), 12, "the cases of TODO 2");
    for case in own {
        let title = case.title();
        verbose.shows(title.en.split(['(', '[']).next().unwrap_or(title.en).trim_end());
    }
    assert!(rows(&verbose.stdout, 80) > rows(&run.stdout, 80), "--verbose shows more than the report");
}

/// Whether an over-long line is one the wrapping may not break: a row of a side-by-side table, or
/// a single unbreakable token (a path, a `code span`).
fn unbreakable(line: &str) -> bool {
    let trimmed = line.trim();
    let table_row = trimmed.starts_with('(') && trimmed.split_whitespace().count() >= 3;
    let table_head = ["index", "索引"].iter().any(|h| trimmed.starts_with(h));
    let outside_code: String = trimmed.split('`').step_by(2).collect();
    table_row || table_head || !outside_code.trim().contains(' ')
}

#[test]
fn at_40_columns_lines_fit_and_no_word_is_split() {
    let course = Course::new("report-narrow");
    for lang in ["en", "zh", "both"] {
        let run = check(&course, "sum-not-mean", lang, 40, &[]);
        for line in run.stdout.lines().filter(|l| l.width() > 40) {
            assert!(unbreakable(line), "--lang {lang}: {line:?} is {} columns wide\n{}", line.width(), run.stdout);
        }
    }
    // Every word of the sentences shown whole is whole on some line.
    let run = check(&course, "sum-not-mean", "en", 40, &[]);
    let bare = |word: &str| word.trim_end_matches(['.', ',', ':', ';']).to_string();
    let words: Vec<String> = run.stdout.split_whitespace().map(bare).collect();
    let mistake = rmsnorm_grade::mistakes::find("sum-not-mean").expect("a known mistake");
    let first_case =
        rmsnorm_grade::cases::all().into_iter().find(|c| c.id == "tutorial-case").expect("the tutorial case");
    for sentence in [mistake.en, first_case.en, "norm(x) differs from the reference"] {
        for word in sentence.split_whitespace() {
            assert!(words.contains(&bare(word)), "{word:?} of {sentence:?} is split or missing:\n{}", run.stdout);
        }
    }
    run.shows("`tutor hint 02-norm --level 2`");
}

/// `stub` of `exercise` with `line` written where its TODO is.
fn broken(exercise: &str, line: &str) -> String {
    let stub = Course::stub(exercise);
    let todo = stub.find("todo!(").expect("the stub has a todo!");
    format!("{}{line}\n        {}", &stub[..todo], &stub[todo..])
}

#[test]
fn compile_errors_get_the_courses_notes_in_both_languages() {
    let course = Course::new("report-compile");
    let cases = [
        ("let _half = x.mapv(|v| v / 2.0f32);", "expected type parameter `T`, found `f32`", "`to_f32()`", "`Div<f32>`"),
        ("let _twice = x.mapv(|v| 2.0f32 * v);", "cannot multiply `f32` by `T`", "`to_f32()`", "走错了"),
        ("let _last = Axis(0);", "Axis", "use ndarray::Axis;", "没有导入"),
        ("let _row: Array1<f32> = Array1::zeros(3);", "Array1", "use ndarray::Array1;", "没有导入"),
        ("let _y: ArrayD<f32> = vec![1.0f32];", "Vec<", "ArrayD::from_shape_vec", "直接构造数组"),
    ];
    for (line, rustc_says, note, zh_note) in cases {
        course.write_exercise("02-norm", &broken("02-norm", line));
        let run = course.tutor_with(&["check", "02-norm"], |c| {
            c.env("TUTOR_LANG", "both");
        });
        run.expect(1).shows("does not compile").shows(rustc_says).shows(note).shows(zh_note).shows("课程提示");
        assert_eq!(run.stdout.matches("Course note").count(), 1, "one note for {line:?}:\n{}", run.stdout);
    }
}

#[test]
fn suggested_commands_match_how_tutor_was_started() {
    let course = Course::new("report-launcher");
    // Installed: `tutor …`, even with the variables a test harness passes on.
    let installed = course.tutor_with(&[], |c| {
        c.env_remove("CARGO_MANIFEST_DIR").env_remove("CARGO_PKG_NAME").env_remove("CARGO");
    });
    installed.expect(0).shows("`tutor check 01-weight`").hides("cargo run");
    course.tutor(&[]).expect(0).shows("`tutor check 01-weight`").hides("cargo run");
    // `cargo run` in a clone: cargo sets these for the program it runs, and the learner is in it.
    let root = course.root.to_string_lossy().into_owned();
    let cargo_run = |args: &[&str], lang: &str| {
        course.tutor_with(args, |c| {
            c.env("CARGO_MANIFEST_DIR", &root).env("CARGO_PKG_NAME", "tutor").env("CARGO", "cargo");
            c.env("TUTOR_LANG", lang);
        })
    };
    cargo_run(&[], "en").expect(0).shows("`cargo run -- check 01-weight`").hides("`tutor ");
    cargo_run(&[], "zh").expect(0).shows("`cargo run -- check 01-weight`").hides("`tutor ");
    cargo_run(&["check", "nrom"], "both").expect(2).shows("`cargo run -- list`").hides("`tutor ");
    course.write_exercise("02-norm", mistake("sum-not-mean").1);
    cargo_run(&["check", "02"], "both")
        .expect(1)
        .shows("next: `cargo run -- hint 02-norm`")
        .shows("下一步：`cargo run -- hint 02-norm`")
        .shows("`cargo run -- hint 02-norm --level 2`")
        .hides("`tutor ");
    // The course's own text (lessons, hints) follows too.
    cargo_run(&["lesson", "01"], "en").expect(0).shows("`cargo run -- check 01-weight`").hides("`tutor ");
    course.tutor(&["lesson", "01"]).expect(0).shows("`tutor check 01-weight`");
}

/// Words of four letters or more that may stand in Chinese output: code a learner types or reads
/// in the exercise (function, type and parameter names), tool names, and proper names.
const ALLOWED_IN_CHINESE: &[&str] = &[
    // The exercise's code.
    "norm",
    "forward",
    "backward",
    "weight",
    "Param",
    "None",
    "Some",
    "false",
    "true",
    "sqrt",
    "TODO",
    "panic",
    "dtype",
    "rtol",
    "atol",
    // Layers and tools by name.
    "LayerNorm",
    "RMSNorm",
    "tutor",
    "cargo",
    "rustc",
    // Proper names in the rounding lesson.
    "Meta",
    "LLaMA",
    "Hugging",
    "Face",
];

/// The English words of tutor's own text in Chinese output: ASCII words of four letters or more,
/// leaving out `code spans`, paths and identifiers (words with `_`, `.`, `:`, `/` or a digit).
fn english_words(output: &str) -> Vec<String> {
    let prose: String = output.split('`').step_by(2).collect::<Vec<_>>().join(" ");
    prose
        .split(|c: char| !(c.is_ascii_alphanumeric() || "_.:/<>".contains(c)))
        .filter(|token| !token.contains(['_', '.', ':', '/']) && !token.contains(|c: char| c.is_ascii_digit()))
        .flat_map(|token| token.split(['<', '>']))
        .filter(|word| word.len() >= 4 && word.chars().all(|c| c.is_ascii_alphabetic()))
        .filter(|word| !ALLOWED_IN_CHINESE.contains(word))
        .map(str::to_string)
        .collect()
}

#[test]
fn chinese_output_holds_no_english_of_tutors_own() {
    let course = Course::new("report-zh");
    for name in ["sum-not-mean", "layernorm", "eps-outside-sqrt", "zero-weight", "weight-ignored", "double-rounding"] {
        for extra in [&[][..], &["--verbose"][..]] {
            let run = check(&course, name, "zh", 100, extra);
            let english = english_words(&run.all());
            assert!(english.is_empty(), "{name} {extra:?}: English words {english:?} in\n{}", run.all());
        }
    }
    // A shape error names the shape in Chinese too.
    assert_eq!(english_words("x.shape = [2, 5]、hidden_size = 4 时的 norm(x) 应返回 Err"), Vec::<String>::new());
    assert_eq!(english_words("greatest difference"), vec!["greatest", "difference"]);
}

#[test]
fn clap_speaks_the_chosen_language() {
    let course = Course::new("report-clap");
    let zh = |args: &[&str]| {
        course.tutor_with(args, |c| {
            c.env("TUTOR_LANG", "zh");
        })
    };
    let help = zh(&["--help"]);
    help.expect(0).shows("用法").shows("命令").shows("列出全部练习与进度").hides("Usage").hides("Print help");
    zh(&["check", "--help"]).expect(0).shows("编译并评分一个练习").shows("（默认：10）").hides("[default");
    course.tutor(&["--lang", "zh", "help"]).expect(0).shows("显示本帮助");
    zh(&["frobnicate"]).expect(2).shows("没有 `frobnicate` 这个命令").hides("unrecognized");
    zh(&["check", "--timeout", "0"]).expect(2).shows("不是 --timeout").hides("invalid value");
    course.tutor(&["frobnicate"]).expect(2).shows("unrecognized subcommand").hides("没有");
    course.tutor(&["--help"]).expect(0).shows("Usage").hides("用法");
}

/// `tutor check 02-norm` on a pseudo-terminal of `columns` × 60 (util-linux `script`), with no
/// `COLUMNS` to go by: the width must come from the terminal itself. Returns what it printed.
fn check_on_a_terminal(course: &Course, lang: &str, columns: usize) -> String {
    let script = format!("stty cols {columns} rows 60; '{}' check 02-norm", env!("CARGO_BIN_EXE_tutor"));
    let mut command = std::process::Command::new("script");
    command
        .args(["-qfec", &script, "/dev/null"])
        .current_dir(&course.root)
        .env("TUTOR_LANG", lang)
        .env("NO_COLOR", "1")
        .env_remove("COLUMNS");
    let (code, output) = common::pty::Live::start(command).finish(std::time::Duration::from_secs(60));
    assert_eq!(code, 1, "{output}");
    // What the terminal shows: a carriage return writes over the same row (the live status
    // line), so each row is as wide as its widest segment.
    let rows: Vec<String> = output
        .replace("\r\n", "\n")
        .lines()
        .map(|line| line.split('\r').map(str::trim_end).max_by_key(|segment| segment.width()).unwrap_or("").to_string())
        .collect();
    let output = rows.join("\n");
    // From the report's first line: the build's status lines come before it.
    output[output.find("Checking 02-norm").unwrap_or(0)..].to_string()
}

#[test]
fn on_a_terminal_the_report_fits_its_width_and_one_screen() {
    let course = Course::new("report-pty");
    course.write_exercise("02-norm", mistake("sum-not-mean").1);
    for lang in ["en", "zh", "both"] {
        // 80 columns: one mistake fits a 40-row screen.
        let shown = check_on_a_terminal(&course, lang, 80);
        let rows: usize = shown.lines().map(|l| l.width().max(1).div_ceil(80)).sum();
        assert!(rows <= 40, "--lang {lang}: {rows} rows at 80 columns\n{shown}");
        assert!(shown.contains("tutor hint 02-norm --level 2"), "{shown}");
        // 40 columns: nothing but a table row or one unbreakable token is wider.
        let narrow = check_on_a_terminal(&course, lang, 40);
        for line in narrow.lines().filter(|l| l.width() > 40) {
            assert!(unbreakable(line), "--lang {lang}: {line:?} is {} columns wide\n{narrow}", line.width());
        }
    }
}
