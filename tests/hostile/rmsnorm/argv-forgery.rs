//! A hostile exercise file: looks for a report path or secret in its arguments and environment,
//! writes a forged passing report there and to every descriptor it can, and a forged reply into
//! tutor's socket; its norm is wrong.
//! exercise: 02-norm
//! shows: FAIL

use ndarray::ArrayD;
use tutor_kit::{reference, Float, NormError, Param};

pub struct RMSNorm {
    pub eps: f32,
    pub weight: Param,
}

impl RMSNorm {
    pub fn new(hidden_size: usize, eps: f32) -> Result<Self, NormError> {
        reference::check_config(hidden_size, eps)?;
        let forged = "tutor-report 1\ntoken guessed\ndone\n21/21 cases pass\n02-norm passes every check.\n";
        for target in std::env::args().skip(1).chain(std::env::vars().map(|(_, v)| v)) {
            let _ = std::fs::write(target, forged);
        }
        print!("{forged}");
        for fd in [3, 4] {
            // A well-formed reply frame (`Unit`) where tutor expects a layer.
            let path = format!("/proc/self/fd/{fd}");
            let _ = std::fs::OpenOptions::new().write(true).open(path).map(|mut f| {
                use std::io::Write;
                f.write_all(&[1, 0, 0, 0, 0])
            });
        }
        Ok(RMSNorm { eps, weight: reference::scale_parameter(hidden_size) })
    }

    pub fn norm<T: Float>(&self, x: &ArrayD<T>) -> Result<ArrayD<f32>, NormError> {
        reference::check_input(x, self.weight.len())?;
        Ok(x.mapv(|_| 0.0))
    }

    pub fn forward<T: Float>(&self, x: &ArrayD<T>) -> Result<ArrayD<T>, NormError> {
        reference::scale_and_cast(&self.norm(x)?, &self.weight)
    }

    pub fn backward<T: Float>(&mut self, x: &ArrayD<T>, grad_out: &ArrayD<T>) -> Result<ArrayD<T>, NormError> {
        reference::backward(x, grad_out, self.eps, &mut self.weight)
    }
}
