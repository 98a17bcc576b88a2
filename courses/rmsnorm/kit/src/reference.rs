//! The reference maths, in FP32 (the backward in f64), written for clarity: the "given" pieces.
//!
//! Each exercise stub calls these for the parts the learner is *not* writing in that exercise,
//! and tutor's grader uses them as the "explicit FP32 reference" (it tests them against an f64
//! oracle). Inside a graded program, the piece that answers the exercise's own TODO refuses to
//! run: calling the kit's answer is not an answer (see [`KIT_ANSWER_MARKER`]).

use ndarray::{Array1, ArrayD, Axis};

use crate::{Float, NormError, Param};

pub use tutor_subject::text::KIT_ANSWER_MARKER;

use tutor_subject::serve::refuse_if_answer;

/// Rejects a zero `hidden_size` and an `eps` that is negative, NaN or infinite.
pub fn check_config(hidden_size: usize, eps: f32) -> Result<(), NormError> {
    if hidden_size == 0 {
        return Err(NormError::ZeroHiddenSize);
    }
    if !eps.is_finite() || eps < 0.0 {
        return Err(NormError::BadEps(eps));
    }
    Ok(())
}

/// Rejects a 0-d input and one whose last axis is not `hidden_size` long.
pub fn check_input<T>(x: &ArrayD<T>, hidden_size: usize) -> Result<(), NormError> {
    match x.shape().last() {
        None => Err(NormError::NoAxis),
        Some(&found) if found != hidden_size => Err(NormError::HiddenSizeMismatch { expected: hidden_size, found }),
        Some(_) => Ok(()),
    }
}

/// The per-feature scale γ: trainable, shape `[hidden_size]`, all ones (so a fresh layer only
/// normalises).
pub fn scale_parameter(hidden_size: usize) -> Param {
    refuse_if_answer("reference::scale_parameter", &[1], &[]);
    Param::trainable(Array1::ones(hidden_size))
}

/// `x / sqrt(mean(x²) + eps)` along the last axis, computed in FP32.
///
/// Every row (lane along the last axis) is one token's hidden vector; rows never mix.
pub fn rms_normalize<T: Float>(x: &ArrayD<T>, eps: f32) -> Result<ArrayD<f32>, NormError> {
    normalize(x, eps, "reference::rms_normalize")
}

// The refusals sit in the functions that compute, not only in the public names: a private
// function is still a symbol in the library, and code can link to it by name.
fn normalize<T: Float>(x: &ArrayD<T>, eps: f32, called_as: &str) -> Result<ArrayD<f32>, NormError> {
    refuse_if_answer(called_as, &[2], &[2]);
    let last = last_axis(x)?;
    let mut out = x.mapv(T::to_f32);
    for mut row in out.lanes_mut(last) {
        let mean_square = row.iter().map(|v| v * v).sum::<f32>() / row.len() as f32;
        let inv_rms = 1.0 / (mean_square + eps).sqrt();
        row.mapv_inplace(|v| v * inv_rms);
    }
    Ok(out)
}

/// `normalized ⊙ weight` in FP32, then rounded once to `T`.
pub fn scale_and_cast<T: Float>(normalized: &ArrayD<f32>, weight: &Param) -> Result<ArrayD<T>, NormError> {
    scale(normalized, weight, "reference::scale_and_cast")
}

fn scale<T: Float>(normalized: &ArrayD<f32>, weight: &Param, called_as: &str) -> Result<ArrayD<T>, NormError> {
    refuse_if_answer(called_as, &[3], &[2, 3]);
    check_input(normalized, weight.len())?;
    let last = Axis(normalized.ndim() - 1);
    let mut out = normalized.clone();
    for mut row in out.lanes_mut(last) {
        row *= &weight.value;
    }
    Ok(out.mapv(T::from_f32))
}

/// The whole forward pass: normalise in FP32, scale, round once to the input's type. With a
/// weight of ones and f32 input it is also `norm`, so it answers TODO 2 as well as TODO 3.
pub fn forward<T: Float>(x: &ArrayD<T>, eps: f32, weight: &Param) -> Result<ArrayD<T>, NormError> {
    refuse_if_answer("reference::forward", &[2, 3], &[2, 3]);
    check_input(x, weight.len())?;
    scale(&normalize(x, eps, "reference::forward")?, weight, "reference::forward")
}

