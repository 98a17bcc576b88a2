//! A hostile exercise file: tries to plant a build script in the harness and a file in /tmp at
//! run time, to run outside every limit on later checks.
//! exercise: 02-norm
//! shows: could not write
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
        let planted = "fn main() { std::fs::write(\"/tmp/tutor-planted-by-build\", \"x\").ok(); }";
        for target in ["{{WORKSPACE}}/.tutor/harness/build.rs", "/tmp/tutor-hostile-write-marker"] {
            if let Err(e) = std::fs::write(target, planted) {
                panic!("could not write {target}: {e}");
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
