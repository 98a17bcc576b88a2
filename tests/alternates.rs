//! Correct solutions written differently (`tests/alternates/<course>/`): every one passes every
//! case of its course, with several seeds. Each writes every TODO of its course itself, so one
//! file stands for all the course's exercises.

mod common;

use common::fixtures::ALTERNATES;
use tutor_grade::report::Status;

#[test]
fn every_alternate_passes_with_any_seed() {
    tutor_grade::outcome::install_quiet_panic_hook();
    assert!(ALTERNATES.len() >= 12, "at least 12 alternates");
    let mut failures = Vec::new();
    for fixture in ALTERNATES {
        // Many seeds: a correct answer passes whatever the inputs (the new cases' roundings are
        // "almost every value" and must hold on every draw).
        for seed in [1, 2024, 777_777, 4, 5, 13, 99, 31_337] {
            let report = fixture.grade(seed);
            for case in report.cases.iter().filter(|c| c.status != Status::Passed) {
                let message = case.message.as_ref().map(|m| m.en.clone()).unwrap_or_default();
                failures.push(format!("{} (seed {seed}): {} — {message}", fixture.key(), case.id));
            }
        }
    }
    // Back to the default hook, so that the assertions below are heard.
    drop(std::panic::take_hook());
    println!("alternates: {}; failures: {}", ALTERNATES.len(), failures.len());
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
