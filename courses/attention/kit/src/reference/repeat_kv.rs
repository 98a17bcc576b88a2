//! Answers: TODO 4.
//!
//! Part of TODO 4: Meta's `repeat_kv`.

use ndarray::{ArrayD, Axis};

use super::shapes::four;
use crate::{AttnError, Float};

/// `[b, n_kv, s, d]` → `[b, n_kv·n_rep, s, d]`: head h is kv head h / n_rep.
pub fn repeat_kv<T: Float>(x: &ArrayD<T>, n_rep: usize) -> Result<ArrayD<T>, AttnError> {
    let n_kv = four(x)?[1];
    if n_rep == 0 {
        return Err(AttnError::ZeroSize { what: "n_rep".into() });
    }
    let heads: Vec<usize> = (0..n_kv * n_rep).map(|h| h / n_rep).collect();
    Ok(x.select(Axis(1), &heads))
}
