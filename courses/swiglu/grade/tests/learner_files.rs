//! The learner files of the SwiGLU course, graded in process through the same client as
//! `tutor check` (an `InProcess` channel to the kit's `graded_server!`): every solution passes,
//! every stub is "not done" in its own exercise and passes the others (their pieces are the
//! kit's), every wrong file in tests/mistakes/swiglu is named as its own mistake and nothing
//! else, every alternate in tests/alternates/swiglu passes, and an silu_grad by central
//! differences fails the analytic check.

use swiglu_grade::COURSE;
use tutor_grade::report::{Report, Status};
use tutor_grade::{Course, InProcess};

macro_rules! files {
    ($($module:ident, $path:literal;)*) => {
        $(
            #[path = $path]
            #[allow(dead_code, clippy::all)]
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
    mistake_backward_gate_up_swapped, "../../../../tests/mistakes/swiglu/backward-gate-up-swapped.rs";
    mistake_backward_grads_overwritten, "../../../../tests/mistakes/swiglu/backward-grads-overwritten.rs";
    mistake_backward_silu_grad_missing_term, "../../../../tests/mistakes/swiglu/backward-silu-grad-missing-term.rs";
    mistake_block_gate_up_swapped, "../../../../tests/mistakes/swiglu/block-gate-up-swapped.rs";
    mistake_block_rounds_once, "../../../../tests/mistakes/swiglu/block-rounds-once.rs";
    mistake_hidden_multiplier_after_rounding, "../../../../tests/mistakes/swiglu/hidden-multiplier-after-rounding.rs";
    mistake_hidden_no_two_thirds, "../../../../tests/mistakes/swiglu/hidden-no-two-thirds.rs";
    mistake_hidden_rounded_down, "../../../../tests/mistakes/swiglu/hidden-rounded-down.rs";
    mistake_linear_bias, "../../../../tests/mistakes/swiglu/linear-bias.rs";
    mistake_linear_low_precision_sum, "../../../../tests/mistakes/swiglu/linear-low-precision-sum.rs";
    mistake_linear_untransposed, "../../../../tests/mistakes/swiglu/linear-untransposed.rs";
    mistake_silu_exp_overflow, "../../../../tests/mistakes/swiglu/silu-exp-overflow.rs";
    mistake_silu_is_gelu, "../../../../tests/mistakes/swiglu/silu-is-gelu.rs";
    mistake_silu_is_relu, "../../../../tests/mistakes/swiglu/silu-is-relu.rs";
    alternate_backward_explicit_loops, "../../../../tests/alternates/swiglu/backward-explicit-loops.rs";
    alternate_hidden_python_floats, "../../../../tests/alternates/swiglu/hidden-python-floats.rs";
    alternate_linear_f64_accumulation, "../../../../tests/alternates/swiglu/linear-f64-accumulation.rs";
    alternate_linear_ndarray_dot, "../../../../tests/alternates/swiglu/linear-ndarray-dot.rs";
    alternate_pytorch_transliteration, "../../../../tests/alternates/swiglu/pytorch-transliteration.rs";
    alternate_silu_sigmoid_branches, "../../../../tests/alternates/swiglu/silu-sigmoid-branches.rs";
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

#[test]
fn every_wrong_file_is_named_as_its_own_mistake_only() {
    tutor_grade::outcome::install_quiet_panic_hook();
    let reports: Vec<(&str, Report)> = vec![
        ("backward-gate-up-swapped", grade!(mistake_backward_gate_up_swapped, 5)),
        ("backward-grads-overwritten", grade!(mistake_backward_grads_overwritten, 5)),
        ("backward-silu-grad-missing-term", grade!(mistake_backward_silu_grad_missing_term, 5)),
        ("block-gate-up-swapped", grade!(mistake_block_gate_up_swapped, 5)),
        ("block-rounds-once", grade!(mistake_block_rounds_once, 5)),
        ("hidden-multiplier-after-rounding", grade!(mistake_hidden_multiplier_after_rounding, 5)),
        ("hidden-no-two-thirds", grade!(mistake_hidden_no_two_thirds, 5)),
        ("hidden-rounded-down", grade!(mistake_hidden_rounded_down, 5)),
        ("linear-bias", grade!(mistake_linear_bias, 5)),
        ("linear-low-precision-sum", grade!(mistake_linear_low_precision_sum, 5)),
        ("linear-untransposed", grade!(mistake_linear_untransposed, 5)),
        ("silu-exp-overflow", grade!(mistake_silu_exp_overflow, 5)),
        ("silu-is-gelu", grade!(mistake_silu_is_gelu, 5)),
        ("silu-is-relu", grade!(mistake_silu_is_relu, 5)),
    ];
    for (mistake, report) in &reports {
        check(!report.all_passed(), || format!("{mistake} passes"));
        check(report.mistakes == vec![mistake.to_string()], || {
            format!("{mistake}: {:?}\n{:#?}", report.mistakes, failures(report))
        });
    }
    let known: Vec<&str> = swiglu_grade::mistakes::ALL.iter().map(|m| m.id).collect();
    let files: Vec<&str> = reports.iter().map(|(m, _)| *m).collect();
    check(known.iter().all(|m| files.contains(m)), || format!("a named mistake has no wrong file: {known:?}"));
}

#[test]
fn every_alternate_passes_on_several_seeds() {
    tutor_grade::outcome::install_quiet_panic_hook();
    for seed in [5, 6] {
        let reports: Vec<(&str, Report)> = vec![
            ("backward-explicit-loops", grade!(alternate_backward_explicit_loops, seed)),
            ("hidden-python-floats", grade!(alternate_hidden_python_floats, seed)),
            ("linear-f64-accumulation", grade!(alternate_linear_f64_accumulation, seed)),
            ("linear-ndarray-dot", grade!(alternate_linear_ndarray_dot, seed)),
            ("pytorch-transliteration", grade!(alternate_pytorch_transliteration, seed)),
            ("silu-sigmoid-branches", grade!(alternate_silu_sigmoid_branches, seed)),
        ];
        for (name, report) in &reports {
            check(report.all_passed(), || format!("{name} seed {seed}: {:#?}", failures(report)));
        }
    }
}

/// silu_grad by central differences of silu in f64, the rest the reference solution's.
mod central_differences {
    pub use super::solution_05::{hidden_size, silu, FeedForward, Linear};
    use tutor_kit::ndarray::ArrayD;
    use tutor_kit::Float;

    pub fn silu_grad<T: Float>(x: &ArrayD<T>) -> ArrayD<f64> {
        let silu = |v: f64| v / (1.0 + (-v).exp());
        x.mapv(|v| {
            let (v, h) = (v.to_f64(), 1e-5);
            (silu(v + h) - silu(v - h)) / (2.0 * h)
        })
    }
}

#[test]
fn central_differences_fail_the_analytic_check() {
    tutor_grade::outcome::install_quiet_panic_hook();
    let report = grade!(central_differences, 3);
    let case = report.cases.iter().find(|c| c.id == "silu-grad-f64").expect("the case");
    check(case.status == Status::Failed, || format!("{:?}", case.message));
}
