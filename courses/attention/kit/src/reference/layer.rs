//! Answers: none.
//!
//! What `Attention::new` holds and how it is built, and the bias-free projection: given in every
//! exercise. The frequencies come from the RoPE piece, absent from 01-rope's program.

use ndarray::{Array2, Array4, ArrayD};

use crate::__tutor_subject::linear::project;
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
    let freqs = super::rope::rope_frequencies(head_dim, theta, false)?;
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

/// A bias-free projection `x·Wᵀ` in `T` (FP32 sums, rounded once).
pub fn linear<T: Float>(x: &ArrayD<T>, weight: &Param) -> Result<ArrayD<T>, AttnError> {
    let in_features = weight.value.ncols();
    project(x, &weight.value).ok_or_else(|| AttnError::ShapeMismatch {
        expected: vec![in_features],
        found: x.shape().last().map(|&n| vec![n]).unwrap_or_default(),
    })
}
