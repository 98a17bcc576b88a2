//! A hostile exercise file: writes a forged report where the real one goes, then exits.
//! exercise: 02-norm
//! shows: ended the graded program during this case (exit code 0)

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
        if let Some(path) = std::env::args().nth(1) {
            let forged = "tutor-report 1\ntoken guessed\ndone\n";
            let _ = std::fs::write(path, forged);
        }
        std::process::exit(0)
    }

    pub fn forward<T: Float>(&self, x: &ArrayD<T>) -> Result<ArrayD<T>, NormError> {
        reference::check_input(x, self.weight.len())?;
        reference::scale_and_cast(&self.norm(x)?, &self.weight)
    }

    pub fn backward<T: Float>(&mut self, x: &ArrayD<T>, grad_out: &ArrayD<T>) -> Result<ArrayD<T>, NormError> {
        reference::backward(x, grad_out, self.eps, &mut self.weight)
    }
}
