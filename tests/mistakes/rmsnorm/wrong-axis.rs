//! exercise: 02-norm
//! mistake: wrong-axis
//! A wrong solution: statistics along the first axis instead of the last.

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
        let first = Axis(0);
        let n = x32.len_of(first) as f32;
        let mean_square = (x32.mapv(|v| v * v).sum_axis(first) / n).insert_axis(first);
        Ok(&x32 / &(mean_square + self.eps).mapv(f32::sqrt))
    }

    pub fn forward<T: Float>(&self, x: &ArrayD<T>) -> Result<ArrayD<T>, NormError> {
        reference::check_input(x, self.weight.len())?;
        reference::scale_and_cast(&self.norm(x)?, &self.weight)
    }

    pub fn backward<T: Float>(&mut self, x: &ArrayD<T>, grad_out: &ArrayD<T>) -> Result<ArrayD<T>, NormError> {
        reference::backward(x, grad_out, self.eps, &mut self.weight)
    }
}
