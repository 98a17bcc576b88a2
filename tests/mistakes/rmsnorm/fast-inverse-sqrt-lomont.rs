//! exercise: 02-norm
//! mistake: fast-inverse-sqrt
//! the scales as one array: `mean_axis` for the mean square, then Lomont's constant 0x5f375a86 and one Newton step written as `y * (1.5 - 0.5 * a * (y * y))`.

#![allow(dead_code)]

use ndarray::{ArrayD, Axis};
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
        let x32 = x.mapv(|v| v.to_f32());
        let last = Axis(x32.ndim() - 1);
        if x32.len_of(last) == 0 || x32.is_empty() {
            return Ok(x32);
        }
        let mean_square = x32.mapv(|v| v * v).sum_axis(last) / x32.len_of(last) as f32;
        let scale = mean_square.mapv(|m| {
            let a = m + self.eps;
            let y = f32::from_bits(0x5f37_5a86_u32.wrapping_sub(a.to_bits() >> 1));
            y * (1.5 - 0.5 * a * (y * y))
        });
        Ok(&x32 * &scale.insert_axis(last))
    }

    pub fn forward<T: Float>(&self, x: &ArrayD<T>) -> Result<ArrayD<T>, NormError> {
        reference::scale_and_cast(&self.norm(x)?, &self.weight)
    }

    pub fn backward<T: Float>(&mut self, x: &ArrayD<T>, grad_out: &ArrayD<T>) -> Result<ArrayD<T>, NormError> {
        reference::backward(x, grad_out, self.eps, &mut self.weight)
    }
}
