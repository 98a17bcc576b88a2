//! The SwiGLU course's kit, which its exercise files know as `tutor_kit`: the types they build on
//! ([`Param`], [`Rng`], [`MlpError`], [`Float`]) and the given pieces of the exercises
//! ([`reference`]). It never decides a verdict: inputs, references, comparisons and names live
//! in the course's trusted grading crate (`courses/swiglu/grade`). The learner-facing API is
//! fixed in `docs/swiglu-api.md`.

mod error;
mod param;
pub mod reference;
mod rng;
pub mod text;

pub use error::MlpError;
pub use param::Param;
pub use rng::Rng;
pub use tutor_subject::{half, ndarray, Float};
