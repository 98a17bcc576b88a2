//! The RMSNorm course's kit, which its exercise files know as `tutor_kit`: what they build on,
//! and the calls tutor makes into them.
//!
//! This is the course's *subject side*: with `tutor_subject` below it, the only code that runs
//! next to a learner's file. It holds what learner code needs (`Param`, `Float`, `NormError`, the
//! given pieces of the exercises) and declares the calls tutor makes ([`protocol!`]); serving
//! them is `tutor_subject`'s. It never decides a verdict: inputs, references, comparisons and
//! names all live in the course's trusted grading crate (`courses/rmsnorm/grade`), in tutor's own
//! process. tutor writes this crate's source into the grading harness, so it depends on
//! `tutor_subject`, `ndarray`, `half` and `num-traits` only, and a first check builds fast.

mod error;
// Only with the `reference` feature (on by default: the grader, the tests and the editor project):
// tutor's harness builds the kit without it and compiles into each exercise's graded program the
// given pieces that exercise names, and no other (see `docs/protocol.md`).
#[cfg(feature = "reference")]
pub mod reference;
pub mod text;
mod warm;

#[doc(hidden)]
pub use warm::instantiate as __instantiate_common_generics;

pub use error::NormError;
pub use tutor_subject::wire::Dtype as Element;
pub use tutor_subject::{panics, Float};

/// Re-exported so that generated code and exercises can name them through the kit.
pub use tutor_subject::{half, ndarray};

/// The per-feature scale γ: a learnable tensor of shape `[D]`.
pub type Param = tutor_subject::Param<ndarray::Ix1>;

tutor_subject::course_protocol! {
    crate;
    handles { RMSNorm }
    calls {
        #[grades(1)] 1 => RMSNorm::new(hidden_size: usize, eps: f32) -> Result<Self, NormError>;
        #[grades(2)] 2 => RMSNorm.norm<T>(&self, x: &ndarray::ArrayD<T>) -> Result<ndarray::ArrayD<f32>, NormError>;
        #[grades(3)] 3 => RMSNorm.forward<T>(&self, x: &ndarray::ArrayD<T>) -> Result<ndarray::ArrayD<T>, NormError>;
        #[grades(4)] 4 => RMSNorm.backward<T>(&mut self, x: &ndarray::ArrayD<T>, grad_out: &ndarray::ArrayD<T>) -> Result<ndarray::ArrayD<T>, NormError>;
        5 => RMSNorm.weight -> Param = get weight;
        6 => RMSNorm.set_weight(value: ndarray::Array1<f32>) = set weight.value;
        7 => RMSNorm.clear_grad() = call weight.clear_grad;
        8 => RMSNorm.eps -> f32 = get eps;
        9 => RMSNorm.set_requires_grad(value: bool) = set weight.requires_grad;
    }
}
