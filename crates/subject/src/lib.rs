//! `tutor_subject`: the subject side below every course — the only code, besides a course's kit,
//! that runs next to a learner's file. It holds what every graded program needs whatever its
//! course: the [`Float`] element types, the frame format ([`frame`]) and the values on it
//! ([`wire`]), a course's declared calls and their server ([`course_protocol!`]; the work of
//! answering one, out of the code it generates: [`answer`]), the request loop and the refusal
//! of a kit's own answer ([`serve`]), [`Param`] of any rank, quiet panic capture ([`panics`])
//! the bilingual pair ([`text::Bi`]) and the tensor errors every course's error type extends
//! ([`tensor_error!`], [`TensorError`]).
//! It never decides a verdict. A course's kit (`courses/<id>/kit`) re-exports it, so exercise
//! files name one crate, `tutor_kit`.

pub mod answer;
mod declare;
mod float;
pub mod frame;
mod instantiate;
pub mod linear;
pub mod panics;
mod param;
#[cfg(unix)]
pub mod patient;
pub mod protocol;
mod rng;
pub mod serve;
mod tensor_error;
pub mod text;
mod warm;
pub mod wire;
mod wire_enum;

#[doc(hidden)]
pub use warm::instantiate as __instantiate_wire;

pub use float::Float;
pub use param::{GradShapeMismatch, Param};
pub use rng::Rng;
pub use tensor_error::{last_axis_mismatch, TensorError};

/// Re-exported so that kits, generated code and exercises can name them through one crate.
pub use half;
pub use ndarray;
pub use num_traits;
