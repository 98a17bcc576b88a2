//! exercise: 03-forward
//! mistake: double-rounding
//! Meta LLaMA's `_norm(x.float()).type_as(x) * weight`: the normalised values are rounded to T first, then multiplied by a T weight in T (two roundings).

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
        // output = self._norm(x.float()).type_as(x); return output * self.weight
        let mut output: ArrayD<T> = self.norm(x)?.mapv(T::from_f32);
        let weight = self.weight.value.mapv(T::from_f32);
        Zip::from(&mut output).and_broadcast(&weight).for_each(|o, &w| *o = *o * w);
        Ok(output)
    }

    pub fn backward<T: Float>(&mut self, x: &ArrayD<T>, grad_out: &ArrayD<T>) -> Result<ArrayD<T>, NormError> {
        reference::backward(x, grad_out, self.eps, &mut self.weight)
    }
}
