//! The RMSNorm course's kit, which its exercise files know as `tutor_kit`: what they build on,
//! and the request loop of the graded program.
//!
//! This is the course's *subject side*: with `tutor_subject` below it, the only code that runs
//! next to a learner's file. It holds what learner code needs (`Param`, `Float`, `NormError`, the
//! given pieces of the exercises) and the loop that answers tutor's requests ([`serve`]). It never
//! decides a verdict: inputs, references, comparisons and names all live in the course's trusted
//! grading crate (`courses/rmsnorm/grade`), in tutor's own process. tutor writes this crate's
//! source into the grading harness, so it depends on `tutor_subject`, `ndarray`, `half` and
//! `num-traits` only, and a first check builds fast.

mod error;
pub mod layer;
mod param;
pub mod reference;
pub mod serve;
pub mod text;
mod warm;

#[doc(hidden)]
pub use warm::instantiate as __instantiate_common_generics;
pub mod wire;

pub use error::NormError;
pub use layer::{Build, Element, Layer};
pub use param::Param;
pub use tutor_subject::{panics, Float};

/// Re-exported so that generated code and exercises can name them through the kit.
pub use tutor_subject::{half, ndarray};

/// Wraps an exercise's `RMSNorm` in a new type that implements [`Layer`], with a `build`
/// function (a [`Build`]) that calls the learner's `new`.
///
/// The wrapper (rather than implementing the trait on the learner's type directly) makes every
/// call resolve to the learner's inherent methods: a method that is missing from the file is a
/// compile error, never a silent call into the trait itself.
#[macro_export]
macro_rules! graded_subject {
    (@element $t:ty, $norm:ident, $forward:ident, $backward:ident) => {
        fn $norm(&self, x: &$crate::ndarray::ArrayD<$t>) -> Result<$crate::ndarray::ArrayD<f32>, $crate::NormError> {
            self.0.norm(x)
        }
        fn $forward(&self, x: &$crate::ndarray::ArrayD<$t>) -> Result<$crate::ndarray::ArrayD<$t>, $crate::NormError> {
            self.0.forward(x)
        }
        fn $backward(
            &mut self,
            x: &$crate::ndarray::ArrayD<$t>,
            grad_out: &$crate::ndarray::ArrayD<$t>,
        ) -> Result<$crate::ndarray::ArrayD<$t>, $crate::NormError> {
            self.0.backward(x, grad_out)
        }
    };
    ($wrapper:ident, $exercise:path) => {
        struct $wrapper($exercise);

        impl $wrapper {
            #[allow(dead_code)]
            fn build(hidden_size: usize, eps: f32) -> Result<Box<dyn $crate::Layer>, $crate::NormError> {
                <$exercise>::new(hidden_size, eps).map(|layer| Box::new($wrapper(layer)) as Box<dyn $crate::Layer>)
            }
        }

        impl $crate::Layer for $wrapper {
            $crate::graded_subject!(@element f32, norm_f32, forward_f32, backward_f32);
            $crate::graded_subject!(@element f64, norm_f64, forward_f64, backward_f64);
            $crate::graded_subject!(@element $crate::half::f16, norm_f16, forward_f16, backward_f16);
            $crate::graded_subject!(@element $crate::half::bf16, norm_bf16, forward_bf16, backward_bf16);
            fn eps(&self) -> f32 {
                self.0.eps
            }
            fn weight(&self) -> $crate::Param {
                self.0.weight.clone()
            }
            fn set_weight(&mut self, value: $crate::ndarray::Array1<f32>) {
                self.0.weight.value = value;
            }
            fn clear_grad(&mut self) {
                self.0.weight.clear_grad();
            }
        }
    };
}

/// The graded program's `main` for one exercise: wraps the exercise module's `RMSNorm` and
/// answers tutor's requests, with the kit's own answer to TODO `$todo` refusing to run. tutor's
/// harness writes `tutor_kit::graded_main!(exercise, 2)` for every course; this is the RMSNorm
/// course's meaning of it.
#[macro_export]
macro_rules! graded_main {
    ($exercise:ident, $todo:expr) => {{
        $crate::graded_subject!(Graded, $exercise::RMSNorm);
        $crate::serve::serve(Graded::build, $todo)
    }};
}
