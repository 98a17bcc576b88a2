//! Correct solutions written differently (`tests/alternates/<course>/`): every one passes every
//! case of its course, with several seeds; one test per file (`alternates::each::<course>_<file>`).
//! Each writes every TODO of its course itself, so one file stands for all the course's exercises.

use crate::common;

use common::fixtures::{Fixture, ALTERNATES};
use tutor_grade::report::Status;

/// One test per file of [`ALTERNATES`].
mod each {
    tutor_learner_files::each_alternates!(super::passes_with_any_seed);
}

/// `fixture` passes every case with every seed.
fn passes_with_any_seed(fixture: &Fixture) {
    let mut failures = Vec::new();
    // Many seeds: a correct answer passes whatever the inputs (the new cases' roundings are
    // "almost every value" and must hold on every draw).
    for seed in [1, 2024, 777_777, 4, 5, 13, 99, 31_337] {
        let report = common::panics::graded(fixture, seed);
        for case in report.cases.iter().filter(|c| c.status != Status::Passed) {
            let message = case.message.as_ref().map(|m| m.en.clone()).unwrap_or_default();
            failures.push(format!("{} (seed {seed}): {} — {message}", fixture.key(), case.id));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn there_are_many_alternates() {
    assert!(ALTERNATES.len() >= 12, "at least 12 alternates, found {}", ALTERNATES.len());
}
