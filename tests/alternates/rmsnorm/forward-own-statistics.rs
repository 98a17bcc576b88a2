//! alternate: forward does not call `norm`: both share a helper that yields one inverse RMS per row, forward fuses the scale

use ndarray::{Array1, ArrayD, Axis};
use tutor_kit::{reference, Float, NormError, Param};

pub struct RMSNorm {
    pub eps: f32,
    pub weight: Param,
}

impl RMSNorm {
    pub fn new(hidden_size: usize, eps: f32) -> Result<Self, NormError> {
        reference::check_config(hidden_size, eps)?;
        Ok(RMSNorm { eps, weight: Param::trainable(Array1::ones(hidden_size)) })
    }

    /// One `1 / sqrt(mean(x²) + eps)` per row, in the order `lanes` visits the rows.
    fn inverse_rms<T: Float>(&self, x: &ArrayD<T>) -> Result<Vec<f32>, NormError> {
        reference::check_input(x, self.weight.len())?;
        let last = Axis(x.ndim() - 1);
        Ok(x.lanes(last)
            .into_iter()
            .map(|row| {
                let mean_square = row.fold(0.0f32, |acc, v| acc + v.to_f32() * v.to_f32()) / row.len() as f32;
                1.0 / (mean_square + self.eps).sqrt()
            })
            .collect())
    }

    pub fn norm<T: Float>(&self, x: &ArrayD<T>) -> Result<ArrayD<f32>, NormError> {
        let inv = self.inverse_rms(x)?;
        let last = Axis(x.ndim() - 1);
        let mut out = x.mapv(T::to_f32);
        for (mut row, r) in out.lanes_mut(last).into_iter().zip(inv) {
            row.mapv_inplace(|v| v * r);
        }
        Ok(out)
    }

    pub fn forward<T: Float>(&self, x: &ArrayD<T>) -> Result<ArrayD<T>, NormError> {
        let inv = self.inverse_rms(x)?;
        let last = Axis(x.ndim() - 1);
        let mut out = ArrayD::<T>::zeros(x.raw_dim());
        for ((row, mut out_row), r) in x.lanes(last).into_iter().zip(out.lanes_mut(last)).zip(inv) {
            for ((o, v), w) in out_row.iter_mut().zip(row.iter()).zip(self.weight.value.iter()) {
                *o = T::from_f32(v.to_f32() * r * w);
            }
        }
        Ok(out)
    }

    pub fn backward<T: Float>(&mut self, x: &ArrayD<T>, grad_out: &ArrayD<T>) -> Result<ArrayD<T>, NormError> {
        reference::backward(x, grad_out, self.eps, &mut self.weight)
    }
}
