//! Answers: TODO 1.

use ndarray::Array1;

use crate::Param;

/// The per-feature scale γ: trainable, shape `[hidden_size]`, all ones (so a fresh layer only
/// normalises).
pub fn scale_parameter(hidden_size: usize) -> Param {
    Param::trainable(Array1::ones(hidden_size))
}
