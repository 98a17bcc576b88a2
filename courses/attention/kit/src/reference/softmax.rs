//! Answers: TODO 2.
//!
//! TODO 2's pieces: the softmax and log-sum-exp over the last axis, in FP32 with the maximum
//! subtracted.

use ndarray::ArrayD;

use super::shapes::array;
use crate::{AttnError, Float};

/// Softmax over the last axis, rounded once to `T`; a row −∞ throughout is all 0.
pub fn softmax<T: Float>(x: &ArrayD<T>) -> Result<ArrayD<T>, AttnError> {
    let last = last_axis(x)?;
    let rows: Vec<f32> = x.iter().map(|v| v.to_f32()).collect();
    let out = rows.chunks(last.max(1)).flat_map(softmax_f32).map(T::from_f32).collect();
    Ok(array(x.shape(), out))
}

/// log Σ exp over the last axis (removed), rounded once to `T`.
pub fn log_sum_exp<T: Float>(x: &ArrayD<T>) -> Result<ArrayD<T>, AttnError> {
    let last = last_axis(x)?;
    let shape = x.shape()[..x.ndim() - 1].to_vec();
    let rows: Vec<f32> = x.iter().map(|v| v.to_f32()).collect();
    let out = if last == 0 {
        vec![T::from_f32(f32::NEG_INFINITY); shape.iter().product()]
    } else {
        rows.chunks(last).map(|row| T::from_f32(lse_f32(row))).collect()
    };
    Ok(array(&shape, out))
}

fn last_axis<T>(x: &ArrayD<T>) -> Result<usize, AttnError> {
    x.shape().last().copied().ok_or(AttnError::Rank { expected: 1, found: Vec::new() })
}

/// One row's softmax in FP32: NaN or +∞ anywhere makes it NaN, −∞ throughout makes it 0.
fn softmax_f32(row: &[f32]) -> Vec<f32> {
    if row.iter().any(|v| v.is_nan() || *v == f32::INFINITY) {
        return vec![f32::NAN; row.len()];
    }
    let max = row.iter().copied().fold(f32::NEG_INFINITY, f32::max);
    if max == f32::NEG_INFINITY {
        return vec![0.0; row.len()];
    }
    let e: Vec<f32> = row.iter().map(|v| (v - max).exp()).collect();
    let sum: f32 = e.iter().sum();
    e.iter().map(|v| v / sum).collect()
}

fn lse_f32(row: &[f32]) -> f32 {
    if row.iter().any(|v| v.is_nan()) {
        return f32::NAN;
    }
    let max = row.iter().copied().fold(f32::NEG_INFINITY, f32::max);
    if max.is_infinite() {
        return max;
    }
    max + row.iter().map(|v| (v - max).exp()).sum::<f32>().ln()
}
