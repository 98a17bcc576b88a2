//! exercise: 03-forward
//! mistake: rank-assumed
//! forward assumes [batch, seq, hidden] and walks it with three index loops: any other rank panics.

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
        reference::rms_normalize(x, self.eps)
    }

    pub fn forward<T: Float>(&self, x: &ArrayD<T>) -> Result<ArrayD<T>, NormError> {
        reference::check_input(x, self.weight.len())?;
        let normalized = self.norm(x)?.into_dimensionality::<Ix3>().expect("x is [batch, seq, hidden]");
        let (batch, seq, hidden) = normalized.dim();
        let mut out = Array3::<T>::zeros((batch, seq, hidden));
        for b in 0..batch {
            for s in 0..seq {
                for h in 0..hidden {
                    out[[b, s, h]] = T::from_f32(normalized[[b, s, h]] * self.weight.value[h]);
                }
            }
        }
        Ok(out.into_dyn())
    }

    pub fn backward<T: Float>(&mut self, x: &ArrayD<T>, grad_out: &ArrayD<T>) -> Result<ArrayD<T>, NormError> {
        reference::backward(x, grad_out, self.eps, &mut self.weight)
    }
}
