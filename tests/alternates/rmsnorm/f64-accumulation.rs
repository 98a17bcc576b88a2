//! alternate: squares summed in f64 (read straight from T with `to_f64`), the mean square cast to f32, the rest in FP32

use ndarray::{Array1, ArrayD, Axis};
use tutor_kit::{reference, Float, NormError, Param};

pub struct RMSNorm {
    pub eps: f32,
    pub weight: Param,
}

impl RMSNorm {
    pub fn new(hidden_size: usize, eps: f32) -> Result<Self, NormError> {
        reference::check_config(hidden_size, eps)?;
        Ok(RMSNorm { eps, weight: Param::trainable(Array1::from_elem(hidden_size, 1.0)) })
    }

    pub fn norm<T: Float>(&self, x: &ArrayD<T>) -> Result<ArrayD<f32>, NormError> {
        reference::check_input(x, self.weight.len())?;
        let last = Axis(x.ndim() - 1);
        let mut out = ArrayD::<f32>::zeros(x.raw_dim());
        for (row, mut out_row) in x.lanes(last).into_iter().zip(out.lanes_mut(last)) {
            let sum_sq: f64 = row.iter().map(|v| v.to_f64() * v.to_f64()).sum();
            let mean_square = (sum_sq / row.len() as f64) as f32;
            let inv_rms = 1.0 / (mean_square + self.eps).sqrt();
            for (o, v) in out_row.iter_mut().zip(row.iter()) {
                *o = v.to_f32() * inv_rms;
            }
        }
        Ok(out)
    }

    pub fn forward<T: Float>(&self, x: &ArrayD<T>) -> Result<ArrayD<T>, NormError> {
        let normalized = self.norm(x)?;
        let scaled = &normalized * &self.weight.value;
        Ok(scaled.mapv(T::from_f32))
    }

    pub fn backward<T: Float>(&mut self, x: &ArrayD<T>, grad_out: &ArrayD<T>) -> Result<ArrayD<T>, NormError> {
        reference::backward(x, grad_out, self.eps, &mut self.weight)
    }
}
