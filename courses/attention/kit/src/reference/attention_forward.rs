//! Answers: TODO 1, TODO 2, TODO 3, TODO 4. With chosen weights the module is attention, RoPE or
//! the softmax.
//!
//! TODO 4's piece: Meta's attention module (bias-free projections, heads split and merged, RoPE
//! on q and k, grouped kv heads).

use ndarray::ArrayD;

use crate::{AttnError, Float, Param};

/// The module's forward on `x` `[batch, seq, dim]` at positions 0.., without a cache.
pub fn attention_forward<T: Float>(
    x: &ArrayD<T>,
    weights: [&Param; 4],
    n_heads: usize,
    n_kv_heads: usize,
    freqs: &[f64],
) -> Result<ArrayD<T>, AttnError> {
    let (q, k, v) = project_heads(x, weights, n_heads, n_kv_heads, freqs, 0)?;
    let n_rep = n_heads / n_kv_heads;
    let heads = super::attention(&q, &super::repeat_kv(&k, n_rep)?, &super::repeat_kv(&v, n_rep)?)?;
    merge_and_project(&heads, weights[3])
}

/// q `[b, n_heads, s, hd]` and k, v `[b, n_kv_heads, s, hd]` of `x`, RoPE on q and k at
/// start_pos.
#[allow(clippy::type_complexity)]
pub fn project_heads<T: Float>(
    x: &ArrayD<T>,
    [wq, wk, wv, _]: [&Param; 4],
    n_heads: usize,
    n_kv_heads: usize,
    freqs: &[f64],
    start_pos: usize,
) -> Result<(ArrayD<T>, ArrayD<T>, ArrayD<T>), AttnError> {
    let [b, s, dim] = match *x.shape() {
        [b, s, dim] => [b, s, dim],
        _ => return Err(AttnError::Rank { expected: 3, found: x.shape().to_vec() }),
    };
    if dim != wq.value.ncols() {
        return Err(AttnError::ShapeMismatch { expected: vec![b, s, wq.value.ncols()], found: x.shape().to_vec() });
    }
    let q = super::split_heads(&super::linear(x, wq)?, n_heads)?;
    let k = super::split_heads(&super::linear(x, wk)?, n_kv_heads)?;
    let v = super::split_heads(&super::linear(x, wv)?, n_kv_heads)?;
    Ok((super::rope(&q, start_pos, freqs)?, super::rope(&k, start_pos, freqs)?, v))
}

/// `[b, n, s, hd]` → `[b, s, n·hd]`, then `·woᵀ`.
pub fn merge_and_project<T: Float>(heads: &ArrayD<T>, wo: &Param) -> Result<ArrayD<T>, AttnError> {
    super::linear(&super::merge_heads(heads)?, wo)
}
