//! Answers: none. The checks every exercise's given methods start with.

use ndarray::{ArrayD, Axis};

use crate::NormError;

/// Rejects a zero `hidden_size` and an `eps` that is negative, NaN or infinite.
pub fn check_config(hidden_size: usize, eps: f32) -> Result<(), NormError> {
    if hidden_size == 0 {
        return Err(NormError::ZeroHiddenSize);
    }
    if !eps.is_finite() || eps < 0.0 {
        return Err(NormError::BadEps(eps));
    }
    Ok(())
}

/// Rejects a 0-d input and one whose last axis is not `hidden_size` long.
pub fn check_input<T>(x: &ArrayD<T>, hidden_size: usize) -> Result<(), NormError> {
    match x.shape().last() {
        None => Err(NormError::NoAxis),
        Some(&found) if found != hidden_size => Err(NormError::HiddenSizeMismatch { expected: hidden_size, found }),
        Some(_) => Ok(()),
    }
}

/// The last axis of `x`, or `NoAxis` for a 0-d array.
pub(crate) fn last_axis<T>(x: &ArrayD<T>) -> Result<Axis, NormError> {
    if x.ndim() == 0 {
        return Err(NormError::NoAxis);
    }
    Ok(Axis(x.ndim() - 1))
}
