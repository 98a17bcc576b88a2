//! Answers: TODO 1.

use ndarray::ArrayD;

use crate::Float;

/// SiLU elementwise: computed in FP32, rounded once to `T`. NaN stays NaN.
pub fn silu<T: Float>(x: &ArrayD<T>) -> ArrayD<T> {
    x.mapv(|v| T::from_f32(silu_f32(v.to_f32())))
}

/// `x·σ(x) = x / (1 + e^(−x))` in FP32. At large negative x, e^(−x) overflows to +∞ and the
/// quotient is −0, the right limit; e^x / (1 + e^x) would be ∞/∞ = NaN at large positive x.
fn silu_f32(x: f32) -> f32 {
    x / (1.0 + (-x).exp())
}
