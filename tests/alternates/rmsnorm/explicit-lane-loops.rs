//! alternate: explicit index loops over `lanes` / `lanes_mut`, in norm and in forward alike

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
                out_row[i] = T::from_f32(n_row[i] * self.weight.value[i]);
            }
        }
        Ok(out)
    }

    pub fn backward<T: Float>(&mut self, x: &ArrayD<T>, grad_out: &ArrayD<T>) -> Result<ArrayD<T>, NormError> {
        reference::backward(x, grad_out, self.eps, &mut self.weight)
    }
}
