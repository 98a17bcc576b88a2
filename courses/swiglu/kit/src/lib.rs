//! The SwiGLU course's kit, which its exercise files know as `tutor_kit`: the types they build on
//! ([`Param`], [`Rng`], [`MlpError`], [`Float`]), the given pieces of the exercises
//! ([`reference`]), and the declaration of the calls tutor makes into an exercise file (served
//! and called by the core crates; tutor's repository describes them in docs/protocol.md). It never
//! decides a verdict. The learner-facing API is the one the lessons and the exercise files' doc
//! comments state (`tutor lesson swiglu`; tutor's repository fixes it in docs/swiglu-api.md).

mod error;
// Only with the `reference` feature (on by default: the grader, the tests and the editor project):
// tutor's harness builds the kit without it and compiles into each exercise's graded program the
// given pieces that exercise names, and no other (see `docs/protocol.md`).
#[cfg(feature = "reference")]
pub mod reference;
pub mod text;

pub use error::MlpError;
pub use tutor_subject::{half, ndarray, Float, Rng};

/// A learnable 2-D tensor (a Linear's `[out, in]` weight): FP32 master value, accumulated grad.
pub type Param = tutor_subject::Param<ndarray::Ix2>;

tutor_subject::course_protocol! {
    crate;
    handles { Linear, FeedForward }
    calls {
        #[grades(1)] 1 => fn silu<T>(x: &ndarray::ArrayD<T>) -> ndarray::ArrayD<T>;
        #[grades(5)] 2 => fn silu_grad<T>(x: &ndarray::ArrayD<T>) -> ndarray::ArrayD<f64>;
        #[grades(3)] 3 => fn hidden_size(dim: usize, multiple_of: usize, ffn_dim_multiplier: Option<f64>) -> Result<usize, MlpError>;
        #[grades(2)] 4 => Linear::new(in_features: usize, out_features: usize, seed: u64) -> Result<Self, MlpError>;
        5 => Linear.weight -> Param = get weight;
        6 => Linear.set_weight(value: ndarray::Array2<f32>) = set weight.value;
        #[grades(2)] 7 => Linear.forward<T>(&self, x: &ndarray::ArrayD<T>) -> Result<ndarray::ArrayD<T>, MlpError>;
        8 => FeedForward::new(dim: usize, hidden: usize, seed: u64) -> Result<Self, MlpError>;
        9 => FeedForward.gate_weight -> Param = get gate.weight;
        10 => FeedForward.up_weight -> Param = get up.weight;
        11 => FeedForward.down_weight -> Param = get down.weight;
        12 => FeedForward.set_gate_weight(value: ndarray::Array2<f32>) = set gate.weight.value;
        13 => FeedForward.set_up_weight(value: ndarray::Array2<f32>) = set up.weight.value;
        14 => FeedForward.set_down_weight(value: ndarray::Array2<f32>) = set down.weight.value;
        15 => FeedForward.clear_grads() = call gate.weight.clear_grad, up.weight.clear_grad, down.weight.clear_grad;
        #[grades(4)] 16 => FeedForward.forward<T>(&self, x: &ndarray::ArrayD<T>) -> Result<ndarray::ArrayD<T>, MlpError>;
        #[grades(5)] 17 => FeedForward.backward<T>(&mut self, x: &ndarray::ArrayD<T>, grad_out: &ndarray::ArrayD<T>) -> Result<ndarray::ArrayD<T>, MlpError>;
        18 => FeedForward.set_gate_requires_grad(value: bool) = set gate.weight.requires_grad;
        19 => FeedForward.set_up_requires_grad(value: bool) = set up.weight.requires_grad;
        20 => FeedForward.set_down_requires_grad(value: bool) = set down.weight.requires_grad;
    }
}
