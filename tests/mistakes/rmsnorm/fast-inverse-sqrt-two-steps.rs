//! exercise: 02-norm
//! mistake: zero-row-guarded
//! Quake III's fast inverse square root with two Newton steps: a few millionths small, inside every FP32 tolerance; the exact ties see it (values just under a tie round down, no evidence of which mistake it is), and so does a zero row at eps = 0, where its 1/sqrt(0) is finite and the row comes out 0 instead of NaN.

#![allow(dead_code)]

use ndarray::{ArrayD, Axis};
use tutor_kit::{reference, Float, NormError, Param};

pub struct RMSNorm {
    pub eps: f32,
    pub weight: Param,
}

fn q_rsqrt(number: f32) -> f32 {
    const THREEHALFS: f32 = 1.5;
    let x2 = number * 0.5;
    let i = 0x5f3759df - (number.to_bits() >> 1); // what the ...
    let y = f32::from_bits(i);
    let y = y * (THREEHALFS - (x2 * y * y)); // 1st iteration
    y * (THREEHALFS - (x2 * y * y)) // 2nd iteration, this can be removed
}

impl RMSNorm {
    pub fn new(hidden_size: usize, eps: f32) -> Result<Self, NormError> {
        reference::check_config(hidden_size, eps)?;
        Ok(RMSNorm { eps, weight: reference::scale_parameter(hidden_size) })
    }

    pub fn norm<T: Float>(&self, x: &ArrayD<T>) -> Result<ArrayD<f32>, NormError> {
        reference::check_input(x, self.weight.len())?;
        let mut out = x.mapv(|v| v.to_f32());
        let last = Axis(out.ndim() - 1);
        for mut row in out.lanes_mut(last) {
            let mut sum = 0.0f32;
            for v in row.iter() {
                sum += v * v;
            }
            let r = q_rsqrt(sum / row.len() as f32 + self.eps);
            for v in row.iter_mut() {
                *v *= r;
            }
        }
        Ok(out)
    }

    pub fn forward<T: Float>(&self, x: &ArrayD<T>) -> Result<ArrayD<T>, NormError> {
        reference::scale_and_cast(&self.norm(x)?, &self.weight)
    }

    pub fn backward<T: Float>(&mut self, x: &ArrayD<T>, grad_out: &ArrayD<T>) -> Result<ArrayD<T>, NormError> {
        reference::backward(x, grad_out, self.eps, &mut self.weight)
    }
}
