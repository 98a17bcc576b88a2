//! A hostile exercise file: reads the reference solution at run time.
//! exercise: 02-norm
//! shows: could not read the solution
//! shows: Permission denied
//! shows: graded code runs confined

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
        let text = std::fs::read_to_string("{{WORKSPACE}}/solutions/rmsnorm/02-norm.rs")
            .unwrap_or_else(|e| panic!("could not read the solution: {e}"));
        reference::check_input(x, self.weight.len())?;
        Ok(x.mapv(|v| v.to_f32() * text.len() as f32))
    }

    pub fn forward<T: Float>(&self, x: &ArrayD<T>) -> Result<ArrayD<T>, NormError> {
        reference::scale_and_cast(&self.norm(x)?, &self.weight)
    }

    pub fn backward<T: Float>(&mut self, x: &ArrayD<T>, grad_out: &ArrayD<T>) -> Result<ArrayD<T>, NormError> {
        reference::backward(x, grad_out, self.eps, &mut self.weight)
    }
}
