//! Every wrong file in tests/mistakes/swiglu fails and is named as its own mistake, and nothing
//! else; every alternate in tests/alternates/swiglu passes. Graded in process through the
//! temporary adapter (the built binary takes over when the generic protocol lands).

use swiglu_grade::{in_process, run_all};
use tutor_grade::report::{Report, Status};

macro_rules! files {
    ($($module:ident, $subject:ident, $path:literal;)*) => {
        $(
            #[path = $path]
            #[allow(dead_code, clippy::all)]
            mod $module;
            in_process!($subject, $module);
        )*
    };
}

files! {
    mistake_backward_gate_up_swapped, MBackwardGateUpSwapped, "../../../../tests/mistakes/swiglu/backward-gate-up-swapped.rs";
    mistake_backward_grads_overwritten, MBackwardGradsOverwritten, "../../../../tests/mistakes/swiglu/backward-grads-overwritten.rs";
    mistake_backward_silu_grad_missing_term, MBackwardSiluGradMissingTerm, "../../../../tests/mistakes/swiglu/backward-silu-grad-missing-term.rs";
    mistake_block_gate_up_swapped, MBlockGateUpSwapped, "../../../../tests/mistakes/swiglu/block-gate-up-swapped.rs";
    mistake_block_rounds_once, MBlockRoundsOnce, "../../../../tests/mistakes/swiglu/block-rounds-once.rs";
    mistake_hidden_multiplier_after_rounding, MHiddenMultiplierAfterRounding, "../../../../tests/mistakes/swiglu/hidden-multiplier-after-rounding.rs";
    mistake_hidden_no_two_thirds, MHiddenNoTwoThirds, "../../../../tests/mistakes/swiglu/hidden-no-two-thirds.rs";
    mistake_hidden_rounded_down, MHiddenRoundedDown, "../../../../tests/mistakes/swiglu/hidden-rounded-down.rs";
    mistake_linear_bias, MLinearBias, "../../../../tests/mistakes/swiglu/linear-bias.rs";
    mistake_linear_low_precision_sum, MLinearLowPrecisionSum, "../../../../tests/mistakes/swiglu/linear-low-precision-sum.rs";
    mistake_linear_untransposed, MLinearUntransposed, "../../../../tests/mistakes/swiglu/linear-untransposed.rs";
    mistake_silu_exp_overflow, MSiluExpOverflow, "../../../../tests/mistakes/swiglu/silu-exp-overflow.rs";
    mistake_silu_is_gelu, MSiluIsGelu, "../../../../tests/mistakes/swiglu/silu-is-gelu.rs";
    mistake_silu_is_relu, MSiluIsRelu, "../../../../tests/mistakes/swiglu/silu-is-relu.rs";
    alternate_backward_explicit_loops, ABackwardExplicitLoops, "../../../../tests/alternates/swiglu/backward-explicit-loops.rs";
    alternate_hidden_python_floats, AHiddenPythonFloats, "../../../../tests/alternates/swiglu/hidden-python-floats.rs";
    alternate_linear_f64_accumulation, ALinearF64Accumulation, "../../../../tests/alternates/swiglu/linear-f64-accumulation.rs";
    alternate_linear_ndarray_dot, ALinearNdarrayDot, "../../../../tests/alternates/swiglu/linear-ndarray-dot.rs";
    alternate_pytorch_transliteration, APytorchTransliteration, "../../../../tests/alternates/swiglu/pytorch-transliteration.rs";
    alternate_silu_sigmoid_branches, ASiluSigmoidBranches, "../../../../tests/alternates/swiglu/silu-sigmoid-branches.rs";
}

/// Asserts with the default panic hook back (the quiet one would swallow the message).
fn check(condition: bool, message: impl FnOnce() -> String) {
    if !condition {
        drop(std::panic::take_hook());
        panic!("{}", message());
    }
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
        ("backward-gate-up-swapped", run_all(&MBackwardGateUpSwapped, 5)),
        ("backward-grads-overwritten", run_all(&MBackwardGradsOverwritten, 5)),
        ("backward-silu-grad-missing-term", run_all(&MBackwardSiluGradMissingTerm, 5)),
        ("block-gate-up-swapped", run_all(&MBlockGateUpSwapped, 5)),
        ("block-rounds-once", run_all(&MBlockRoundsOnce, 5)),
        ("hidden-multiplier-after-rounding", run_all(&MHiddenMultiplierAfterRounding, 5)),
        ("hidden-no-two-thirds", run_all(&MHiddenNoTwoThirds, 5)),
        ("hidden-rounded-down", run_all(&MHiddenRoundedDown, 5)),
        ("linear-bias", run_all(&MLinearBias, 5)),
        ("linear-low-precision-sum", run_all(&MLinearLowPrecisionSum, 5)),
        ("linear-untransposed", run_all(&MLinearUntransposed, 5)),
        ("silu-exp-overflow", run_all(&MSiluExpOverflow, 5)),
        ("silu-is-gelu", run_all(&MSiluIsGelu, 5)),
        ("silu-is-relu", run_all(&MSiluIsRelu, 5)),
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
            ("backward-explicit-loops", run_all(&ABackwardExplicitLoops, seed)),
            ("hidden-python-floats", run_all(&AHiddenPythonFloats, seed)),
            ("linear-f64-accumulation", run_all(&ALinearF64Accumulation, seed)),
            ("linear-ndarray-dot", run_all(&ALinearNdarrayDot, seed)),
            ("pytorch-transliteration", run_all(&APytorchTransliteration, seed)),
            ("silu-sigmoid-branches", run_all(&ASiluSigmoidBranches, seed)),
        ];
        for (name, report) in &reports {
            check(report.all_passed(), || format!("{name} seed {seed}: {:#?}", failures(report)));
        }
    }
}
