//! exercise: 02-norm
//! mistake: layernorm
//! divides by the population standard deviation of the row.

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
        let mut out = x.mapv(|v| v.to_f32());
        let last = Axis(out.ndim() - 1);
        for mut row in out.lanes_mut(last) {
            let d = row.len() as f32;
            let mean = row.mean().unwrap_or(0.0);
            let var = row.fold(0.0f32, |acc, v| acc + (v - mean).powi(2)) / d;
            let scale = 1.0 / (var + self.eps).sqrt();
            row.mapv_inplace(|v| v * scale);
        }
        Ok(out)
    }

    pub fn forward<T: Float>(&self, x: &ArrayD<T>) -> Result<ArrayD<T>, NormError> {
        reference::check_input(x, self.weight.len())?;
        reference::scale_and_cast(&self.norm(x)?, &self.weight)
    }

    pub fn backward<T: Float>(&mut self, x: &ArrayD<T>, grad_out: &ArrayD<T>) -> Result<ArrayD<T>, NormError> {
        reference::backward(x, grad_out, self.eps, &mut self.weight)
    }
}
