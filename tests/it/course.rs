//! Every registered course, graded in process through the same calls as `tutor check`: every
//! solution passes (with any seed), every stub fails on its own TODO and nothing else. Stubs and
//! solutions are listed from their folders, and the TODO of each from its course's catalogue.

use crate::common;

use common::fixtures::{Fixture, SOLUTIONS, STUBS};
use tutor_grade::report::{Report, Status};

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

/// The files of `table` for `course`, and the course's exercises: one file each.
fn of_course(table: &'static [Fixture], course: &str) -> (Vec<&'static Fixture>, Vec<(String, i64)>) {
    let files: Vec<_> = table.iter().filter(|f| f.course == course).collect();
    let exercises = common::exercises_of(course);
    let names: Vec<&str> = files.iter().map(|f| f.name).collect();
    let ids: Vec<&str> = exercises.iter().map(|(id, _)| id.as_str()).collect();
    assert_eq!(names, ids, "{course}: one file per exercise");
    (files, exercises)
}

#[test]
fn every_solution_passes_every_case_with_any_seed() {
    for course in common::courses() {
        let (solutions, _) = of_course(SOLUTIONS, &course);
        for solution in solutions {
            for seed in SEEDS {
                let report = common::panics::graded(solution, seed);
                assert_eq!(report.cases.len(), solution.registered().grading.case_titles().len());
                // Every case belongs to some exercise of the course.
                let grading = solution.registered().grading;
                let owned: usize =
                    common::exercises_of(&course).iter().map(|(_, t)| grading.case_titles_of(*t as u32).len()).sum();
                assert!(owned >= report.cases.len(), "{}: a case no exercise runs", solution.key());
                assert!(report.all_passed(), "{} with seed {seed}, failures:\n{}", solution.key(), describe(&report));
            }
        }
    }
}

/// A stub must fail, and every case it fails must fail on its own TODO's not-done marker; of its
/// own exercise's cases (what `tutor check` counts), it passes at most a quarter.
#[test]
fn every_stub_fails_only_on_its_own_todo() {
    for course in common::courses() {
        let (stubs, exercises) = of_course(STUBS, &course);
        for stub in stubs {
            let (_, todo) = exercises.iter().find(|(id, _)| *id == stub.name).expect("a catalogued stub");
            let report = common::panics::graded(stub, 7);
            let own = common::panics::graded_exercise(stub, 7, *todo as u32);
            let passed = own.cases.iter().filter(|c| c.status == Status::Passed).count();
            assert!(!own.cases.is_empty(), "{}: no case grades TODO {todo}", stub.key());
            assert!(
                4 * passed <= own.cases.len(),
                "{}: {passed}/{} of its own cases pass",
                stub.key(),
                own.cases.len()
            );
            let failing: Vec<_> = report.cases.iter().filter(|c| c.status != Status::Passed).collect();
            assert!(!failing.is_empty(), "{}: the stub of TODO {todo} passed every case", stub.key());
            for case in failing {
                assert_eq!(
                    case.status,
                    Status::NotDone,
                    "{} {} failed for another reason:\n{}",
                    stub.key(),
                    case.id,
                    describe(&report)
                );
                let message = &case.message.as_ref().expect("a failure has a message").en;
                assert!(message.contains(&format!("TODO {todo} is not done yet")), "{}: {message}", case.id);
            }
        }
    }
}
