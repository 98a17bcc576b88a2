//! Answers: TODO 2, TODO 3, TODO 4. Its weight gradient is the normalised row (TODO 2), from
//! which the forward (TODO 3) follows.

use ndarray::{Array1, ArrayD};

use crate::{Float, NormError, Param};

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
    super::check_input(x, weight.len())?;
    if x.shape() != grad_out.shape() {
        return Err(NormError::ShapeMismatch { expected: x.shape().to_vec(), found: grad_out.shape().to_vec() });
    }
    let last = super::last_axis(x)?;
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
