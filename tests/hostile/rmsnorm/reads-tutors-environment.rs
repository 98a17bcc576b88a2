//! A hostile exercise file: its own environment is empty, so it reads tutor's (its parent's)
//! through /proc, where a classroom's CI keeps its tokens.
//! exercise: 02-norm
//! shows: could not read tutor's environment
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
        // Its own folder is there to read; its parent's is not.
        std::fs::read_to_string("/proc/self/status").unwrap_or_else(|e| panic!("no own status: {e}"));
        let parent = std::os::unix::process::parent_id();
        let environment = std::fs::read(format!("/proc/{parent}/environ"))
            .unwrap_or_else(|e| panic!("could not read tutor's environment: {e}"));
        reference::check_input(x, self.weight.len())?;
        Ok(x.mapv(|v| v.to_f32() * environment.len() as f32))
    }

    pub fn forward<T: Float>(&self, x: &ArrayD<T>) -> Result<ArrayD<T>, NormError> {
        reference::scale_and_cast(&self.norm(x)?, &self.weight)
    }

    pub fn backward<T: Float>(&mut self, x: &ArrayD<T>, grad_out: &ArrayD<T>) -> Result<ArrayD<T>, NormError> {
        reference::backward(x, grad_out, self.eps, &mut self.weight)
    }
}
