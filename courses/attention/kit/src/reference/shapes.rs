//! Answers: none.
//!
//! The shape checks the pieces share.

use ndarray::ArrayD;

use crate::AttnError;

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
