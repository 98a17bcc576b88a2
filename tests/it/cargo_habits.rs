//! `cargo test` and `cargo run` in a course folder, typed out of habit, do something useful:
//! `cargo test` builds (no "`std` only shows up once") and runs every exercise's check through
//! tutor; `cargo run` says what to run instead. Through the built binary and real cargo, with the
//! caller's CARGO_HOME, so that nothing is downloaded twice.

use crate::common;

use std::process::Command;

use common::{Course, Run};

fn cargo(course: &Course, args: &[&str]) -> Run {
    cargo_in(course, "en", args)
}

/// `cargo ARGS` in the course folder with `TUTOR_LANG=lang`.
fn cargo_in(course: &Course, lang: &str, args: &[&str]) -> Run {
    let mut command = Command::new(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()));
    command.args(args).current_dir(&course.root).env("TUTOR_LANG", lang).env("NO_COLOR", "1");
    // The course folder's own build, not this test's.
    command.env_remove("CARGO_TARGET_DIR").env_remove("CARGO_BUILD_TARGET_DIR");
    Run::from(command.output().expect("cargo runs"))
}

#[test]
fn a_fresh_course_folder_builds_its_tests() {
    let scratch = std::env::temp_dir().join(format!("tutor-e2e-cargo-fresh-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&scratch);
    std::fs::create_dir_all(&scratch).unwrap();
    let course = Course { root: scratch.join("course") };
    let init = Command::new(env!("CARGO_BIN_EXE_tutor"))
        .args(["init", "course", "--no-build"])
        .current_dir(&scratch)
        .env("TUTOR_LANG", "en")
        .output()
        .unwrap();
    Run::from(init).expect(0);
    let built = cargo(&course, &["test", "--no-run"]);
    built.expect(0).hides("only shows up once");
    // The editor's libraries build too, with the whole workspace.
    cargo(&course, &["test", "--workspace", "--no-run"]).expect(0);
    // Each in the language TUTOR_LANG asks for, wrapped for a terminal (issue 32).
    let run = cargo(&course, &["run"]);
    run.expect(2).shows("has no program to `cargo run`").shows("`tutor watch`").hides("课程文件夹");
    let zh = cargo_in(&course, "zh", &["run"]);
    zh.expect(2).shows("这是课程文件夹").hides("has no program");
    cargo_in(&course, "both", &["run"]).expect(2).shows("这是课程文件夹").shows("has no program");
    for line in run.stdout.lines().chain(zh.stdout.lines()) {
        assert!(line.chars().count() <= 78, "a line wider than a terminal: {line:?}");
    }
    let _ = std::fs::remove_dir_all(&scratch);
}

#[test]
fn cargo_test_runs_every_exercise_check_through_tutor() {
    let course = Course::new("cargo-habits");
    let root = course.root.to_string_lossy().into_owned();
    // A course folder without tutor's Cargo.toml gets it from `tutor init` in it.
    course.tutor(&["init", &root]).expect(0);
    course.write_exercise("01-weight", &Course::solution("01-weight"));
    let tested = cargo(&course, &["test"]);
    tested
        .expect(1)
        .shows("check rmsnorm/01-weight ... ok")
        .shows("check rmsnorm/02-norm ... FAILED")
        .shows("TODO 2 is not written yet")
        .shows("Not every exercise passes yet");
    assert_eq!(tested.stdout.matches("Checking ").count(), 1, "only the first failure in full:\n{}", tested.stdout);
    // It is tutor's check, and it counts: the pass is in the progress.
    assert!(course.state().contains("status = \"passed\""), "{}", course.state());
}
