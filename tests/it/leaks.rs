//! Nothing of tutor's own environment reaches the compiler: cargo and rustc run with an
//! environment built from an allow list, and an exercise file is never read through a link.
//! A secret is planted in tutor's environment, and the learner's file tries both routes to it.

use crate::common;

use common::fixtures::HOSTILE;
use common::{Course, Run};

const SECRET_NAME: &str = "TUTOR_TEST_PLANTED_SECRET";
const SECRET: &str = "s3cr3t-8f1d2c-never-shown";
/// A secret in a family a build is otherwise given (cargo's settings).
const TOKEN_NAME: &str = "CARGO_REGISTRY_TOKEN";
const TOKEN: &str = "cargo-token-77aa-never-shown";

/// `tutor ARGS` with the secrets in its environment.
fn with_secrets(course: &Course, args: &[&str]) -> Run {
    course.tutor_with(args, |command| {
        command.env(SECRET_NAME, SECRET).env(TOKEN_NAME, TOKEN);
    })
}

#[track_caller]
fn assert_no_secret(run: &Run, what: &str) {
    for secret in [SECRET, TOKEN, SECRET_NAME] {
        assert!(!run.all().contains(secret), "{what}: {secret} was shown:\n{}", run.all());
    }
}

#[test]
fn the_compilers_environment_holds_no_secret_of_tutors() {
    let course = Course::new("leak-environ");
    let fixture =
        HOSTILE.iter().find(|f| f.name == "include-environ").expect("tests/hostile/rmsnorm/include-environ.rs");
    course.write_exercise("02-norm", fixture.source);
    // The compile error shows the compiler's environment: the allowed part only. Twice: by
    // cargo, then by rustc alone from the recorded command.
    for round in ["cargo", "rustc alone"] {
        let run = with_secrets(&course, &["check", "02", "--verbose"]);
        run.expect(1).shows("does not compile").shows("PATH=");
        assert_no_secret(&run, round);
        let json = with_secrets(&course, &["check", "02", "--format", "json"]);
        json.shows("PATH=");
        assert_no_secret(&json, round);
    }
    // Nor is anything written beneath the course folder with it (the record of the build).
    let grep = std::process::Command::new("grep").args(["-rl", SECRET]).arg(&course.root).output().unwrap();
    assert!(grep.stdout.is_empty(), "the secret was written to {}", String::from_utf8_lossy(&grep.stdout));
}

#[test]
fn an_exercise_file_that_is_a_link_is_never_read() {
    let course = Course::new("leak-link");
    let file = course.root.join("exercises/rmsnorm/02-norm.rs");
    std::fs::remove_file(&file).unwrap();
    std::os::unix::fs::symlink("/proc/self/environ", &file).unwrap();
    let run = with_secrets(&course, &["check", "02"]);
    run.expect(1).shows("exercises/rmsnorm/02-norm.rs is a symbolic link, not an ordinary file");
    assert_no_secret(&run, "check");
    let json = with_secrets(&course, &["check", "02", "--format", "json"]);
    json.expect(1);
    assert_no_secret(&json, "check --format json");
    let reveal = with_secrets(&course, &["reveal", "02", "--yes"]);
    reveal.expect(0).shows("is a symbolic link, not an ordinary file");
    assert_no_secret(&reveal, "reveal");
    let reset = with_secrets(&course, &["reset", "02", "--yes"]);
    reset.expect(2).shows("is a symbolic link");
    assert_no_secret(&reset, "reset");
    assert!(std::fs::symlink_metadata(&file).unwrap().file_type().is_symlink(), "the link is left for the learner");
    // A link to one of the learner's own files is refused the same way: copied by content, a
    // file is graded; through a link, never.
    let own = course.root.join("mine.rs");
    std::fs::write(&own, Course::solution("02-norm")).unwrap();
    std::fs::remove_file(&file).unwrap();
    std::os::unix::fs::symlink(&own, &file).unwrap();
    course.tutor(&["check", "02"]).expect(1).shows("is a symbolic link, not an ordinary file");
}

#[test]
fn a_progress_file_that_is_a_link_is_set_aside_unread() {
    let course = Course::new("leak-state");
    let state = course.root.join(".tutor/state.toml");
    let _ = std::fs::remove_file(&state);
    std::os::unix::fs::symlink("/proc/self/environ", &state).unwrap();
    let run = with_secrets(&course, &["list"]);
    run.expect(0).shows("the progress file could not be read (it is a symbolic link, not an ordinary file)");
    assert_no_secret(&run, "list");
    assert!(!std::fs::symlink_metadata(&state).is_ok_and(|m| m.file_type().is_symlink()), "set aside");
}
