//! exercise: 02-norm
//! mistake: rank-assumed
//! the input is taken to be [batch, seq, hidden] (`into_dimensionality::<Ix3>()`): 1-D, 2-D and 4-D inputs are refused with an error.

#![allow(dead_code)]

use ndarray::{Array3, ArrayD, Ix3};
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
        let x3 = x.view().into_dimensionality::<Ix3>().map_err(|_| NormError::ShapeMismatch {
            expected: vec![0, 0, self.weight.len()],
            found: x.shape().to_vec(),
        })?;
        let (batch, seq, hidden) = x3.dim();
        let mut out = Array3::<f32>::zeros((batch, seq, hidden));
        for b in 0..batch {
            for s in 0..seq {
                let mut sum_sq = 0.0f32;
                for h in 0..hidden {
                    sum_sq += x3[[b, s, h]].to_f32() * x3[[b, s, h]].to_f32();
                }
                let rms = (sum_sq / hidden as f32 + self.eps).sqrt();
                for h in 0..hidden {
                    out[[b, s, h]] = x3[[b, s, h]].to_f32() / rms;
                }
            }
        }
        Ok(out.into_dyn())
    }

    pub fn forward<T: Float>(&self, x: &ArrayD<T>) -> Result<ArrayD<T>, NormError> {
        reference::scale_and_cast(&self.norm(x)?, &self.weight)
    }

    pub fn backward<T: Float>(&mut self, x: &ArrayD<T>, grad_out: &ArrayD<T>) -> Result<ArrayD<T>, NormError> {
        reference::backward(x, grad_out, self.eps, &mut self.weight)
    }
}
