//! exercise: 03-forward
//! mistake: rounds-toward-zero
//! a hand-written f32 -> f16/bf16 cast that cuts the extra mantissa bits (bf16: the top 16 bits) instead of rounding to nearest even: every inexact value moves toward zero.

#![allow(dead_code)]

use ndarray::ArrayD;
use tutor_kit::half::{bf16, f16};
use tutor_kit::{reference, Float, NormError, Param};

pub struct RMSNorm {
    pub eps: f32,
    pub weight: Param,
}

/// f32 -> f16 by hand: rebias the exponent and keep the top 10 mantissa bits.
fn f16_from_bits_of(v: f32) -> f16 {
    let bits = v.to_bits();
    let sign = ((bits >> 16) & 0x8000) as u16;
    let exponent = ((bits >> 23) & 0xff) as i32;
    let mantissa = bits & 0x007f_ffff;
    if exponent == 0xff {
        let nan = if mantissa != 0 { 0x0200 } else { 0 };
        return f16::from_bits(sign | 0x7c00 | nan);
    }
    let e = exponent - 127 + 15;
    if e >= 0x1f {
        return f16::from_bits(sign | 0x7c00);
    }
    if e <= 0 {
        if e < -10 {
            return f16::from_bits(sign);
        }
        let sub = (mantissa | 0x0080_0000) >> (14 - e);
        return f16::from_bits(sign | sub as u16);
    }
    f16::from_bits(sign | ((e as u16) << 10) | (mantissa >> 13) as u16)
}

/// One cast to the input type, by hand for the half types.
fn cast<T: Float>(v: f32) -> T {
    match T::NAME {
        "float16" => T::from_f32(f16_from_bits_of(v).to_f32()),
        "bfloat16" => T::from_f32(bf16::from_bits((v.to_bits() >> 16) as u16).to_f32()),
        _ => T::from_f32(v),
    }
}

impl RMSNorm {
    pub fn new(hidden_size: usize, eps: f32) -> Result<Self, NormError> {
        reference::check_config(hidden_size, eps)?;
        Ok(RMSNorm { eps, weight: reference::scale_parameter(hidden_size) })
    }

    pub fn norm<T: Float>(&self, x: &ArrayD<T>) -> Result<ArrayD<f32>, NormError> {
        reference::check_input(x, self.weight.len())?;
        reference::rms_normalize(x, self.eps)
    }

    pub fn forward<T: Float>(&self, x: &ArrayD<T>) -> Result<ArrayD<T>, NormError> {
        reference::check_input(x, self.weight.len())?;
        let scaled = &self.norm(x)? * &self.weight.value;
        Ok(scaled.mapv(cast::<T>))
    }

    pub fn backward<T: Float>(&mut self, x: &ArrayD<T>, grad_out: &ArrayD<T>) -> Result<ArrayD<T>, NormError> {
        reference::backward(x, grad_out, self.eps, &mut self.weight)
    }
}