/// Gradient of `sum(forward(x) ⊙ grad_out)`: returns `dx` (in `T`) and accumulates `dweight`
/// into `weight.grad` when the weight is trainable. Computed in f64 (what PyTorch does for a
/// double tensor), so that an f64 dx is the derived gradient to the last few ulp; dx is rounded
/// once to `T`, and dweight, summed in f64 over every row, once to f32.
///
/// With `r = 1/sqrt(mean(x²) + eps)`, `n = x·r` and `h = grad_out ⊙ γ` for one row of length D
/// (lesson 04's names, where g is `grad_out`): `dγ += Σ grad_out ⊙ n` and
/// `dx = r·(h − n·mean(h ⊙ n))`.
pub fn backward<T: Float>(
    x: &ArrayD<T>,
    grad_out: &ArrayD<T>,
    eps: f32,
    weight: &mut Param,
) -> Result<ArrayD<T>, NormError> {
    refuse_if_answer("reference::backward", &[4], &[2, 3]);
    check_input(x, weight.len())?;
    if x.shape() != grad_out.shape() {
        return Err(NormError::ShapeMismatch { expected: x.shape().to_vec(), found: grad_out.shape().to_vec() });
    }
    let last = last_axis(x)?;
    let (x64, upstream) = (x.mapv(T::to_f64), grad_out.mapv(T::to_f64));
    let (w, eps) = (weight.value.mapv(f64::from), f64::from(eps));
    let mut dx = ArrayD::<f64>::zeros(x.raw_dim());
    let mut dweight = Array1::<f64>::zeros(weight.len());
    let rows = x64.lanes(last).into_iter().zip(upstream.lanes(last)).zip(dx.lanes_mut(last));
    for ((x_row, up_row), mut dx_row) in rows {
        let d = x_row.len() as f64;
        let inv_rms = 1.0 / (x_row.dot(&x_row) / d + eps).sqrt();
        let n_row = &x_row * inv_rms;
        dweight += &(&up_row * &n_row);
        let h = &up_row * &w;
        let projection = h.dot(&n_row) / d;
        dx_row.assign(&((&h - &(&n_row * projection)) * inv_rms));
    }
    weight.accumulate_grad(&dweight.mapv(|v| v as f32))?;
    Ok(dx.mapv(T::from_f64))
}

fn last_axis<T>(x: &ArrayD<T>) -> Result<Axis, NormError> {
    if x.ndim() == 0 {
        return Err(NormError::NoAxis);
    }
    Ok(Axis(x.ndim() - 1))
}

#[cfg(test)]
mod tests {
    use super::*;
    use half::f16;
    use ndarray::{array, IxDyn};

    #[test]
    fn normalises_the_tutorial_case() {
        let x = array![[[3.0f32, 4.0], [0.0, 0.0]]].into_dyn();
        let y = rms_normalize(&x, 1e-6).unwrap();
        // rms([3, 4]) = sqrt(12.5) ≈ 3.5355
        assert!((y[[0, 0, 0]] - 0.848_528).abs() < 1e-5, "{y}");
        assert!((y[[0, 0, 1]] - 1.131_371).abs() < 1e-5, "{y}");
        assert_eq!(y[[0, 1, 0]], 0.0);
    }

    #[test]
    fn squares_in_fp32_survive_f16_inputs() {
        let x = array![300.0f32, -300.0, 300.0, -300.0].mapv(f16::from_f32).into_dyn();
        let y: ArrayD<f16> = forward(&x, 1e-6, &scale_parameter(4)).unwrap();
        assert_eq!(y.mapv(f16::to_f32), array![1.0f32, -1.0, 1.0, -1.0].into_dyn());
    }

    #[test]
    fn rejects_bad_configuration_and_inputs() {
        assert_eq!(check_config(0, 1e-6), Err(NormError::ZeroHiddenSize));
        assert!(check_config(4, -1.0).is_err());
        assert!(check_config(4, f32::NAN).is_err());
        assert!(check_config(4, 0.0).is_ok());
        let scalar = ArrayD::<f32>::zeros(IxDyn(&[]));
        assert_eq!(rms_normalize(&scalar, 1e-6), Err(NormError::NoAxis));
        let wrong = ArrayD::<f32>::zeros(IxDyn(&[2, 5]));
        assert_eq!(
            forward(&wrong, 1e-6, &scale_parameter(4)),
            Err(NormError::HiddenSizeMismatch { expected: 4, found: 5 })
        );
        let mut w = scale_parameter(5);
        let g = ArrayD::<f32>::zeros(IxDyn(&[3, 5]));
        assert!(matches!(backward(&wrong, &g, 1e-6, &mut w), Err(NormError::ShapeMismatch { .. })));
    }
}
