//! Every wrong file in tests/mistakes/swiglu fails and is named as its own mistake, and nothing
//! else; every alternate in tests/alternates/swiglu passes. Graded in process through the
//! same client as `tutor check` (the built binary takes over when the generic protocol lands).

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

/// Asserts with the default panic hook back (the quiet one would swallow the message).
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
    let failed = report.cases.iter().filter(|c| c.status != Status::Passed);
    failed
        .map(|c| format!("{} [{:?}] {:?}: {:?}", c.id, c.status, c.mistake, c.message.as_ref().map(|m| &m.en)))
        .collect()
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
