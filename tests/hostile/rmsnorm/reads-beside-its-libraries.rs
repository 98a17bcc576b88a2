//! A hostile exercise file: the program may read the kit's shared library, so it tries the
//! folder that library is in (the harness's build output) and a file beside it.
//! exercise: 02-norm
//! shows: could not read beside the program
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
        let program = std::env::current_exe().unwrap_or_else(|e| panic!("no program path: {e}"));
        let folder = program.parent().unwrap_or_else(|| panic!("no folder"));
        if let Err(e) = std::fs::read_dir(folder) {
            panic!("could not read beside the program (listing): {e}");
        }
        let beside = format!("{}.d", program.display());
        let text = std::fs::read_to_string(&beside)
            .unwrap_or_else(|e| panic!("could not read beside the program ({beside}): {e}"));
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
