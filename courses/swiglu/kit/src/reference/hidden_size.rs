//! Answers: TODO 3.

use crate::MlpError;

/// LLaMA's FFN width: `int(2·(4·dim)/3)`, then `int(multiplier·h)`, then up to a multiple of
/// `multiple_of` (Meta's `FeedForward.__init__`).
pub fn hidden_size(dim: usize, multiple_of: usize, ffn_dim_multiplier: Option<f64>) -> Result<usize, MlpError> {
    if dim == 0 {
        return Err(MlpError::ZeroSize { what: "dim".into() });
    }
    if multiple_of == 0 {
        return Err(MlpError::ZeroSize { what: "multiple_of".into() });
    }
    let mut hidden = 2 * (4 * dim) / 3;
    if let Some(multiplier) = ffn_dim_multiplier {
        if !multiplier.is_finite() || multiplier <= 0.0 {
            return Err(MlpError::BadMultiplier(multiplier));
        }
        hidden = (multiplier * hidden as f64) as usize;
    }
    Ok(hidden.div_ceil(multiple_of) * multiple_of)
}
