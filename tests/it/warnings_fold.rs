//! The numbers always show (issue 32): rustc's warnings above a graded report fold into the first
//! one and a count, so that a few unused variables no longer shrink the case shown in full to one
//! line without figures; `--verbose` shows every warning. Through the built binary.

use crate::common;

use common::Course;

#[test]
fn warnings_fold_and_the_figures_stay() {
    let course = Course::new("warnings-fold");
    let wrong = std::fs::read_to_string(common::repo().join("tests/mistakes/rmsnorm/backward-dw-from-x.rs")).unwrap();
    let check = || {
        course.tutor_with(&["check", "04-backward", "--seed", "5"], |c| {
            c.env("COLUMNS", "100");
        })
    };
    course.write_exercise("04-backward", &wrong);
    let plain = check();
    plain.expect(1);
    let figures: Vec<&str> = plain.stdout.lines().filter(|l| l.contains('←')).collect();
    assert!(!figures.is_empty(), "no figures without warnings:\n{}", plain.stdout);

    // Four unused variables: four warnings, about 24 rows in full, more than the report leaves.
    course.write_exercise("04-backward", &format!("{wrong}\npub fn extra(a: u32, b: u32, c: u32, d: u32) {{}}\n"));
    let warned = check();
    warned.expect(1).shows("3 more warning(s)").shows("--verbose");
    assert_eq!(warned.stdout.matches("warning: unused variable").count(), 1, "{}", warned.stdout);
    for line in &figures {
        assert!(warned.stdout.contains(line), "the figure {line:?} is gone:\n{}", warned.stdout);
    }
    let verbose = course.tutor(&["check", "04-backward", "--seed", "5", "--verbose"]);
    assert_eq!(verbose.stdout.matches("warning: unused variable").count(), 4, "{}", verbose.stdout);
    verbose.hides("more warning(s)");
}
