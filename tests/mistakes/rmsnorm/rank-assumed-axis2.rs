//! exercise: 02-norm
//! mistake: rank-assumed
//! the hidden axis is hard-coded as `Axis(2)` ([batch, seq, hidden]): a 1-D or 2-D input panics, a 4-D input is normalised along the wrong axis.

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
        let hidden = Axis(2);
        let x32: ArrayD<f32> = x.mapv(|v| v.to_f32());
        let d = x32.len_of(hidden) as f32;
        let mean_square = (x32.mapv(|v| v * v).sum_axis(hidden) / d).insert_axis(hidden);
        Ok(&x32 / &(mean_square + self.eps).mapv(f32::sqrt))
    }

    pub fn forward<T: Float>(&self, x: &ArrayD<T>) -> Result<ArrayD<T>, NormError> {
        reference::scale_and_cast(&self.norm(x)?, &self.weight)
    }

    pub fn backward<T: Float>(&mut self, x: &ArrayD<T>, grad_out: &ArrayD<T>) -> Result<ArrayD<T>, NormError> {
        reference::backward(x, grad_out, self.eps, &mut self.weight)
    }
}
