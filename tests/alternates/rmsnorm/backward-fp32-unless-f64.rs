//! alternate: backward in FP32 for f16, bf16 and f32 inputs (what PyTorch computes for those) and in f64 for f64 inputs, chosen by size_of::<T>()

use ndarray::{Array1, ArrayD, Axis};
use tutor_kit::{reference, Float, NormError, Param};

pub struct RMSNorm {
    pub eps: f32,
    pub weight: Param,
}

impl RMSNorm {
    pub fn new(hidden_size: usize, eps: f32) -> Result<Self, NormError> {
        reference::check_config(hidden_size, eps)?;
        Ok(RMSNorm { eps, weight: reference::scale_parameter(hidden_size) })
    }

    pub fn norm<T: Float>(&self, x: &ArrayD<T>) -> Result<ArrayD<f32>, NormError> {
        reference::check_input(x, self.weight.len())?;
        reference::rms_normalize(x, self.eps)
    }

    pub fn forward<T: Float>(&self, x: &ArrayD<T>) -> Result<ArrayD<T>, NormError> {
        reference::scale_and_cast(&self.norm(x)?, &self.weight)
    }

    pub fn backward<T: Float>(&mut self, x: &ArrayD<T>, grad_out: &ArrayD<T>) -> Result<ArrayD<T>, NormError> {
        reference::check_input(x, self.weight.len())?;
        if x.shape() != grad_out.shape() {
            return Err(NormError::ShapeMismatch { expected: x.shape().to_vec(), found: grad_out.shape().to_vec() });
        }
        if std::mem::size_of::<T>() == 8 {
            let (dx, dweight) = gradients(&x.mapv(|v| v.to_f64()), &grad_out.mapv(|v| v.to_f64()), &self.weight.value.mapv(f64::from), self.eps as f64);
            self.weight.accumulate_grad(&dweight.mapv(|v| v as f32))?;
            Ok(dx.mapv(T::from_f64))
        } else {
            let (dx, dweight) = gradients(&x.mapv(|v| v.to_f32()), &grad_out.mapv(|v| v.to_f32()), &self.weight.value, self.eps);
            self.weight.accumulate_grad(&dweight)?;
            Ok(dx.mapv(T::from_f32))
        }
    }
}

/// The derived gradients in the precision `F` (f32 or f64), one row of `x` at a time.
fn gradients<F: Float>(x: &ArrayD<F>, grad_out: &ArrayD<F>, weight: &Array1<F>, eps: F) -> (ArrayD<F>, Array1<F>) {
    let last = Axis(x.ndim() - 1);
    let d = F::from_f64(x.len_of(last) as f64);
    let mut dx = ArrayD::<F>::zeros(x.raw_dim());
    let mut dweight = Array1::<F>::zeros(weight.len());
    for ((x_row, g_row), mut dx_row) in x.lanes(last).into_iter().zip(grad_out.lanes(last)).zip(dx.lanes_mut(last)) {
        let mean_square = x_row.iter().fold(F::zero(), |s, &v| s + v * v) / d;
        // The square root of F's value, correctly rounded to F (an f64 root rounds right to f32).
        let r = F::one() / F::from_f64((mean_square + eps).to_f64().sqrt());
        let mut mean_hn = F::zero();
        for j in 0..x_row.len() {
            mean_hn = mean_hn + g_row[j] * weight[j] * x_row[j] * r;
        }
        let mean_hn = mean_hn / d;
        for j in 0..x_row.len() {
            let n = x_row[j] * r;
            dweight[j] = dweight[j] + g_row[j] * n;
            dx_row[j] = r * (g_row[j] * weight[j] - n * mean_hn);
        }
    }
    (dx, dweight)
}
