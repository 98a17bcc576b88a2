//! exercise: 02-norm
//! mistake: double-rounding
//! norm rounds its FP32 result to T before returning it, so forward rounds twice: the normalised values to T, then the product.

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
            let mean_square = row.iter().map(|v| v * v).sum::<f32>() / row.len() as f32;
            let scale = 1.0 / (mean_square + self.eps).sqrt();
            // "Keep the input's precision": each value rounded to T on its way out.
            row.mapv_inplace(|v| T::from_f32(v * scale).to_f32());
        }
        Ok(out)
    }

    pub fn forward<T: Float>(&self, x: &ArrayD<T>) -> Result<ArrayD<T>, NormError> {
        reference::scale_and_cast(&self.norm(x)?, &self.weight)
    }

    pub fn backward<T: Float>(&mut self, x: &ArrayD<T>, grad_out: &ArrayD<T>) -> Result<ArrayD<T>, NormError> {
        reference::backward(x, grad_out, self.eps, &mut self.weight)
    }
}
