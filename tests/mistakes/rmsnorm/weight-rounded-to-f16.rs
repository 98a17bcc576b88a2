//! exercise: 03-forward
//! mistake: weight-rounded-to-half
//! the weight is narrowed to f16 once per call, element by element with `Zip`, and widened back for the FP32 multiply; whatever T is.

#![allow(dead_code)]

use tutor_kit::half::f16;
use ndarray::{ArrayD, Zip};
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
        let half_weight: Vec<f16> = self.weight.value.iter().map(|&w| f16::from_f32(w)).collect();
        let widened = ndarray::Array1::from_iter(half_weight.iter().map(|w| w.to_f32()));
        let mut y = self.norm(x)?;
        Zip::from(&mut y).and_broadcast(&widened).for_each(|v, &w| *v *= w);
        Ok(y.mapv(T::from_f32))
    }

    pub fn backward<T: Float>(&mut self, x: &ArrayD<T>, grad_out: &ArrayD<T>) -> Result<ArrayD<T>, NormError> {
        reference::backward(x, grad_out, self.eps, &mut self.weight)
    }
}
