//! The graded contracts. Every case runs in isolation: a `todo!()`, a panic, an error or a dead
//! graded program fails that case with its message, and the others still run.

mod backward;
mod dtype;
mod forward_eps;
mod large;
mod numeric;
mod parameter;
mod shape;
mod ties;
mod weight_rounding;
pub mod width;

pub use parameter::KEPT_EPS;
pub use tutor_grade::outcome::install_quiet_panic_hook;
pub use tutor_grade::{assert_close, data, grading, is_close, unravel, Case, Failure, Outcome, Rng, Run};

use tutor_grade::cases;
use tutor_kit::NormError;

use crate::report::Contract;
use crate::subject::{RMSNorm, Subject};
use crate::text::{self, Bi};

/// The parameter: trainable, `[D]`, ones, gets a gradient.
pub const PARAMETER: Contract = Contract { id: "parameter", zh: "参数契约", en: "Parameter contract" };
/// The FP32 statistics along the last axis.
pub const NUMERIC: Contract = Contract { id: "numeric", zh: "数值契约", en: "Numeric contract" };
/// Low-precision inputs, output dtype and shape, gradients.
pub const DTYPE_GRADIENT: Contract =
    Contract { id: "dtype-gradient", zh: "dtype / 梯度契约", en: "Dtype / gradient contract" };

/// Builds layers in the learner's code: `run.build(hidden_size, eps)?` in a case.
pub trait Build {
    /// `RMSNorm::new(hidden_size, eps)`, an `Err` turned into a failure.
    fn build(&self, hidden_size: usize, eps: f32) -> Result<RMSNorm<'_>, Failure>;
    /// `RMSNorm::new(hidden_size, eps)` as the learner's code answered it.
    fn new_layer(&self, hidden_size: usize, eps: f32) -> Result<RMSNorm<'_>, NormError>;
}

impl Build for Run<'_> {
    fn build(&self, hidden_size: usize, eps: f32) -> Result<RMSNorm<'_>, Failure> {
        call(&text::code(&format!("RMSNorm::new({hidden_size}, {eps:e})")), self.new_layer(hidden_size, eps))
    }

    fn new_layer(&self, hidden_size: usize, eps: f32) -> Result<RMSNorm<'_>, NormError> {
        RMSNorm::new(&Subject::new(self.channel), hidden_size, eps)
    }
}

/// Every case of every contract, in the order they are shown, each with the TODOs it grades.
pub fn all_cases() -> Vec<Case> {
    // The parameter's and the dtype contract's cases say themselves which TODOs they grade.
    let mut cases = parameter::cases();
    cases.extend(grading(&[2], numeric::cases()));
    cases.extend(dtype::cases());
    cases.extend(grading(&[3], ties::cases()));
    cases.extend(grading(&[3], large::cases()));
    cases.extend(grading(&[3], forward_eps::cases()));
    cases.extend(grading(&[4], backward::cases()));
    // Last: a run whose time runs out here ends no other case.
    cases.extend(grading(&[4], width::cases()));
    cases
}

/// Unwraps a call's result, turning an unexpected `Err` into a failure.
fn call<V>(what: &Bi, result: Result<V, NormError>) -> Result<V, Failure> {
    tutor_grade::returned(what, result)
}
