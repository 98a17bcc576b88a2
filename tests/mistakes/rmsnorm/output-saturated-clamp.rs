//! exercise: 03-forward
//! mistake: output-saturated
//! "so that f16 cannot overflow", the FP32 result is clamped to ±65504 with `f32::clamp` (which keeps NaN) before the cast, for every T: f32, f64 and bf16 lose their large values, and f16 gives 65504 where the right answer is ±inf.

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
        Ok(RMSNorm { eps, weight: reference::scale_parameter(hidden_size) })
    }

    pub fn norm<T: Float>(&self, x: &ArrayD<T>) -> Result<ArrayD<f32>, NormError> {
        reference::check_input(x, self.weight.len())?;
        reference::rms_normalize(x, self.eps)
    }

    pub fn forward<T: Float>(&self, x: &ArrayD<T>) -> Result<ArrayD<T>, NormError> {
        reference::check_input(x, self.weight.len())?;
        const HALF_MAX: f32 = 65504.0;
        let scaled = &self.norm(x)? * &self.weight.value;
        Ok(scaled.mapv(|v| T::from_f32(v.clamp(-HALF_MAX, HALF_MAX))))
    }

    pub fn backward<T: Float>(&mut self, x: &ArrayD<T>, grad_out: &ArrayD<T>) -> Result<ArrayD<T>, NormError> {
        reference::backward(x, grad_out, self.eps, &mut self.weight)
    }
}
