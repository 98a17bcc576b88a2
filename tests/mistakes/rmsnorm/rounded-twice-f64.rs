//! exercise: 03-forward
//! mistake: double-rounding
//! the normalised values are stored in T, then scaled in f64 by the weight and rounded back with `from_f64`: rounded once too often.

#![allow(dead_code)]

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
        let normalized: ArrayD<T> = self.norm(x)?.mapv(T::from_f32);
        Ok(Zip::from(&normalized)
            .and_broadcast(&self.weight.value)
            .map_collect(|&n, &w| T::from_f64(n.to_f64() * f64::from(w))))
    }

    pub fn backward<T: Float>(&mut self, x: &ArrayD<T>, grad_out: &ArrayD<T>) -> Result<ArrayD<T>, NormError> {
        reference::backward(x, grad_out, self.eps, &mut self.weight)
    }
}
