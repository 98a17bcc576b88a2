//! alternate: bf16 output rounded by hand from the FP32 bits, to nearest with ties to even
//! (`bits + 0x7FFF + lsb`, then the low half dropped), as a hand-written converter does

use ndarray::{Array1, ArrayD, Axis};
use tutor_kit::{reference, Float, NormError, Param};

pub struct RMSNorm {
    pub eps: f32,
    pub weight: Param,
}

impl RMSNorm {
    pub fn new(hidden_size: usize, eps: f32) -> Result<Self, NormError> {
        reference::check_config(hidden_size, eps)?;
        let weight = Param { value: Array1::ones(hidden_size), grad: None, requires_grad: true };
        Ok(RMSNorm { eps, weight })
    }

    pub fn norm<T: Float>(&self, x: &ArrayD<T>) -> Result<ArrayD<f32>, NormError> {
        reference::check_input(x, self.weight.len())?;
        let last = Axis(x.ndim() - 1);
        let d = x.len_of(last);
        let mut out = x.mapv(|v| v.to_f32());
        for mut row in out.lanes_mut(last) {
            let mut sum_sq = 0.0f32;
            for i in 0..d {
                sum_sq += row[i] * row[i];
            }
            let rms = (sum_sq / d as f32 + self.eps).sqrt();
            for i in 0..d {
                row[i] /= rms;
            }
        }
        Ok(out)
    }

    pub fn forward<T: Float>(&self, x: &ArrayD<T>) -> Result<ArrayD<T>, NormError> {
        reference::check_input(x, self.weight.len())?;
        let normalized = self.norm(x)?;
        let last = Axis(normalized.ndim() - 1);
        let d = normalized.len_of(last);
        let mut out = ArrayD::<T>::zeros(normalized.raw_dim());
        for (n_row, mut out_row) in normalized.lanes(last).into_iter().zip(out.lanes_mut(last)) {
            for i in 0..d {
                let y = n_row[i] * self.weight.value[i];
                out_row[i] = T::from_f32(if T::NAME == "bfloat16" { bf16_nearest_even(y) } else { y });
            }
        }
        Ok(out)
    }

    pub fn backward<T: Float>(&mut self, x: &ArrayD<T>, grad_out: &ArrayD<T>) -> Result<ArrayD<T>, NormError> {
        reference::backward(x, grad_out, self.eps, &mut self.weight)
    }
}

/// `v` rounded to the nearest bf16 value, exact ties to the even one, read back as an f32; NaN kept.
fn bf16_nearest_even(v: f32) -> f32 {
    if v.is_nan() {
        return v;
    }
    let bits = v.to_bits();
    f32::from_bits(bits.wrapping_add(0x7FFF + ((bits >> 16) & 1)) & 0xFFFF_0000)
}
