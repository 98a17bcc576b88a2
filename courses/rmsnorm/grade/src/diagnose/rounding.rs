//! Wrong roundings, from the bits: the ways of getting back to a half type that are not one
//! correct rounding of the FP32 result. Truncation and ties away from zero are in
//! [`crate::mistakes::HalfBits`]; this is the forward computed in the half type itself.

use ndarray::{ArrayD, Axis};
use tutor_kit::{Float, Param};

/// `forward` computed in `T` throughout, as `x * rsqrt(mean(x * x) + eps) * w` written on `T`
/// values: squares, running sum, root and products each rounded to `T`.
pub fn forward_in<T: Float>(x: &ArrayD<T>, eps: f32, weight: &Param) -> ArrayD<T> {
    let mut y = x.clone();
    if x.ndim() == 0 || x.shape().last() != Some(&weight.len()) {
        return y;
    }
    let last = Axis(x.ndim() - 1);
    let weight_t: Vec<T> = weight.value.iter().map(|&w| T::from_f32(w)).collect();
    for mut row in y.lanes_mut(last) {
        let d = T::from_f32(row.len() as f32);
        let sum = row.iter().fold(T::zero(), |acc, &v| acc + v * v);
        let root = T::from_f32((sum / d + T::from_f32(eps)).to_f32().sqrt());
        for (v, &w) in row.iter_mut().zip(&weight_t) {
            *v = *v / root * w;
        }
    }
    y
}
