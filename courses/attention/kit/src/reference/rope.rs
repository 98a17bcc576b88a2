//! Answers: TODO 1.
//!
//! TODO 1's pieces: Meta's rotation frequencies (with LLaMA 3.1's scaling) and RoPE on
//! consecutive pairs.

use ndarray::ArrayD;

use super::shapes::{array, four};
use crate::{AttnError, Float};

/// `θ^(−2i/head_dim)` for i < head_dim/2, in f64; with `llama31`, LLaMA 3.1's scaling.
pub fn rope_frequencies(head_dim: usize, theta: f64, llama31: bool) -> Result<Vec<f64>, AttnError> {
    if head_dim == 0 {
        return Err(AttnError::ZeroSize { what: "head_dim".into() });
    }
    if head_dim % 2 == 1 {
        return Err(AttnError::OddHeadDim(head_dim));
    }
    if !theta.is_finite() || theta <= 1.0 {
        return Err(AttnError::BadTheta(theta));
    }
    let base = (0..head_dim / 2).map(|i| theta.powf(-((2 * i) as f64) / head_dim as f64));
    Ok(if llama31 { base.map(scaled).collect() } else { base.collect() })
}

/// Meta's `apply_scaling` (factor 8, low 1, high 4, original context 8192): short wavelengths
/// kept, long ones stretched 8 times, the ones between blended.
fn scaled(f: f64) -> f64 {
    let (factor, low, high, context) = (8.0, 1.0, 4.0, 8192.0);
    let wavelength = 2.0 * std::f64::consts::PI / f;
    if wavelength < context / high {
        f
    } else if wavelength > context / low {
        f / factor
    } else {
        let smooth = (context / wavelength - low) / (high - low);
        (1.0 - smooth) * f / factor + smooth * f
    }
}

/// RoPE on `[batch, heads, seq, head_dim]`, the row at seq index t at position start_pos + t:
/// each pair `(2i, 2i+1)` rotated by `p·freqs[i]` in f64, rounded once to `T`.
pub fn rope<T: Float>(x: &ArrayD<T>, start_pos: usize, freqs: &[f64]) -> Result<ArrayD<T>, AttnError> {
    let [_, _, seq, d] = four(x)?;
    if d % 2 == 1 {
        return Err(AttnError::OddHeadDim(d));
    }
    if freqs.len() != d / 2 {
        return Err(AttnError::ShapeMismatch { expected: vec![d / 2], found: vec![freqs.len()] });
    }
    let values: Vec<f64> = x.iter().map(|v| v.to_f64()).collect();
    let mut out = Vec::with_capacity(values.len());
    for (r, row) in values.chunks(d.max(1)).enumerate() {
        let position = (start_pos + r % seq) as f64;
        for (pair, f) in row.chunks(2).zip(freqs) {
            let (sin, cos) = (position * f).sin_cos();
            out.push(T::from_f64(pair[0] * cos - pair[1] * sin));
            out.push(T::from_f64(pair[0] * sin + pair[1] * cos));
        }
    }
    Ok(array(x.shape(), out))
}
