//! Answers: TODO 2, TODO 3. With v the identity, attention returns the softmax of the scores.
//!
//! TODO 3's piece: causal attention on Meta's dtype path.

use ndarray::ArrayD;

use super::shapes::{array, four, same};
use crate::{AttnError, Float};

/// `softmax(q·kᵀ/√d + mask)·v`, query i seeing key j iff j ≤ i + (seq_k − seq_q): scores `q·kᵀ`
/// with FP32 sums rounded to `T`, divided by √d in `T`; masked; softmax in FP32 rounded to `T`;
/// then `probs·v` with FP32 sums rounded to `T`.
pub fn attention<T: Float>(q: &ArrayD<T>, k: &ArrayD<T>, v: &ArrayD<T>) -> Result<ArrayD<T>, AttnError> {
    let [b, h, sq, d] = four(q)?;
    let sk = four(k)?[2];
    same(&[b, h, sk, d], k.shape())?;
    same(k.shape(), v.shape())?;
    if sk < sq {
        return Err(AttnError::FewerKeys { queries: sq, keys: sk });
    }
    let offset = sk - sq;
    let scale = (d as f64).sqrt() as f32;
    let wide = |a: &ArrayD<T>| a.iter().map(|x| x.to_f32()).collect::<Vec<f32>>();
    let (q, k, v) = (wide(q), wide(k), wide(v));
    let mut out = Vec::with_capacity(q.len());
    for head in 0..b * h {
        let (qh, kh, vh) = (&q[head * sq * d..], &k[head * sk * d..], &v[head * sk * d..]);
        let mut scores = Vec::with_capacity(sq * sk);
        for i in 0..sq {
            scores.extend((0..sk).map(|j| match j > i + offset {
                true => T::from_f32(f32::NEG_INFINITY),
                false => T::from_f32(T::from_f32((0..d).map(|e| qh[i * d + e] * kh[j * d + e]).sum()).to_f32() / scale),
            }));
        }
        let probs = wide(&super::softmax(&array(&[sq, sk], scores))?);
        for i in 0..sq {
            for e in 0..d {
                out.push(T::from_f32((0..sk).map(|j| probs[i * sk + j] * vh[j * d + e]).sum()));
            }
        }
    }
    Ok(array(&[b, h, sq, d], out))
}
