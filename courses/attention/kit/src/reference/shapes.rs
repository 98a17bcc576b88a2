//! Answers: none.
//!
//! The shape checks the pieces share, and heads split from and merged into the model width:
//! given in every exercise.

use ndarray::{ArrayD, IxDyn};

use crate::{AttnError, Float};

/// The four axes `[batch, heads, seq, head_dim]` of `x`.
pub(crate) fn four<T>(x: &ArrayD<T>) -> Result<[usize; 4], AttnError> {
    match *x.shape() {
        [b, h, s, d] => Ok([b, h, s, d]),
        _ => Err(AttnError::Rank { expected: 4, found: x.shape().to_vec() }),
    }
}

/// `found` must equal `expected`.
pub(crate) fn same(expected: &[usize], found: &[usize]) -> Result<(), AttnError> {
    if expected == found {
        return Ok(());
    }
    Err(AttnError::ShapeMismatch { expected: expected.to_vec(), found: found.to_vec() })
}

/// An array of `shape` from its values in standard order.
pub(crate) fn array<V>(shape: &[usize], values: Vec<V>) -> ArrayD<V> {
    ArrayD::from_shape_vec(shape, values).expect("one value per element of the shape")
}

/// `[batch, seq, n·hd]` → `[batch, n, seq, hd]`.
pub fn split_heads<T: Float>(x: &ArrayD<T>, n_heads: usize) -> Result<ArrayD<T>, AttnError> {
    let &[b, s, width] = x.shape() else {
        return Err(AttnError::Rank { expected: 3, found: x.shape().to_vec() });
    };
    if n_heads == 0 || width % n_heads != 0 {
        return Err(AttnError::Heads { n_heads, n_kv_heads: n_heads });
    }
    let heads = x.to_shape(IxDyn(&[b, s, n_heads, width / n_heads])).expect("the heads split the width");
    Ok(heads.permuted_axes(IxDyn(&[0, 2, 1, 3])).as_standard_layout().into_owned())
}

/// `[batch, n, seq, hd]` → `[batch, seq, n·hd]`.
pub fn merge_heads<T: Float>(x: &ArrayD<T>) -> Result<ArrayD<T>, AttnError> {
    let &[b, n, s, hd] = x.shape() else {
        return Err(AttnError::Rank { expected: 4, found: x.shape().to_vec() });
    };
    let merged = x.view().permuted_axes(IxDyn(&[0, 2, 1, 3])).as_standard_layout().into_owned();
    Ok(merged.into_shape_with_order(IxDyn(&[b, s, n * hd])).expect("the heads fill the width"))
}
