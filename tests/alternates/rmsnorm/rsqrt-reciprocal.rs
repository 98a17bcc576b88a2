//! alternate: rsqrt style: one reciprocal square root per row, then a multiply instead of a division

use ndarray::{Array1, ArrayD, Axis};
use tutor_kit::{reference, Float, NormError, Param};

pub struct RMSNorm {
    pub eps: f32,
    pub weight: Param,
}

impl RMSNorm {
    pub fn new(hidden_size: usize, eps: f32) -> Result<Self, NormError> {
        reference::check_config(hidden_size, eps)?;
        Ok(RMSNorm { eps, weight: Param::trainable(Array1::ones(hidden_size)) })
    }

    pub fn norm<T: Float>(&self, x: &ArrayD<T>) -> Result<ArrayD<f32>, NormError> {
        reference::check_input(x, self.weight.len())?;
        let last = Axis(x.ndim() - 1);
        let x32 = x.mapv(T::to_f32);
        let d = x32.len_of(last) as f32;
        let mean_square = x32.mapv(|v| v * v).sum_axis(last) / d;
        // torch.rsqrt(mean_square + eps), kept as [..., 1] for broadcasting.
        let inv_rms = mean_square.mapv(|ms| 1.0 / (ms + self.eps).sqrt()).insert_axis(last);
        Ok(x32 * &inv_rms)
    }

    pub fn forward<T: Float>(&self, x: &ArrayD<T>) -> Result<ArrayD<T>, NormError> {
        let scaled = self.norm(x)? * &self.weight.value;
        Ok(scaled.mapv(T::from_f32))
    }

    pub fn backward<T: Float>(&mut self, x: &ArrayD<T>, grad_out: &ArrayD<T>) -> Result<ArrayD<T>, NormError> {
        reference::backward(x, grad_out, self.eps, &mut self.weight)
    }
}
