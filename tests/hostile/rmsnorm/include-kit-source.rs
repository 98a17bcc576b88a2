//! A hostile exercise file: includes a file the build may read (an absent piece of the kit, beside the
//! learner's copy in the harness) at compile time. The build's confinement lets it through;
//! the dep-info check after the build refuses it.
//! exercise: 02-norm
//! shows: pulls other files into the build
//! shows: kit/src/reference/backward.rs

use ndarray::ArrayD;
use tutor_kit::{reference, Float, NormError, Param};

pub struct RMSNorm {
    pub eps: f32,
    pub weight: Param,
}

pub const KIT: &str = include_str!("../../courses/rmsnorm/kit/src/reference/backward.rs");

impl RMSNorm {
    pub fn new(hidden_size: usize, eps: f32) -> Result<Self, NormError> {
        reference::check_config(hidden_size, eps)?;
        Ok(RMSNorm { eps, weight: reference::scale_parameter(hidden_size) })
    }

    pub fn norm<T: Float>(&self, x: &ArrayD<T>) -> Result<ArrayD<f32>, NormError> {
        reference::check_input(x, self.weight.len())?;
        Ok(x.mapv(|v| v.to_f32() * KIT.len() as f32))
    }

    pub fn forward<T: Float>(&self, x: &ArrayD<T>) -> Result<ArrayD<T>, NormError> {
        reference::scale_and_cast(&self.norm(x)?, &self.weight)
    }

    pub fn backward<T: Float>(&mut self, x: &ArrayD<T>, grad_out: &ArrayD<T>) -> Result<ArrayD<T>, NormError> {
        reference::backward(x, grad_out, self.eps, &mut self.weight)
    }
}
