//! alternate: `fold_axis` accumulates the squares; in-place `*=` with broadcasting for both scalings

use ndarray::{Array1, ArrayD, Axis};
use tutor_kit::{reference, Float, NormError, Param};

pub struct RMSNorm {
    pub eps: f32,
    pub weight: Param,
}

impl RMSNorm {
    pub fn new(hidden_size: usize, eps: f32) -> Result<Self, NormError> {
        reference::check_config(hidden_size, eps)?;
        Ok(RMSNorm { eps, weight: Param::trainable(Array1::from_shape_fn(hidden_size, |_| 1.0)) })
    }

    pub fn norm<T: Float>(&self, x: &ArrayD<T>) -> Result<ArrayD<f32>, NormError> {
        reference::check_input(x, self.weight.len())?;
        let last = Axis(x.ndim() - 1);
        let d = x.len_of(last) as f32;
        let mut out = x.mapv(T::to_f32);
        let sum_sq = out.fold_axis(last, 0.0f32, |acc, v| acc + v * v);
        let inv_rms = sum_sq.mapv(|s| 1.0 / (s / d + self.eps).sqrt());
        out *= &inv_rms.insert_axis(last);
        Ok(out)
    }

    pub fn forward<T: Float>(&self, x: &ArrayD<T>) -> Result<ArrayD<T>, NormError> {
        reference::check_input(x, self.weight.len())?;
        let mut scaled = self.norm(x)?;
        scaled *= &self.weight.value;
        Ok(scaled.mapv(T::from_f32))
    }

    pub fn backward<T: Float>(&mut self, x: &ArrayD<T>, grad_out: &ArrayD<T>) -> Result<ArrayD<T>, NormError> {
        reference::backward(x, grad_out, self.eps, &mut self.weight)
    }
}
