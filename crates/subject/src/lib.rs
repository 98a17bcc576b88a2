//! `tutor_subject`: the subject side below every course — the only code, besides a course's kit,
//! that runs next to a learner's file. It holds what every graded program needs whatever its
//! course: the [`Float`] element types, the frame format ([`frame`]), the descriptors tutor
//! passes ([`protocol`]), the request loop ([`serve`]), quiet panic capture ([`panics`]) and the
//! bilingual pair ([`text::Bi`]).
//! It never decides a verdict. A course's kit (`courses/<id>/kit`) re-exports it, so exercise
//! files name one crate, `tutor_kit`.

mod float;
pub mod frame;
pub mod panics;
pub mod protocol;
pub mod serve;
pub mod text;

pub use float::Float;

/// Re-exported so that kits, generated code and exercises can name them through one crate.
pub use half;
pub use ndarray;
pub use num_traits;
