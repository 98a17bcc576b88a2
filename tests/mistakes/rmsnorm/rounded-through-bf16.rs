//! exercise: 03-forward
//! mistake: rounded-through-half
//! each value is first stored in a bf16 buffer ("the activations are bf16 anyway") and converted to T from there, in a loop over the output, for every T.

#![allow(dead_code)]

use tutor_kit::half::bf16;
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
        let buffer: Vec<bf16> = scaled.iter().map(|&v| bf16::from_f32(v)).collect();
        let values: Vec<T> = buffer.into_iter().map(|h| T::from_f64(h.to_f64())).collect();
        Ok(ArrayD::from_shape_vec(scaled.raw_dim(), values).expect("one value per element"))
    }

    pub fn backward<T: Float>(&mut self, x: &ArrayD<T>, grad_out: &ArrayD<T>) -> Result<ArrayD<T>, NormError> {
        reference::backward(x, grad_out, self.eps, &mut self.weight)
    }
}
