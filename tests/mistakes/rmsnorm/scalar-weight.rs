//! exercise: 01-weight
//! mistake: scalar-weight
//! A wrong solution: one scalar weight for every channel.
//! (Its forward also scales by `weight[0]` alone so that the layer runs at all; the mistake itself is TODO 1's [1]-shaped weight.)

#![allow(dead_code)]

use ndarray::ArrayD;
use tutor_kit::{reference, Float, NormError, Param};

pub struct RMSNorm {
    pub eps: f32,
    pub weight: Param,
}

impl RMSNorm {
    pub fn new(hidden_size: usize, eps: f32) -> Result<Self, NormError> {
        reference::check_config(hidden_size, eps)?;
        Ok(RMSNorm { eps, weight: Param::trainable(ndarray::Array1::ones(1)) })
    }

    pub fn norm<T: Float>(&self, x: &ArrayD<T>) -> Result<ArrayD<f32>, NormError> {
        reference::check_input(x, self.weight.len())?;
        reference::rms_normalize(x, self.eps)
    }

    pub fn forward<T: Float>(&self, x: &ArrayD<T>) -> Result<ArrayD<T>, NormError> {
        let scale = self.weight.value[0];
        Ok(self.norm(x)?.mapv(|v| T::from_f32(v * scale)))
    }

    pub fn backward<T: Float>(&mut self, x: &ArrayD<T>, grad_out: &ArrayD<T>) -> Result<ArrayD<T>, NormError> {
        reference::backward(x, grad_out, self.eps, &mut self.weight)
    }
}
