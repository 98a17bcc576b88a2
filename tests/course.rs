//! The course itself, graded in process: every solution passes, every stub fails on its own TODO.

use tutor_grade::report::{Report, Status};
use tutor_grade::{run_all, Run};
use tutor_kit::Build;

/// Seeds the random inputs are drawn from: a solution must pass with any of them.
const SEEDS: [u64; 4] = [0, 1, 424_242, 999_999];

#[path = "../solutions/01-weight.rs"]
mod solution_01;
#[path = "../solutions/02-norm.rs"]
mod solution_02;
#[path = "../solutions/03-forward.rs"]
mod solution_03;
#[path = "../exercises/01-weight.rs"]
mod stub_01;
#[path = "../exercises/02-norm.rs"]
mod stub_02;
#[path = "../exercises/03-forward.rs"]
mod stub_03;

tutor_kit::graded_subject!(Solution01, solution_01::RMSNorm);
tutor_kit::graded_subject!(Solution02, solution_02::RMSNorm);
tutor_kit::graded_subject!(Solution03, solution_03::RMSNorm);
tutor_kit::graded_subject!(Stub01, stub_01::RMSNorm);
tutor_kit::graded_subject!(Stub02, stub_02::RMSNorm);
tutor_kit::graded_subject!(Stub03, stub_03::RMSNorm);

fn describe(report: &Report) -> String {
    report
        .cases
        .iter()
        .filter(|c| c.status != Status::Passed)
        .map(|c| format!("{} {:?}: {:?} {:?}", c.id, c.status, c.message.as_ref().map(|m| &m.en), c.mismatch))
        .collect::<Vec<_>>()
        .join("\n")
}

fn assert_passes(subject: Build) {
    for seed in SEEDS {
        let report = run_all(&Run::new(&subject, seed));
        assert!(report.cases.len() >= 20, "all three contracts run: {} cases", report.cases.len());
        assert!(report.all_passed(), "seed {seed}, failures:\n{}", describe(&report));
    }
}

/// A stub must fail, and every case it fails must fail on its own TODO's not-done marker.
fn assert_fails_only_on_todo(subject: Build, todo: u32) {
    let report = run_all(&Run::new(&subject, 7));
    let failing: Vec<_> = report.cases.iter().filter(|c| c.status != Status::Passed).collect();
    assert!(!failing.is_empty(), "stub for TODO {todo} passed every case");
    for case in failing {
        assert_eq!(case.status, Status::NotDone, "{} failed for another reason:\n{}", case.id, describe(&report));
        let message = &case.message.as_ref().expect("a failure has a message").en;
        assert!(message.contains(&format!("TODO {todo} is not done yet")), "{}: {message}", case.id);
    }
}

#[test]
fn solution_01_passes_every_case() {
    assert_passes(Solution01::build);
}

#[test]
fn solution_02_passes_every_case() {
    assert_passes(Solution02::build);
}

#[test]
fn solution_03_passes_every_case() {
    assert_passes(Solution03::build);
}

#[test]
fn stub_01_fails_on_todo_1() {
    assert_fails_only_on_todo(Stub01::build, 1);
}

#[test]
fn stub_02_fails_on_todo_2() {
    assert_fails_only_on_todo(Stub02::build, 2);
}

#[test]
fn stub_03_fails_on_todo_3() {
    assert_fails_only_on_todo(Stub03::build, 3);
}
