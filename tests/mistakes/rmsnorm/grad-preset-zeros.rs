//! exercise: 01-weight
//! mistake: gradient-preset
//! the weight is created with `grad: Some(zeros)` ("the gradient starts at zero") instead of `None`: a gradient exists before any backward pass.

#![allow(dead_code)]

use ndarray::{Array1, ArrayD};
use tutor_kit::{reference, Float, NormError, Param};

pub struct RMSNorm {
    pub eps: f32,
    pub weight: Param,
}

impl RMSNorm {
    pub fn new(hidden_size: usize, eps: f32) -> Result<Self, NormError> {
        reference::check_config(hidden_size, eps)?;
        // The gradient starts at zero and backward adds to it.
        let weight =
            Param { value: Array1::ones(hidden_size), grad: Some(Array1::zeros(hidden_size)), requires_grad: true };
        Ok(RMSNorm { eps, weight })
    }

    pub fn norm<T: Float>(&self, x: &ArrayD<T>) -> Result<ArrayD<f32>, NormError> {
        reference::check_input(x, self.weight.len())?;
        reference::rms_normalize(x, self.eps)
    }

    pub fn forward<T: Float>(&self, x: &ArrayD<T>) -> Result<ArrayD<T>, NormError> {
        reference::scale_and_cast(&self.norm(x)?, &self.weight)
    }

    pub fn backward<T: Float>(&mut self, x: &ArrayD<T>, grad_out: &ArrayD<T>) -> Result<ArrayD<T>, NormError> {
        reference::backward(x, grad_out, self.eps, &mut self.weight)
    }
}
