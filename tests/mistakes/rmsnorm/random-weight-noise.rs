//! exercise: 01-weight
//! mistake: random-weight
//! the weight starts at ones plus a little deterministic noise "to break symmetry", as one would for a linear layer: not exactly ones.

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
        // Small perturbation around 1 so the channels do not all start identical.
        let value = Array1::from_shape_fn(hidden_size, |i| 1.0 + 0.02 * (((i * 7919) % 13) as f32 - 6.0) / 6.0);
        Ok(RMSNorm { eps, weight: Param::trainable(value) })
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
