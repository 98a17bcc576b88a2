//! Typed errors of the SwiGLU API.

use std::fmt;

use crate::text::{self, Bi};

/// Why a layer could not be built, or could not run on an input.
#[derive(Debug, Clone, PartialEq)]
pub enum MlpError {
    /// A size that must be positive was 0; `what` names it (`in_features`, `multiple_of`, …).
    ZeroSize {
        /// The argument's name.
        what: &'static str,
    },
    /// `ffn_dim_multiplier` was not finite, or not positive.
    BadMultiplier(f64),
    /// A 0-d input: there is no feature axis.
    NoAxis,
    /// The input's last axis is not `in_features` long.
    FeatureMismatch {
        /// The layer's `in_features`.
        expected: usize,
        /// The input's last axis.
        found: usize,
    },
    /// Two arrays that must have one shape (the output and its gradient; a weight and its
    /// gradient) do not.
    ShapeMismatch {
        /// The shape required.
        expected: Vec<usize>,
        /// The shape given.
        found: Vec<usize>,
    },
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
