//! Every solution passes every case, and every stub is "not done" in its own exercise's cases and
//! passes the others (their pieces are the kit's), graded in process through the same client
//! as `tutor check` (over an in-process channel).

use swiglu_grade::COURSE;
use tutor_grade::report::{Report, Status};
use tutor_grade::{Course, InProcess};

macro_rules! files {
    ($($module:ident, $path:literal;)*) => {
        $(
            #[path = $path]
            #[allow(dead_code)]
            mod $module;
        )*
    };
}

files! {
    solution_01, "../../../../solutions/swiglu/01-silu.rs";
    solution_02, "../../../../solutions/swiglu/02-linear.rs";
    solution_03, "../../../../solutions/swiglu/03-hidden-size.rs";
    solution_04, "../../../../solutions/swiglu/04-forward.rs";
    solution_05, "../../../../solutions/swiglu/05-backward.rs";
    stub_01, "../../../../exercises/swiglu/01-silu.rs";
    stub_02, "../../../../exercises/swiglu/02-linear.rs";
    stub_03, "../../../../exercises/swiglu/03-hidden-size.rs";
    stub_04, "../../../../exercises/swiglu/04-forward.rs";
    stub_05, "../../../../exercises/swiglu/05-backward.rs";
}

/// Asserts with the default panic hook back (the quiet one, needed while cases run, would
/// swallow the message).
fn check(condition: bool, message: impl FnOnce() -> String) {
    if !condition {
        drop(std::panic::take_hook());
        panic!("{}", message());
    }
}

/// The report `tutor check` would give `$module` with `$seed`, in process.
macro_rules! grade {
    ($module:ident, $seed:expr) => {
        COURSE.grade(&InProcess::new(tutor_kit::graded_server!($module)), $seed)
    };
}

fn failures(report: &Report) -> Vec<String> {
    report
        .cases
        .iter()
        .filter(|c| c.status != Status::Passed)
        .map(|c| format!("{} [{:?}]: {:?}", c.id, c.status, c.message.as_ref().map(|m| m.en.clone())))
        .collect()
}

fn failing_contracts(report: &Report) -> Vec<&'static str> {
    let mut out: Vec<&'static str> =
        report.cases.iter().filter(|c| c.status != Status::Passed).map(|c| c.contract.id).collect();
    out.dedup();
    out
}

#[test]
fn every_solution_passes_every_case_on_several_seeds() {
    tutor_grade::outcome::install_quiet_panic_hook();
    // Seeds differ from run to run in `tutor check`: a solution must pass on every one.
    for seed in (0..24).chain([0xDEAD_BEEF, u64::MAX]) {
        let reports = [
            grade!(solution_01, seed),
            grade!(solution_02, seed),
            grade!(solution_03, seed),
            grade!(solution_04, seed),
            grade!(solution_05, seed),
        ];
        for (i, report) in reports.iter().enumerate() {
            check(report.all_passed(), || format!("solution {} seed {seed}: {:#?}", i + 1, failures(report)));
        }
    }
}

#[test]
fn every_stub_fails_its_own_exercise_only_and_as_not_done() {
    tutor_grade::outcome::install_quiet_panic_hook();
    let reports = [
        ("silu", grade!(stub_01, 7)),
        ("linear", grade!(stub_02, 7)),
        ("hidden-size", grade!(stub_03, 7)),
        ("block", grade!(stub_04, 7)),
        ("backward", grade!(stub_05, 7)),
    ];
    for (contract, report) in &reports {
        // A layer built from a Linear (the block) waits for 02's TODO too; nothing else fails.
        let failing = failing_contracts(report);
        let expected_failing =
            if *contract == "linear" { vec!["linear", "block", "backward"] } else { vec![*contract] };
        check(failing == expected_failing, || format!("{contract}: {:#?}", failures(report)));
        check(report.cases.iter().all(|c| c.status != Status::Failed), || format!("{:#?}", failures(report)));
        let own = report.cases.iter().filter(|c| c.contract.id == *contract);
        check(own.clone().all(|c| c.status == Status::NotDone), || format!("{:#?}", failures(report)));
        check(report.mistakes.is_empty(), || format!("a stub names no mistake: {:?}", report.mistakes));
    }
}
