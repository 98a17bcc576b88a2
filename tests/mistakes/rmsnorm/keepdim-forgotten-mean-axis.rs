//! exercise: 02-norm
//! mistake: keepdim-forgotten
//! `mean_axis` without `insert_axis` (PyTorch's `keepdim=True` has no ndarray flag): the [...] statistics do not broadcast against [..., D].

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
        let x32 = x.mapv(|v| v.to_f32());
        let last = Axis(x.ndim() - 1);
        let mean_square = x32.mapv(|v| v.powi(2)).mean_axis(last).unwrap();
        let rms = mean_square.mapv(|m| (m + self.eps).sqrt());
        Ok(x32 / &rms)
    }

    pub fn forward<T: Float>(&self, x: &ArrayD<T>) -> Result<ArrayD<T>, NormError> {
        reference::scale_and_cast(&self.norm(x)?, &self.weight)
    }

    pub fn backward<T: Float>(&mut self, x: &ArrayD<T>, grad_out: &ArrayD<T>) -> Result<ArrayD<T>, NormError> {
        reference::backward(x, grad_out, self.eps, &mut self.weight)
    }
}
