//! Text from outside the binary's own catalogue reaches the terminal escaped (one function,
//! `render::shown`), and the JSON report carries it raw: an error value's text, a reply envelope
//! the program writes itself, a panic that starts with the kit's answer marker, a string inside
//! `state.toml`, an exercise name and a `--workspace` path.

use crate::common;

use common::fixtures::HOSTILE;
use common::{Course, Run};
use serde_json::Value;

/// What the attacks write: clear the screen, set the title, return to the line's start, and
/// reverse what follows.
const RAW: [char; 4] = ['\u{1b}', '\u{7}', '\r', '\u{202e}'];

/// Nothing of [`RAW`] reached the output, and the escape is shown instead.
#[track_caller]
fn shown_not_obeyed(run: &Run, what: &str) {
    let all = run.all();
    for c in RAW {
        assert!(!all.contains(c), "{what}: {c:?} reached the terminal:\n{all}");
    }
    assert!(all.contains("\\u{1b}[2J"), "{what}: the escape is not shown:\n{all}");
}

fn fixture(name: &str) -> &'static common::fixtures::Fixture {
    HOSTILE.iter().find(|f| f.name == name).unwrap_or_else(|| panic!("tests/hostile/<course>/{name}.rs"))
}

/// Every message of the JSON report's cases, in both languages.
fn json_messages(run: &Run) -> Vec<String> {
    let document: Value =
        serde_json::from_str(&run.stdout).unwrap_or_else(|e| panic!("not JSON ({e}):\n{}", run.stdout));
    let tests = document["tests"].as_array().expect("tests").clone();
    tests.iter().flat_map(|t| ["zh", "en"].map(|l| t["message"][l].as_str().unwrap_or_default().to_string())).collect()
}

/// Checks the hostile file `name` as text (escaped) and as JSON (raw).
fn escaped_in_text_raw_in_json(course: &Course, name: &str, key: &str) {
    let fixture = fixture(name);
    let exercise = fixture.header("exercise").unwrap();
    course.write_exercise_of(fixture.course, exercise, fixture.source);
    let run = course.tutor(&["check", key, "--verbose", "--timeout", "2"]);
    run.expect(1);
    for text in fixture.source.lines().filter_map(|l| l.strip_prefix("//! shows:")) {
        run.shows(text.trim());
    }
    shown_not_obeyed(&run, name);
    let json = course.tutor(&["check", key, "--format", "json", "--timeout", "2"]);
    json.expect(1);
    let raw = json_messages(&json).into_iter().any(|m| m.contains("\u{1b}[2J\u{1b}]0;owned\u{7}\r\u{202e}"));
    assert!(raw, "{name}: the JSON report does not carry the raw text:\n{}", json.stdout);
}

#[test]
fn an_error_values_text_is_shown_escaped() {
    let course = Course::new("escape-error-value");
    escaped_in_text_raw_in_json(&course, "error-value-escapes", "swiglu/02-linear");
}

#[test]
fn a_reply_envelope_of_the_programs_own_is_shown_escaped() {
    let course = Course::new("escape-envelope");
    escaped_in_text_raw_in_json(&course, "envelope-escapes", "rmsnorm/02-norm");
}

#[test]
fn a_panic_with_the_kits_answer_marker_is_shown_escaped() {
    let course = Course::new("escape-kit-marker");
    escaped_in_text_raw_in_json(&course, "kit-marker-escapes", "rmsnorm/02-norm");
}

#[test]
fn a_string_inside_the_progress_file_is_shown_escaped() {
    let course = Course::cold("escape-state");
    std::fs::create_dir_all(course.root.join(".tutor")).unwrap();
    // TOML's own escapes make the control characters: a value of the wrong kind is quoted in
    // the reason the file could not be read.
    let broken =
        "version = 2\n[exercises.\"rmsnorm/01-weight\"]\nstatus = \"\\u001b[2J\\u001b]0;owned\\u0007\\r\\u202e\"\n";
    std::fs::write(course.root.join(".tutor/state.toml"), broken).unwrap();
    let run = course.tutor(&["list"]);
    run.expect(0).shows("could not be read");
    shown_not_obeyed(&run, "state.toml");
}

#[test]
fn an_exercise_name_and_a_workspace_path_are_shown_escaped() {
    let course = Course::cold("escape-arguments");
    let name = "\u{1b}[2J\u{1b}]0;owned\u{7}\r\u{202e}norm";
    let run = course.tutor(&["check", name]);
    run.expect(2);
    shown_not_obeyed(&run, "an exercise name");
    let run = course.tutor(&["hint", name]);
    run.expect(2);
    shown_not_obeyed(&run, "an exercise name to hint");
    let elsewhere = std::env::temp_dir().join(format!("\u{1b}[2J\u{1b}]0;owned\u{7}\r\u{202e}-{}", std::process::id()));
    let run = course.tutor(&["--workspace", elsewhere.to_str().unwrap(), "list"]);
    run.expect(2);
    shown_not_obeyed(&run, "a --workspace path");
}
