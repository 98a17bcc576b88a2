//! exercise: 02-norm
//! mistake: zero-row-guarded
//! A row whose RMS is 0 is returned as it is (x / max(rms, tiny) written as a branch): a zero row at eps = 0 gives 0, not NaN.

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
        let mut out = x.mapv(|v| v.to_f32());
        let last = Axis(out.ndim() - 1);
        for mut row in out.lanes_mut(last) {
            let rms = (row.iter().map(|v| v * v).sum::<f32>() / row.len() as f32 + self.eps).sqrt();
            if rms == 0.0 {
                continue;
            }
            row.mapv_inplace(|v| v / rms);
        }
        Ok(out)
    }

    pub fn forward<T: Float>(&self, x: &ArrayD<T>) -> Result<ArrayD<T>, NormError> {
        reference::scale_and_cast(&self.norm(x)?, &self.weight)
    }

    pub fn backward<T: Float>(&mut self, x: &ArrayD<T>, grad_out: &ArrayD<T>) -> Result<ArrayD<T>, NormError> {
        reference::backward(x, grad_out, self.eps, &mut self.weight)
    }
}
