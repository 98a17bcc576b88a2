//! The RMSNorm course's grading code, on the trusted side of tutor. It draws the inputs, calls the
//! learner's code through the course's declared calls ([`subject`]), computes references,
//! compares, names mistakes and decides every verdict. It runs only in tutor's own process (or a
//! test's), never next to learner code: a graded program can return wrong numbers, but it cannot
//! return a verdict.
//!
//! tutor knows it through [`COURSE`], registered in `courses/Cargo.toml`. The chapter layout:
//! [`cases`] (one module per exercise), [`mistakes`] (each with its text and hint, and the
//! diagnoses that name them), [`text`], [`oracle`].

pub mod cases;
pub mod mistakes;
pub mod oracle;
pub mod served;
pub mod text;

pub use tutor_grade::{evidence, report, Fault};

use tutor_grade::{Coaching, Failure, Run};
use tutor_kit::NormError;

use crate::subject::{RMSNorm, Subject};

tutor_grade::course! {
    /// The RMSNorm course, as tutor's registry knows it.
    pub struct RmsNorm;
    imports: [("NormError", "use tutor_kit::NormError;")];
    served: served::SERVED;

    fn by_property(&self, run: &Run) -> Option<&'static str> {
        mistakes::by_property(run)
    }

    fn before_evidence(&self, run: &Run) -> Option<&'static str> {
        mistakes::state_kept(run)
    }

    fn implied(&self) -> &'static [(&'static str, &'static str)] {
        mistakes::IMPLIED
    }

    fn coaching(&self) -> &'static [Coaching] {
        text::COACHING
    }
}

/// Builds layers in the learner's code: `run.build(hidden_size, eps)?` in a case, and
/// `run.new_layer(…)` in a diagnosis.
pub trait Build {
    /// `RMSNorm::new(hidden_size, eps)`, an `Err` turned into a failure.
    fn build(&self, hidden_size: usize, eps: f32) -> Result<RMSNorm<'_>, Failure>;
    /// `RMSNorm::new(hidden_size, eps)` as the learner's code answered it.
    fn new_layer(&self, hidden_size: usize, eps: f32) -> Result<RMSNorm<'_>, NormError>;
}

impl Build for Run<'_> {
    fn build(&self, hidden_size: usize, eps: f32) -> Result<RMSNorm<'_>, Failure> {
        let what = text::code(&format!("RMSNorm::new({hidden_size}, {eps:e})"));
        tutor_grade::returned(&what, self.new_layer(hidden_size, eps))
    }

    fn new_layer(&self, hidden_size: usize, eps: f32) -> Result<RMSNorm<'_>, NormError> {
        RMSNorm::new(&Subject::new(self.channel), hidden_size, eps)
    }
}
