//! exercise: 03-forward
//! mistake: eps-ignored
//! forward recomputes the statistics in its own loops with a constant `EPS = 1e-5` (the Hugging Face default) instead of `self.eps`; norm is right.

#![allow(dead_code)]

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
        const EPS: f32 = 1e-5;
        reference::check_input(x, self.weight.len())?;
        let mut y = x.mapv(|v| v.to_f32());
        let last = Axis(y.ndim() - 1);
        for mut row in y.lanes_mut(last) {
            let mean_square = row.iter().map(|v| v * v).sum::<f32>() / row.len() as f32;
            let r = 1.0 / (mean_square + EPS).sqrt();
            for (v, w) in row.iter_mut().zip(self.weight.value.iter()) {
                *v = *v * r * w;
            }
        }
        Ok(y.mapv(T::from_f32))
    }

    pub fn backward<T: Float>(&mut self, x: &ArrayD<T>, grad_out: &ArrayD<T>) -> Result<ArrayD<T>, NormError> {
        reference::backward(x, grad_out, self.eps, &mut self.weight)
    }
}
