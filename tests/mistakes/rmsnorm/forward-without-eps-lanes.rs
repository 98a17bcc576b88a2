//! exercise: 03-forward
//! mistake: forward-without-eps
//! a fused forward loop that normalises each row itself with `1 / sqrt(mean(x²))`, eps left out.

#![allow(dead_code)]

use ndarray::{ArrayD, Axis};
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
        reference::check_input(x, self.weight.len())?;
        let last = Axis(x.ndim() - 1);
        let mut out = x.mapv(|v| v.to_f32());
        for mut row in out.lanes_mut(last) {
            let mean_square = row.iter().map(|v| v * v).sum::<f32>() / row.len() as f32;
            let inv_rms = 1.0 / mean_square.sqrt();
            row.zip_mut_with(&self.weight.value, |v, &w| *v = *v * inv_rms * w);
        }
        Ok(out.mapv(T::from_f32))
    }

    pub fn backward<T: Float>(&mut self, x: &ArrayD<T>, grad_out: &ArrayD<T>) -> Result<ArrayD<T>, NormError> {
        reference::backward(x, grad_out, self.eps, &mut self.weight)
    }
}
