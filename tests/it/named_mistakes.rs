//! The wrong solutions of `tests/mistakes/<course>/`, checked through the real binary (graded out of
//! process, confined): the output names the declared mistake in both languages, with the hint
//! that addresses it. One file per named mistake keeps this quick, and two workspaces check them
//! side by side; every file that fails is reported. `wrong_solutions.rs` grades them all
//! in-process.

use crate::common;

use std::collections::BTreeSet;
use std::panic::{catch_unwind, AssertUnwindSafe};

use common::fixtures::{Fixture, MISTAKES};
use common::Course;

/// Workspaces checking at the same time (each check is mostly one process: rustc, then the
/// graded program).
const WORKERS: usize = 2;

#[test]
fn the_check_output_names_each_mistake() {
    let mut seen = BTreeSet::new();
    let first_of_each: Vec<&Fixture> = MISTAKES
        .iter()
        .filter(|f| {
            let id = f.header("mistake").expect("a `//! mistake:` line");
            id != "unnamed" && seen.insert((f.course, id))
        })
        .collect();
    assert!(seen.len() >= 13, "one file per named mistake: {seen:?}");
    let failures: Vec<String> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..WORKERS)
            .map(|worker| {
                let files = &first_of_each;
                scope.spawn(move || {
                    let course = Course::new(&format!("mistakes-{worker}"));
                    files
                        .iter()
                        .skip(worker)
                        .step_by(WORKERS)
                        .filter_map(|fixture| {
                            let checked = catch_unwind(AssertUnwindSafe(|| check_names_its_mistake(&course, fixture)));
                            checked.err().map(|panic| {
                                format!("{}: {}", fixture.key(), tutor_grade::outcome::unwind_message(panic))
                            })
                        })
                        .collect::<Vec<String>>()
                })
            })
            .collect();
        workers.into_iter().flat_map(|w| w.join().unwrap_or_else(|p| std::panic::resume_unwind(p))).collect()
    });
    assert!(failures.is_empty(), "{} of {} files:\n{}", failures.len(), first_of_each.len(), failures.join("\n"));
}

/// `tutor check` on `fixture` in `course` names its mistake in both languages, with its hint.
fn check_names_its_mistake(course: &Course, fixture: &Fixture) {
    let id = fixture.header("mistake").expect("a `//! mistake:` line");
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
