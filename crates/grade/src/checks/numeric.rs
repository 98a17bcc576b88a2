//! Numeric contract: RMS statistics along the last axis, in FP32 (TODO 2).
//!
//! Each case is built so that one classic mistake gives a visibly wrong answer, not a panic.

use half::f16;
use ndarray::{ArrayD, IxDyn};

use super::data::tensor;
use super::{assert_close, Case, Failure, Outcome, Run};
use crate::report::Contract;
use crate::{mistakes, text};
use tutor_kit::{reference, Element};

/// The explicit FP32 reference and the learner's code sum in different orders: a few ulp apart.
const ATOL: f64 = 1e-6;
const RTOL: f64 = 1e-5;

pub fn cases() -> Vec<Case> {
    let case = |id, run| Case { contract: Contract::Numeric, id, run };
    vec![
        case("tutorial-case", tutorial_case),
        case("last-axis-only", last_axis_only),
        case("eps-inside-sqrt", eps_inside_sqrt),
        case("f16-squares-in-fp32", f16_squares_in_fp32),
        case("f16-long-row", f16_long_row),
        case("nan-stays-in-its-row", nan_stays_in_its_row),
        case("one-dimensional-input", one_dimensional_input),
        case("four-dimensional-input", four_dimensional_input),
        case("empty-batch", empty_batch),
        case("rejects-bad-input", rejects_bad_input),
    ]
}

/// Runs the learner's `norm` on `x` and compares it with the FP32 reference.
fn norm_matches_reference<T: Element>(run: &Run, x: &ArrayD<T>, eps: f32) -> Outcome {
    let hidden = *x.shape().last().expect("test inputs have a last axis");
    let norm = run.build(hidden, eps)?;
    let actual = super::call("norm(x)", norm.norm(x))?.mapv(f64::from);
    let expected = reference::rms_normalize(x, eps).expect("test inputs are valid").mapv(f64::from);
    assert_close("norm(x)", T::NAME, &actual, &expected, ATOL, RTOL).map_err(|failure| {
        let mistake = mistakes::identify(&actual, &expected, mistakes::wrong_norms(x, eps), ATOL, RTOL);
        failure.with_mistake(mistake)
    })
}

fn tutorial_case(run: &Run) -> Outcome {
    let x = tensor::<f32>(&[1, 2, 2], &[3.0, 4.0, 0.0, 0.0]);
    norm_matches_reference::<f32>(run, &x, 1e-6).map_err(|mut failure| {
        // The zero row is the point of this case: say so when it is what went wrong.
        let non_finite = failure.mismatch.as_ref().is_some_and(|m| m.actual.iter().any(|v| !v.is_finite()));
        if non_finite {
            failure.message = text::not_finite("norm(x)");
        }
        failure
    })
}

fn last_axis_only(run: &Run) -> Outcome {
    // Square, so statistics along the wrong axis still broadcast; rows at very different scales,
    // so they give different numbers.
    let mut rng = run.rng(2);
    let mut x: ArrayD<f32> = rng.normal_array(&[4, 4]);
    for (mut row, scale) in x.rows_mut().into_iter().zip([1.0, 10.0, 0.1, 100.0]) {
        row *= scale;
    }
    norm_matches_reference::<f32>(run, &x, 1e-6)
}

fn eps_inside_sqrt(run: &Run) -> Outcome {
    // mean(x²) = 1e-6 = eps: inside the root gives 1e-3/sqrt(2e-6) ≈ 0.7071, outside ≈ 0.9990.
    let x = tensor::<f32>(&[1, 4], &[1e-3, -1e-3, 1e-3, -1e-3]);
    norm_matches_reference::<f32>(run, &x, 1e-6)
}

fn f16_squares_in_fp32(run: &Run) -> Outcome {
    // 300² = 90000 overflows f16 (max 65504): squares taken in f16 turn the output into zeros.
    let x = tensor::<f16>(&[1, 4], &[300.0, -300.0, 300.0, -300.0]);
    norm_matches_reference::<f16>(run, &x, 1e-6)
}

fn f16_long_row(run: &Run) -> Outcome {
    // 4096 squares of 4.0 sum to 65536: past f16's range, and an f16 running sum stalls long before.
    let x = ArrayD::from_elem(IxDyn(&[1, 4096]), f16::from_f32(4.0));
    norm_matches_reference::<f16>(run, &x, 1e-6)
}

fn nan_stays_in_its_row(run: &Run) -> Outcome {
    let x = tensor::<f32>(&[3, 4], &[1.0, 2.0, 3.0, 4.0, f32::NAN, 1.0, 2.0, 3.0, -0.5, 0.25, 2.0, -1.0]);
    norm_matches_reference::<f32>(run, &x, 1e-6)
}

fn one_dimensional_input(run: &Run) -> Outcome {
    norm_matches_reference::<f32>(run, &run.rng(3).normal_array(&[5]), 1e-6)
}

fn four_dimensional_input(run: &Run) -> Outcome {
    norm_matches_reference::<f32>(run, &run.rng(4).normal_array(&[2, 2, 3, 6]), 1e-5)
}

fn empty_batch(run: &Run) -> Outcome {
    norm_matches_reference::<f32>(run, &ArrayD::zeros(IxDyn(&[0, 4])), 1e-6)
}

fn rejects_bad_input(run: &Run) -> Outcome {
    let norm = run.build(4, 1e-6)?;
    let wrong_width = ArrayD::<f32>::zeros(IxDyn(&[2, 5]));
    if norm.norm(&wrong_width).is_ok() {
        return Err(Failure::new(text::expected_error("norm(x) with x.shape = [2, 5], hidden_size = 4")));
    }
    let scalar = ArrayD::<f32>::zeros(IxDyn(&[]));
    if norm.norm(&scalar).is_ok() {
        return Err(Failure::new(text::expected_error("norm(x) with a 0-d x")));
    }
    if norm.forward(&wrong_width).is_ok() {
        return Err(Failure::new(text::expected_error("forward(x) with x.shape = [2, 5], hidden_size = 4")));
    }
    Ok(())
}
