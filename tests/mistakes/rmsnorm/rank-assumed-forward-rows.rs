//! exercise: 03-forward
//! mistake: rank-assumed
//! forward flattens to [batch * seq, hidden] reading `shape[0]`, `shape[1]`, `shape[2]`: 1-D and 2-D inputs panic, 4-D ones fail to reshape.

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
        let shape = x.shape();
        let (rows, hidden) = (shape[0] * shape[1], shape[2]);
        let normalized = self.norm(x)?;
        let mut flat = normalized.into_shape_with_order((rows, hidden)).expect("x is [batch, seq, hidden]");
        flat *= &self.weight.value;
        Ok(flat.mapv(T::from_f32).into_shape_with_order(shape).expect("same number of elements"))
    }

    pub fn backward<T: Float>(&mut self, x: &ArrayD<T>, grad_out: &ArrayD<T>) -> Result<ArrayD<T>, NormError> {
        reference::backward(x, grad_out, self.eps, &mut self.weight)
    }
}
