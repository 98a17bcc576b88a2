//! exercise: 03-forward
//! mistake: ties-away-from-zero
//! the common (bits + 0x8000) & 0xFFFF0000 conversion: ties away from zero.

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
        let scaled = &self.norm(x)? * &self.weight.value;
        let shift = match T::NAME {
            "float16" => 13,
            "bfloat16" => 16,
            _ => 0,
        };
        if shift == 0 {
            return Ok(scaled.mapv(T::from_f32));
        }
        let half = 1u32 << (shift - 1);
        let mask = !((1u32 << shift) - 1);
        Ok(scaled.mapv(|v| T::from_f32(f32::from_bits(v.to_bits().wrapping_add(half) & mask))))
    }

    pub fn backward<T: Float>(&mut self, x: &ArrayD<T>, grad_out: &ArrayD<T>) -> Result<ArrayD<T>, NormError> {
        reference::backward(x, grad_out, self.eps, &mut self.weight)
    }
}
