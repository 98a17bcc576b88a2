//! The wrong solutions of `tests/mistakes/`, checked through the real binary (graded out of
//! process, confined): the output names the declared mistake in both languages, with the hint
//! that addresses it. One file per named mistake keeps this quick; `wrong_solutions.rs` grades
//! them all in-process.

mod common;

use tutor_courses::rmsnorm as rmsnorm_grade;

use std::collections::BTreeSet;

use common::fixtures::MISTAKES;
use common::Course;

#[test]
fn the_check_output_names_each_mistake() {
    let course = Course::new("mistakes");
    let mut seen = BTreeSet::new();
    for fixture in MISTAKES {
        let id = fixture.header("mistake").expect("a `//! mistake:` line");
        if id == "unnamed" || !seen.insert(id) {
            continue;
        }
        let exercise = fixture.header("exercise").expect("an `//! exercise:` line");
        let mistake = rmsnorm_grade::mistakes::find(id).unwrap_or_else(|| panic!("{id} is not a known mistake"));
        let title = rmsnorm_grade::text::mistake_title(id);
        course.write_exercise(exercise, fixture.source);
        let run = course.tutor_with(&["check", exercise], |c| {
            c.env("TUTOR_LANG", "both");
        });
        run.expect(1)
            .shows(&title.en)
            .shows(&title.zh)
            .shows(&format!("tutor hint {} --level {}", mistake.exercise, mistake.hint));
    }
    assert!(seen.len() >= 13, "one file per named mistake: {seen:?}");
}
