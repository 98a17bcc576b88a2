//! Answers: none. The checks the given methods start with.

use ndarray::ArrayD;

use crate::{MlpError, Param};

/// Rejects a zero `in_features` or `out_features`.
pub fn check_sizes(in_features: usize, out_features: usize) -> Result<(), MlpError> {
    if in_features == 0 {
        return Err(MlpError::ZeroSize { what: "in_features".into() });
    }
    if out_features == 0 {
        return Err(MlpError::ZeroSize { what: "out_features".into() });
    }
    Ok(())
}

/// Rejects a 0-d input and one whose last axis is not `in_features` long.
pub fn check_features<T>(x: &ArrayD<T>, in_features: usize) -> Result<(), MlpError> {
    match x.shape().last() {
        None => Err(MlpError::NoAxis),
        Some(&found) if found != in_features => Err(MlpError::FeatureMismatch { expected: in_features, found }),
        Some(_) => Ok(()),
    }
}

/// Gate and up must have one shape `[hidden, dim]`, and down `[dim, hidden]`.
pub(crate) fn check_block(gate: &Param, up: &Param, down: &Param) -> Result<(), MlpError> {
    if up.value.shape() != gate.value.shape() {
        return Err(MlpError::ShapeMismatch {
            expected: gate.value.shape().to_vec(),
            found: up.value.shape().to_vec(),
        });
    }
    let transposed = [gate.value.ncols(), gate.value.nrows()];
    if down.value.shape() != transposed {
        return Err(MlpError::ShapeMismatch { expected: transposed.to_vec(), found: down.value.shape().to_vec() });
    }
    Ok(())
}
