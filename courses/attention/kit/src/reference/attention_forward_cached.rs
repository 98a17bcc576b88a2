//! Answers: TODO 1, TODO 2, TODO 3, TODO 4, TODO 5. With chosen weights the cached forward is the module, attention, RoPE or the softmax.
//!
//! TODO 5's piece: the module's forward with its KV cache, at positions start_pos...

use ndarray::{s, Array4, ArrayD, Ix4};

use crate::{AttnError, Float, Param};

/// Rotated keys and values written at `[..b, :, start_pos..start_pos+s]`; the new queries attend
/// over the cache's first start_pos + s positions.
pub fn attention_forward_cached<T: Float>(
    x: &ArrayD<T>,
    start_pos: usize,
    weights: [&Param; 4],
    n_heads: usize,
    n_kv_heads: usize,
    freqs: &[f64],
    [cache_k, cache_v]: [&mut Array4<f32>; 2],
) -> Result<ArrayD<T>, AttnError> {
    let [b, s] = match *x.shape() {
        [b, s, _] => [b, s],
        _ => return Err(AttnError::Rank { expected: 3, found: x.shape().to_vec() }),
    };
    let (max_batch, _, max_seq, _) = cache_k.dim();
    if b > max_batch {
        return Err(AttnError::CacheOverflow { needed: b, capacity: max_batch });
    }
    if start_pos + s > max_seq {
        return Err(AttnError::CacheOverflow { needed: start_pos + s, capacity: max_seq });
    }
    let (q, k, v) = super::project_heads(x, weights, n_heads, n_kv_heads, freqs, start_pos)?;
    let end = start_pos + s;
    let read = |cache: &mut Array4<f32>, new: &ArrayD<T>| -> ArrayD<T> {
        let new = new.mapv(|v| v.to_f32()).into_dimensionality::<Ix4>().expect("four axes");
        cache.slice_mut(s![..b, .., start_pos..end, ..]).assign(&new);
        cache.slice(s![..b, .., ..end, ..]).mapv(T::from_f32).into_dyn()
    };
    let (keys, values) = (read(cache_k, &k), read(cache_v, &v));
    let n_rep = n_heads / n_kv_heads;
    let heads = super::attention(&q, &super::repeat_kv(&keys, n_rep)?, &super::repeat_kv(&values, n_rep)?)?;
    super::merge_and_project(&heads, weights[3])
}
