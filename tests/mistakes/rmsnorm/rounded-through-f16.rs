//! exercise: 03-forward
//! mistake: rounded-through-half
//! the FP32 result goes through f16 on its way to T, for every T (`T::from_f32(f16::from_f32(v).to_f32())`): f32 and f64 outputs keep only f16's precision and range, bf16 is rounded twice.

#![allow(dead_code)]

use tutor_kit::half::f16;
use ndarray::ArrayD;
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
        let scaled = &self.norm(x)? * &self.weight.value;
        Ok(scaled.mapv(|v| T::from_f32(f16::from_f32(v).to_f32())))
    }

    pub fn backward<T: Float>(&mut self, x: &ArrayD<T>, grad_out: &ArrayD<T>) -> Result<ArrayD<T>, NormError> {
        reference::backward(x, grad_out, self.eps, &mut self.weight)
    }
}
