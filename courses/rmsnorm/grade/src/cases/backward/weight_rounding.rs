//! The weight gradient of an f64 backward, rounded once: summed in f64 from f64 terms, it lands on
//! the correctly rounded f32 of the f64 reference for every value but, rarely, one next to a
//! rounding boundary (another order of the f64 sums moves it by about 1e-16, an f32 half-step is
//! 3e-8). Terms built from FP32 values (the FP32 `norm(x)` instead of the f64 n, say) are each
//! about 6e-8 off, more once rows cancel, and a large share of the gradient's values land on
//! another f32. It runs after every other comparison of the gradient, which a gradient wrong by
//! more than such roundings fails first.

use ndarray::{Array1, ArrayD, Axis};
use tutor_grade::rounding::Agreement;
use tutor_kit::{reference, Param};

use crate::cases::{Failure, Outcome};
use crate::{oracle, text};

/// At most this share of the values may be a neighbour of the correctly rounded one.
const ALLOWED_SHARE: f64 = 0.05;

/// `after` (the layer's weight after one backward on `x` and `grad_out`, with no gradient before)
/// against the f64 reference's weight gradient rounded once to f32.
pub(super) fn rounded_once_from_f64(
    after: &Param,
    (x, grad_out): (&ArrayD<f64>, &ArrayD<f64>),
    weight: &[f64],
    eps: f32,
) -> Outcome {
    // A missing gradient is the parameter cases' finding, and the gradient's values the others'.
    let Some(dw) = after.grad.as_ref() else {
        return Ok(());
    };
    let (_, expected) = oracle::backward(x, grad_out, weight, f64::from(eps));
    let expected = Array1::from(expected).mapv(|v| v as f32).into_dyn();
    let dw = dw.clone().into_dyn();
    if dw.shape() != expected.shape() {
        return Ok(());
    }
    let agreement = Agreement::of(&dw, &expected);
    if agreement.differing as f64 <= ALLOWED_SHARE * agreement.total as f64 {
        return Ok(());
    }
    let failure = Failure::new(text::weight_gradient_not_from_f64(agreement.differing, agreement.total));
    // Named only when the values are those of the FP32 normalisation's terms: n without eps, say,
    // also moves them by such roundings, and is the evidence's to name.
    let from_fp32_norm = fp32_norm_gradient(x, grad_out, eps)
        .is_some_and(|candidate| Agreement::of(&dw, &candidate).differing as f64 <= ALLOWED_SHARE * dw.len() as f64);
    Err(failure.with_mistake(from_fp32_norm.then_some("weight-gradient-not-from-f64")))
}

/// The weight gradient summed in f64 from the FP32 normalisation (the kit's, as `self.norm(x)`
/// gives it) over the rows of `x` (2-D), narrowed to f32.
fn fp32_norm_gradient(x: &ArrayD<f64>, grad_out: &ArrayD<f64>, eps: f32) -> Option<ArrayD<f32>> {
    let normalized = reference::rms_normalize(x, eps).ok()?.mapv(f64::from);
    (x.ndim() == 2).then(|| (normalized * grad_out).sum_axis(Axis(0)).mapv(|v| v as f32))
}
