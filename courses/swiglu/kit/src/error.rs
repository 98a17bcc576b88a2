//! Typed errors of the SwiGLU API.

use std::fmt;

use crate::text::{self, Bi};

tutor_subject::wire_enum! {
    /// Why a layer could not be built, or could not run on an input.
    #[derive(Debug, Clone, PartialEq)]
    pub enum MlpError {
        /// A size that must be positive was 0; `what` names it (`in_features`, `multiple_of`, …).
        ZeroSize { what: String } = 0,
        /// `ffn_dim_multiplier` was not finite, or not positive.
        BadMultiplier(f64) = 1,
        /// A 0-d input: there is no feature axis.
        NoAxis = 2,
        /// The input's last axis is not `in_features` long.
        FeatureMismatch { expected: usize, found: usize } = 3,
        /// Two arrays that must have one shape (the output and its gradient; a weight and its
        /// gradient) do not.
        ShapeMismatch { expected: Vec<usize>, found: Vec<usize> } = 4,
    }
}

impl From<tutor_subject::GradShapeMismatch> for MlpError {
    fn from(e: tutor_subject::GradShapeMismatch) -> Self {
        MlpError::ShapeMismatch { expected: e.expected, found: e.found }
    }
}

impl MlpError {
    /// What went wrong, in each language.
    pub fn text(&self) -> Bi {
        match self {
            MlpError::ZeroSize { what } => text::zero_size(what),
            MlpError::BadMultiplier(m) => text::bad_multiplier(*m),
            MlpError::NoAxis => text::no_axis(),
            MlpError::FeatureMismatch { expected, found } => text::feature_mismatch(*expected, *found),
            MlpError::ShapeMismatch { expected, found } => text::shape_mismatch(expected, found),
        }
    }
}

impl fmt::Display for MlpError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let message = self.text();
        write!(f, "{} / {}", message.en, message.zh)
    }
}

impl std::error::Error for MlpError {}
