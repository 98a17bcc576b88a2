//! Answers: TODO 3.

use ndarray::{ArrayD, Axis};

use crate::{Float, NormError, Param};

/// `normalized ⊙ weight` in FP32, then rounded once to `T`.
pub fn scale_and_cast<T: Float>(normalized: &ArrayD<f32>, weight: &Param) -> Result<ArrayD<T>, NormError> {
    super::check_input(normalized, weight.len())?;
    let last = Axis(normalized.ndim() - 1);
    let mut out = normalized.clone();
    for mut row in out.lanes_mut(last) {
        row *= &weight.value;
    }
    Ok(out.mapv(T::from_f32))
}
