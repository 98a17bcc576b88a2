//! The graded contracts, one module per exercise (weight 01, norm 02, forward 03, backward 04),
//! and what their cases share: the contracts, building layers with given weights, the edge inputs.
//! Every case runs in isolation: a `todo!()`, a panic, an error or a dead graded program fails
//! that case with its message, and the others still run.

mod backward;
mod forward;
mod norm;
mod weight;

pub use backward::width;
pub use tutor_grade::outcome::install_quiet_panic_hook;
pub use tutor_grade::{assert_close, data, grading, is_close, unravel, Case, Failure, Outcome, Rng, Run};
pub use weight::KEPT_EPS;

use ndarray::{Array1, ArrayD, IxDyn};
use tutor_grade::cases;
use tutor_grade::data::tensor;
pub(crate) use tutor_grade::rounding::Spacing;
use tutor_kit::{NormError, Param};

use crate::report::Contract;
use crate::subject::RMSNorm;
use crate::text::{self, Bi};
use crate::Build;

/// The parameter: trainable, `[D]`, ones, gets a gradient.
pub const PARAMETER: Contract = Contract { id: "parameter", zh: "参数契约", en: "Parameter contract" };
/// The FP32 statistics along the last axis.
pub const NUMERIC: Contract = Contract { id: "numeric", zh: "数值契约", en: "Numeric contract" };
/// Low-precision inputs, output dtype and shape, gradients.
pub const DTYPE_GRADIENT: Contract =
    Contract { id: "dtype-gradient", zh: "dtype / 梯度契约", en: "Dtype / gradient contract" };

/// Every case of every exercise, in the order they are shown, each with the TODOs it grades.
pub fn all() -> Vec<Case> {
    // The parameter's cases say themselves which TODOs they grade.
    let mut cases = weight::cases();
    cases.extend(grading(&[2], norm::cases()));
    cases.extend(forward::cases());
    cases.extend(backward::cases());
    cases
}

/// The first thing every comparison checks: a result of its input's shape (`tutor_grade`'s check:
/// anything else fails plainly, before any value is compared or any element indexed).
mod shape {
    pub(crate) use tutor_grade::compare::same_as_input;
}

/// Unwraps a call's result, turning an unexpected `Err` into a failure.
fn call<V>(what: &Bi, result: Result<V, NormError>) -> Result<V, Failure> {
    tutor_grade::returned(what, result)
}

/// Builds a layer with non-unit weights (so a forgotten or scalar weight shows); `exact_in`
/// rounds them to a narrower type first, for the cases about the output's rounding alone.
/// Returns the layer and the weight it now holds.
pub(super) fn weighted<'a>(
    run: &'a Run,
    hidden: usize,
    eps: f32,
    salt: u64,
    exact_in: Option<fn(f32) -> f32>,
) -> Result<(RMSNorm<'a>, Param), Failure> {
    let mut weights = run.rng(salt).weights(hidden);
    if let Some(round) = exact_in {
        weights.mapv_inplace(round);
    }
    with_weights(run, hidden, eps, weights)
}

/// Builds a layer and sets its weight to `weights`. Returns the layer and the weight it now holds.
pub(super) fn with_weights<'a>(
    run: &'a Run,
    hidden: usize,
    eps: f32,
    weights: Array1<f32>,
) -> Result<(RMSNorm<'a>, Param), Failure> {
    let mut norm = run.build(hidden, eps)?;
    norm.set_weight(weights);
    let weight = norm.weight();
    // The layer's own weight is what the references use: it must be one value per feature.
    if weight.value.len() != hidden {
        return Err(Failure::new(text::weight_shape(weight.value.shape(), hidden)));
    }
    Ok((norm, weight))
}

/// The edge inputs `norm` is graded on, for `forward` and `backward` too: a zero row, tiny
/// values and an ordinary row; a NaN row; one and four axes; an empty batch.
fn edge_inputs(run: &Run) -> Vec<ArrayD<f32>> {
    vec![
        tensor(&[3, 4], &[0.0, 0.0, 0.0, 0.0, 1e-4, -2e-4, 1e-4, 3e-4, 0.5, -1.5, 2.0, 0.25]),
        tensor(&[3, 4], &[1.0, 2.0, 3.0, 4.0, f32::NAN, 1.0, 2.0, 3.0, -0.5, 0.25, 2.0, -1.0]),
        run.rng(16).normal_array(&[4]),
        run.rng(17).normal_array(&[2, 2, 3, 4]),
        ArrayD::zeros(IxDyn(&[0, 4])),
    ]
}
