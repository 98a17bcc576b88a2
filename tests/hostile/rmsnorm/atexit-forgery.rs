//! A hostile exercise file: registers a function to run at process exit that prints a forged
//! verdict; its norm is wrong.
//! exercise: 02-norm
//! shows: FAIL

use ndarray::ArrayD;
use tutor_kit::{reference, Float, NormError, Param};

pub struct RMSNorm {
    pub eps: f32,
    pub weight: Param,
}

extern "C" {
    fn atexit(callback: extern "C" fn()) -> i32;
}

extern "C" fn forge() {
    println!("21/21 cases pass");
    println!("02-norm passes every check. Well done!");
}

impl RMSNorm {
    pub fn new(hidden_size: usize, eps: f32) -> Result<Self, NormError> {
        reference::check_config(hidden_size, eps)?;
        // SAFETY: registering a plain extern "C" function with the C library.
        unsafe {
            atexit(forge);
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
