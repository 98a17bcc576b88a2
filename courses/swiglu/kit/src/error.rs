//! Typed errors of the SwiGLU API.

use crate::text::{self, Bi};

tutor_subject::tensor_error! {
    /// Why a layer could not be built, or could not run on an input: these, and the shared
    /// tensor errors (`NoAxis`, `ZeroSize { what }` naming `in_features`, `multiple_of`, …, and
    /// `ShapeMismatch`).
    #[derive(Debug, Clone, PartialEq)]
    pub enum MlpError {
        /// `ffn_dim_multiplier` was not finite, or not positive.
        BadMultiplier(f64) = 1,
        /// The input's last axis is not `in_features` long.
        FeatureMismatch { expected: usize, found: usize } = 3,
    }
}

impl MlpError {
    /// What went wrong, in each language.
    pub fn text(&self) -> Bi {
        match self {
            MlpError::BadMultiplier(m) => text::bad_multiplier(*m),
            MlpError::FeatureMismatch { expected, found } => {
                tutor_subject::last_axis_mismatch("in_features", *expected, *found)
            }
            shared => shared.tensor_text(),
        }
    }
}
