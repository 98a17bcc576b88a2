//! The wrong solutions of `tests/mistakes/<course>/`, checked through the real binary (graded out of
//! process, confined): the output names the declared mistake in both languages, with the hint
//! that addresses it. One file per named mistake keeps this quick; `wrong_solutions.rs` grades
//! them all in-process.

use crate::common;

use std::collections::BTreeSet;

use common::fixtures::MISTAKES;
use common::Course;

#[test]
fn the_check_output_names_each_mistake() {
    let course = Course::new("mistakes");
    let mut seen = BTreeSet::new();
    for fixture in MISTAKES {
        let id = fixture.header("mistake").expect("a `//! mistake:` line");
        if id == "unnamed" || !seen.insert((fixture.course, id)) {
            continue;
        }
        let exercise = fixture.header("exercise").expect("an `//! exercise:` line");
        let known = fixture.registered().grading.mistakes();
        let mistake = known.iter().find(|m| m.id == id).unwrap_or_else(|| panic!("{id} is not a known mistake"));
        let title = mistake.title();
        course.write_exercise_of(fixture.course, exercise, fixture.source);
        let run = course.tutor_with(&["check", &format!("{}/{exercise}", fixture.course)], |c| {
            c.env("TUTOR_LANG", "both");
        });
        run.expect(1)
            .shows(&title.en)
            .shows(&title.zh)
            .shows(&format!("tutor hint {} --level {}", mistake.exercise, mistake.hint));
    }
    assert!(seen.len() >= 13, "one file per named mistake: {seen:?}");
}
