//! The course itself, graded in process: every solution passes (with any seed), every stub fails
//! on its own TODO and nothing else. Stubs and solutions are listed from their folders, and the
//! TODO of each from the catalogue.

mod common;

use common::fixtures::{SOLUTIONS, SOLUTIONS_BUILD, STUBS, STUBS_BUILD};
use rmsnorm_grade::report::{Report, Status};
use rmsnorm_grade::{run_all, Run};

/// Seeds the random inputs are drawn from: a solution must pass with any of them.
const SEEDS: [u64; 4] = [0, 1, 424_242, 999_999];

fn describe(report: &Report) -> String {
    report
        .cases
        .iter()
        .filter(|c| c.status != Status::Passed)
        .map(|c| format!("{} {:?}: {:?} {:?}", c.id, c.status, c.message.as_ref().map(|m| &m.en), c.mismatch))
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn every_solution_passes_every_case_with_any_seed() {
    assert_eq!(SOLUTIONS.len(), common::exercises().len(), "one solution per exercise");
    for (solution, build) in SOLUTIONS.iter().zip(SOLUTIONS_BUILD) {
        for seed in SEEDS {
            let report = run_all(&Run::new(build, seed));
            assert_eq!(report.cases.len(), rmsnorm_grade::all_cases().len());
            assert!(report.all_passed(), "{} with seed {seed}, failures:\n{}", solution.name, describe(&report));
        }
    }
}

/// A stub must fail, and every case it fails must fail on its own TODO's not-done marker.
#[test]
fn every_stub_fails_only_on_its_own_todo() {
    let exercises = common::exercises();
    assert_eq!(STUBS.len(), exercises.len(), "one stub per exercise");
    for (stub, build) in STUBS.iter().zip(STUBS_BUILD) {
        let (_, todo) = exercises.iter().find(|(id, _)| *id == stub.name).expect("a catalogued stub");
        let report = run_all(&Run::new(build, 7));
        let failing: Vec<_> = report.cases.iter().filter(|c| c.status != Status::Passed).collect();
        assert!(!failing.is_empty(), "the stub of TODO {todo} passed every case");
        for case in failing {
            assert_eq!(
                case.status,
                Status::NotDone,
                "{} {} failed for another reason:\n{}",
                stub.name,
                case.id,
                describe(&report)
            );
            let message = &case.message.as_ref().expect("a failure has a message").en;
            assert!(message.contains(&format!("TODO {todo} is not done yet")), "{}: {message}", case.id);
        }
    }
}
