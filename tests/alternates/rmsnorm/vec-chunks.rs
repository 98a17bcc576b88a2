//! alternate: no ndarray arithmetic: a flat `Vec` in logical order, `chunks_exact_mut(D)` per row, the weight `cycle`d in forward

use ndarray::{Array1, ArrayD};
use tutor_kit::{reference, Float, NormError, Param};

pub struct RMSNorm {
    pub eps: f32,
    pub weight: Param,
}

impl RMSNorm {
    pub fn new(hidden_size: usize, eps: f32) -> Result<Self, NormError> {
        reference::check_config(hidden_size, eps)?;
        let ones: Vec<f32> = vec![1.0; hidden_size];
        Ok(RMSNorm { eps, weight: Param::trainable(Array1::from_vec(ones)) })
    }

    pub fn norm<T: Float>(&self, x: &ArrayD<T>) -> Result<ArrayD<f32>, NormError> {
        reference::check_input(x, self.weight.len())?;
        let d = self.weight.len();
        let mut flat: Vec<f32> = x.iter().map(|v| v.to_f32()).collect();
        for row in flat.chunks_exact_mut(d) {
            let mut sum_sq = 0.0;
            for v in row.iter() {
                sum_sq += v * v;
            }
            let rms = (sum_sq / d as f32 + self.eps).sqrt();
            for v in row.iter_mut() {
                *v /= rms;
            }
        }
        Ok(ArrayD::from_shape_vec(x.raw_dim(), flat).expect("same number of elements"))
    }

    pub fn forward<T: Float>(&self, x: &ArrayD<T>) -> Result<ArrayD<T>, NormError> {
        reference::check_input(x, self.weight.len())?;
        let normalized = self.norm(x)?;
        let values: Vec<T> =
            normalized.iter().zip(self.weight.value.iter().cycle()).map(|(&n, &w)| T::from_f32(n * w)).collect();
        Ok(ArrayD::from_shape_vec(x.raw_dim(), values).expect("same number of elements"))
    }

    pub fn backward<T: Float>(&mut self, x: &ArrayD<T>, grad_out: &ArrayD<T>) -> Result<ArrayD<T>, NormError> {
        reference::backward(x, grad_out, self.eps, &mut self.weight)
    }
}
