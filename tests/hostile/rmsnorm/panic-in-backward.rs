//! A hostile exercise file: panics in backward (04's TODO), with the forward written out.
//! exercise: 04-backward
//! shows: your code panicked: boom in backward
//! shows: in the call RMSNorm::backward(x: f32 [

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
        reference::check_input(x, self.weight.len())?;
        // Written out.
        let x32 = x.mapv(|v| v.to_f32());
        let last = ndarray::Axis(x32.ndim() - 1);
        let mean_square = (x32.mapv(|v| v * v).sum_axis(last) / x32.len_of(last) as f32).insert_axis(last);
        Ok(&x32 / &(mean_square + self.eps).mapv(f32::sqrt))
    }

    pub fn forward<T: Float>(&self, x: &ArrayD<T>) -> Result<ArrayD<T>, NormError> {
        reference::check_input(x, self.weight.len())?;
        reference::scale_and_cast(&self.norm(x)?, &self.weight)
    }

    pub fn backward<T: Float>(&mut self, x: &ArrayD<T>, grad_out: &ArrayD<T>) -> Result<ArrayD<T>, NormError> {
        let _ = (x, grad_out);
        panic!("boom in backward")
    }
}
