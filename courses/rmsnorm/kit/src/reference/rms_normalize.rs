//! Answers: TODO 2.

use ndarray::ArrayD;

use crate::{Float, NormError};

/// `x / sqrt(mean(x²) + eps)` along the last axis, computed in FP32.
///
/// Every row (lane along the last axis) is one token's hidden vector; rows never mix.
pub fn rms_normalize<T: Float>(x: &ArrayD<T>, eps: f32) -> Result<ArrayD<f32>, NormError> {
    let last = super::last_axis(x)?;
    let mut out = x.mapv(T::to_f32);
    for mut row in out.lanes_mut(last) {
        let mean_square = row.iter().map(|v| v * v).sum::<f32>() / row.len() as f32;
        let inv_rms = 1.0 / (mean_square + eps).sqrt();
        row.mapv_inplace(|v| v * inv_rms);
    }
    Ok(out)
}
