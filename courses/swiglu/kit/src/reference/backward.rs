//! Answers: TODO 1, TODO 2, TODO 4, TODO 5. Its `down` gradient is `grad_outᵀ · (silu(g) ⊙ u)`:
//! with a one-hot grad_out, the block's product row, from which silu, a Linear or the forward
//! follow.

use ndarray::{Array2, ArrayD, Axis, Ix2};

use crate::{Float, MlpError, Param};

/// Gradient of `sum(feed_forward(x) ⊙ grad_out)`, in f64 from the `T` inputs and the FP32 master
/// weights: returns dx rounded once to `T`, and accumulates each weight's gradient (rounded to
/// FP32) into its `grad`.
pub fn backward<T: Float>(
    x: &ArrayD<T>,
    grad_out: &ArrayD<T>,
    gate: &mut Param,
    up: &mut Param,
    down: &mut Param,
) -> Result<ArrayD<T>, MlpError> {
    super::check_block(gate, up, down)?;
    super::check_features(x, gate.value.ncols())?;
    if grad_out.shape() != x.shape() {
        return Err(MlpError::ShapeMismatch { expected: x.shape().to_vec(), found: grad_out.shape().to_vec() });
    }
    let x64 = rows_f64(x);
    let upstream = rows_f64(grad_out);
    let [wg, wu, wd] = [&*gate, &*up, &*down].map(|p| p.value.mapv(f64::from));
    let g = x64.dot(&wg.t());
    let u = x64.dot(&wu.t());
    let a = g.mapv(|v| v / (1.0 + (-v).exp()));
    let dp = upstream.dot(&wd);
    let d_down = upstream.t().dot(&(&a * &u));
    let du = &dp * &a;
    let silu_grad = super::silu_grad(&g.clone().into_dyn()).into_dimensionality::<Ix2>().expect("two axes");
    let dg = &dp * &u * silu_grad;
    let d_gate = dg.t().dot(&x64);
    let d_up = du.t().dot(&x64);
    let dx = dg.dot(&wg) + du.dot(&wu);
    gate.accumulate_grad(&d_gate.mapv(|v| v as f32))?;
    up.accumulate_grad(&d_up.mapv(|v| v as f32))?;
    down.accumulate_grad(&d_down.mapv(|v| v as f32))?;
    Ok(ArrayD::from_shape_vec(x.shape(), dx.iter().map(|&v| T::from_f64(v)).collect()).expect("dx has x's shape"))
}

/// `x` as f64 rows `[rows, last]`.
fn rows_f64<T: Float>(x: &ArrayD<T>) -> Array2<f64> {
    let last = x.len_of(Axis(x.ndim() - 1));
    let rows = x.shape()[..x.ndim() - 1].iter().product();
    Array2::from_shape_vec((rows, last), x.iter().map(|v| v.to_f64()).collect())
        .expect("rows × last is x's element count")
        .into_dimensionality::<Ix2>()
        .expect("two axes")
}
