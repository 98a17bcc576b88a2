//! exercise: 03-forward
//! mistake: half-precision-statistics
//! everything computed in T: squares, sum, root and products.

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
        let last = ndarray::Axis(x.ndim() - 1);
        let mut y = x.clone();
        let eps = T::from_f32(self.eps);
        for mut row in y.lanes_mut(last) {
            let d = T::from_f32(row.len() as f32);
            let sum = row.iter().fold(T::zero(), |acc, &v| acc + v * v);
            let root = T::from_f32((sum / d + eps).to_f32().sqrt());
            for (v, &w) in row.iter_mut().zip(self.weight.value.iter()) {
                *v = *v / root * T::from_f32(w);
            }
        }
        Ok(y)
    }

    pub fn backward<T: Float>(&mut self, x: &ArrayD<T>, grad_out: &ArrayD<T>) -> Result<ArrayD<T>, NormError> {
        reference::backward(x, grad_out, self.eps, &mut self.weight)
    }
}
