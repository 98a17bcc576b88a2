//! A hostile exercise file: tries to start processes that would outlive the check and hold its
//! output open (one in its own session), then answers wrongly. It prints its own pid so that
//! the test can look for anything left of its process group.
//! exercise: 02-norm
//! args: --timeout 3
//! shows: spawn refused

use ndarray::ArrayD;
use tutor_kit::{reference, Float, NormError, Param};

pub struct RMSNorm {
    pub eps: f32,
    pub weight: Param,
}

impl RMSNorm {
    pub fn new(hidden_size: usize, eps: f32) -> Result<Self, NormError> {
        reference::check_config(hidden_size, eps)?;
        eprintln!("pid={}", std::process::id());
        Ok(RMSNorm { eps, weight: reference::scale_parameter(hidden_size) })
    }

    pub fn norm<T: Float>(&self, x: &ArrayD<T>) -> Result<ArrayD<f32>, NormError> {
        for program in [&["sleep", "987"][..], &["setsid", "sleep", "987"][..]] {
            match std::process::Command::new(program[0]).args(&program[1..]).spawn() {
                Ok(child) => eprintln!("child={}", child.id()),
                Err(e) => eprintln!("spawn refused: {e}"),
            }
        }
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
