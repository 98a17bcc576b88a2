//! A route tried for issue 28: the kit's source travels into the harness whole, so the learner's
//! file compiles the piece absent from its program, `reference/rms_normalize.rs`, as a module of
//! its own (the build may read the harness). The dep-info check after the build refuses it: only
//! the program's source and the learner's copy may be compiled in.
//! exercise: 02-norm
//! shows: pulls other files into the build
//! shows: kit/src/reference/rms_normalize.rs

use ndarray::ArrayD;
use tutor_kit::{reference, Float, NormError, Param};

// The piece names a check as `super::last_axis`: here, this file's own copy (the given
// library's is private to it).
fn last_axis<T>(x: &ArrayD<T>) -> Result<ndarray::Axis, NormError> {
    if x.ndim() == 0 {
        return Err(NormError::NoAxis);
    }
    Ok(ndarray::Axis(x.ndim() - 1))
}

#[path = "../../courses/rmsnorm/kit/src/reference/rms_normalize.rs"]
mod stolen;

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
        stolen::rms_normalize(x, self.eps)
    }

    pub fn forward<T: Float>(&self, x: &ArrayD<T>) -> Result<ArrayD<T>, NormError> {
        reference::scale_and_cast(&self.norm(x)?, &self.weight)
    }

    pub fn backward<T: Float>(&mut self, x: &ArrayD<T>, grad_out: &ArrayD<T>) -> Result<ArrayD<T>, NormError> {
        reference::backward(x, grad_out, self.eps, &mut self.weight)
    }
}
