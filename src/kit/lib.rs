//! `tutor_kit`: what the RMSNorm exercises build on and are graded by.
//!
//! The same source is compiled twice: into the `tutor` package (for its own tests) and, written
//! out at check time, into the private grading harness next to the learner's file. It therefore
//! depends on `ndarray`, `half` and `num-traits` only, so a learner's first check builds fast.

pub mod checks;
mod error;
mod float;
pub mod harness;
pub mod mistakes;
pub mod oracle;
mod param;
pub mod reference;
pub mod report;
pub mod text;

pub use error::NormError;
pub use float::Float;
pub use param::Param;

/// Re-exported so that generated code and exercises can name it through the kit.
pub use ndarray;

/// Wraps an exercise's `RMSNorm` in a new type that implements [`checks::Subject`].
///
/// The wrapper (rather than implementing the trait on the learner's type directly) makes every
/// call resolve to the learner's inherent methods: a method that is missing from the file is a
/// compile error, never a silent call into the trait itself.
#[macro_export]
macro_rules! graded_subject {
    ($wrapper:ident, $exercise:path) => {
        struct $wrapper($exercise);

        impl $crate::checks::Subject for $wrapper {
            fn new(hidden_size: usize, eps: f32) -> Result<Self, $crate::NormError> {
                <$exercise>::new(hidden_size, eps).map($wrapper)
            }
            fn norm<T: $crate::Float>(
                &self,
                x: &$crate::ndarray::ArrayD<T>,
            ) -> Result<$crate::ndarray::ArrayD<f32>, $crate::NormError> {
                self.0.norm(x)
            }
            fn forward<T: $crate::Float>(
                &self,
                x: &$crate::ndarray::ArrayD<T>,
            ) -> Result<$crate::ndarray::ArrayD<T>, $crate::NormError> {
                self.0.forward(x)
            }
            fn backward<T: $crate::Float>(
                &mut self,
                x: &$crate::ndarray::ArrayD<T>,
                grad_out: &$crate::ndarray::ArrayD<T>,
            ) -> Result<$crate::ndarray::ArrayD<T>, $crate::NormError> {
                self.0.backward(x, grad_out)
            }
            fn eps(&self) -> f32 {
                self.0.eps
            }
            fn weight(&self) -> &$crate::Param {
                &self.0.weight
            }
            fn weight_mut(&mut self) -> &mut $crate::Param {
                &mut self.0.weight
            }
        }
    };
}
