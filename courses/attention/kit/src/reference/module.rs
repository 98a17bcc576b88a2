//! Answers: TODO 1, TODO 2, TODO 3, TODO 4. With chosen weights the module is attention, RoPE or the softmax.
//!
//! TODO 4's piece: Meta's attention module (bias-free projections, heads split and merged,
//! RoPE on q and k, grouped kv heads), and what building one takes.

use ndarray::{Array2, Array4, ArrayD};
use tutor_subject::serve::refuse_if_answer;

use super::attention::causal;
use super::heads::{merge_heads, split_heads};
use super::repeat_kv::repeat;
use super::rope::{frequencies, rotate};
use crate::{AttnError, Float, Param, Rng};

/// What `Attention::new` holds: the four weights, the head size, RoPE's frequencies and the
/// zeroed caches `[max_batch, n_kv_heads, max_seq_len, head_dim]`.
pub struct Built {
    /// `[n_heads·head_dim, dim]`.
    pub wq: Param,
    /// `[n_kv_heads·head_dim, dim]`.
    pub wk: Param,
    /// `[n_kv_heads·head_dim, dim]`.
    pub wv: Param,
    /// `[dim, n_heads·head_dim]`.
    pub wo: Param,
    /// `dim / n_heads`.
    pub head_dim: usize,
    /// `rope_frequencies(head_dim, theta, false)`.
    pub freqs: Vec<f64>,
    /// The keys' cache, zeros.
    pub cache_k: Array4<f32>,
    /// The values' cache, zeros.
    pub cache_v: Array4<f32>,
}

/// Checks the sizes and draws wq, wk, wv, wo from `U(−1/√in, 1/√in)` with `Rng::new(seed)`.
pub fn build(
    dim: usize,
    n_heads: usize,
    n_kv_heads: usize,
    max_batch: usize,
    max_seq_len: usize,
    theta: f64,
    seed: u64,
) -> Result<Built, AttnError> {
    let sizes = [("dim", dim), ("n_heads", n_heads), ("n_kv_heads", n_kv_heads), ("max_batch", max_batch)];
    for (what, size) in sizes.into_iter().chain([("max_seq_len", max_seq_len)]) {
        if size == 0 {
            return Err(AttnError::ZeroSize { what: what.into() });
        }
    }
    if !dim.is_multiple_of(n_heads) || !n_heads.is_multiple_of(n_kv_heads) {
        return Err(AttnError::Heads { n_heads, n_kv_heads });
    }
    let head_dim = dim / n_heads;
    let freqs = frequencies(head_dim, theta, false)?;
    let mut rng = Rng::new(seed);
    let mut draw = |rows: usize, cols: usize| {
        let bound = 1.0 / (cols as f32).sqrt();
        Param::trainable(Array2::from_shape_fn((rows, cols), |_| rng.uniform(-bound, bound)))
    };
    let kv = n_kv_heads * head_dim;
    let (wq, wk, wv, wo) = (draw(dim, dim), draw(kv, dim), draw(kv, dim), draw(dim, dim));
    let cache = Array4::zeros((max_batch, n_kv_heads, max_seq_len, head_dim));
    Ok(Built { wq, wk, wv, wo, head_dim, freqs, cache_k: cache.clone(), cache_v: cache })
}

/// A bias-free projection `x·Wᵀ` in `T` (FP32 sums, rounded once): given in every exercise.
pub fn linear<T: Float>(x: &ArrayD<T>, weight: &Param) -> Result<ArrayD<T>, AttnError> {
    let in_features = weight.value.ncols();
    tutor_subject::linear::project(x, &weight.value).ok_or_else(|| AttnError::ShapeMismatch {
        expected: vec![in_features],
        found: x.shape().last().map(|&n| vec![n]).unwrap_or_default(),
    })
}

/// The module's forward on `x` `[batch, seq, dim]` at positions 0.., without a cache.
pub fn attention_forward<T: Float>(
    x: &ArrayD<T>,
    weights: [&Param; 4],
    n_heads: usize,
    n_kv_heads: usize,
    freqs: &[f64],
) -> Result<ArrayD<T>, AttnError> {
    // Identity weights would let it answer RoPE (1), the softmax (2) or attention (3).
    refuse_if_answer("reference::attention_forward", &[4], &[1, 2, 3]);
    let (q, k, v) = project_heads(x, weights, n_heads, n_kv_heads, freqs, 0)?;
    let n_rep = n_heads / n_kv_heads;
    let heads = causal(&q, &repeat(&k, n_rep)?, &repeat(&v, n_rep)?)?;
    merge_and_project(&heads, weights[3])
}

/// q, k, v of a layer.
type Qkv<T> = (ArrayD<T>, ArrayD<T>, ArrayD<T>);

/// q `[b, n_heads, s, hd]` and k, v `[b, n_kv_heads, s, hd]` of `x`, RoPE on q and k at
/// start_pos.
pub(crate) fn project_heads<T: Float>(
    x: &ArrayD<T>,
    [wq, wk, wv, _]: [&Param; 4],
    n_heads: usize,
    n_kv_heads: usize,
    freqs: &[f64],
    start_pos: usize,
) -> Result<Qkv<T>, AttnError> {
    let [b, s, dim] = match *x.shape() {
        [b, s, dim] => [b, s, dim],
        _ => return Err(AttnError::Rank { expected: 3, found: x.shape().to_vec() }),
    };
    if dim != wq.value.ncols() {
        return Err(AttnError::ShapeMismatch { expected: vec![b, s, wq.value.ncols()], found: x.shape().to_vec() });
    }
    let q = split_heads(&linear(x, wq)?, n_heads)?;
    let k = split_heads(&linear(x, wk)?, n_kv_heads)?;
    let v = split_heads(&linear(x, wv)?, n_kv_heads)?;
    Ok((rotate(&q, start_pos, freqs)?, rotate(&k, start_pos, freqs)?, v))
}

/// `[b, n, s, hd]` → `[b, s, n·hd]`, then `·woᵀ`.
pub(crate) fn merge_and_project<T: Float>(heads: &ArrayD<T>, wo: &Param) -> Result<ArrayD<T>, AttnError> {
    linear(&merge_heads(heads)?, wo)
}
