//! exercise: 03-forward
//! mistake: output-saturated
//! saturates in explicit loops at `f16::MAX` (a comparison that lets NaN through), row by row, before the one cast to T.

#![allow(dead_code)]

use tutor_kit::half::f16;
use ndarray::{ArrayD, Axis};
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
        let limit = f16::MAX.to_f32();
        let mut y = self.norm(x)?;
        let last = Axis(y.ndim() - 1);
        for mut row in y.lanes_mut(last) {
            for (v, w) in row.iter_mut().zip(self.weight.value.iter()) {
                let product = *v * w;
                *v = if product > limit {
                    limit
                } else if product < -limit {
                    -limit
                } else {
                    product
                };
            }
        }
        Ok(y.mapv(T::from_f32))
    }

    pub fn backward<T: Float>(&mut self, x: &ArrayD<T>, grad_out: &ArrayD<T>) -> Result<ArrayD<T>, NormError> {
        reference::backward(x, grad_out, self.eps, &mut self.weight)
    }
}
