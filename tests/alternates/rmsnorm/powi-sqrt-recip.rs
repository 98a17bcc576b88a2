//! alternate: `powi(2)` for the squares and `sqrt().recip()` for the inverse RMS; forward scales lanes through `Zip`

use ndarray::{Array1, ArrayD, Axis, Zip};
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

    pub fn norm<T: Float>(&self, x: &ArrayD<T>) -> Result<ArrayD<f32>, NormError> {
        reference::check_input(x, self.weight.len())?;
        let last = Axis(x.ndim() - 1);
        let mut out = ArrayD::<f32>::zeros(x.raw_dim());
        for (row, mut out_row) in x.lanes(last).into_iter().zip(out.lanes_mut(last)) {
            let mean_square = row.iter().map(|v| v.to_f32().powi(2)).sum::<f32>() / row.len() as f32;
            let inv_rms = (mean_square + self.eps).sqrt().recip();
            out_row.zip_mut_with(&row, |o, v| *o = v.to_f32() * inv_rms);
        }
        Ok(out)
    }

    pub fn forward<T: Float>(&self, x: &ArrayD<T>) -> Result<ArrayD<T>, NormError> {
        reference::check_input(x, self.weight.len())?;
        let mut scaled = self.norm(x)?;
        let last = Axis(scaled.ndim() - 1);
        Zip::from(scaled.lanes_mut(last)).for_each(|mut row| row *= &self.weight.value);
        Ok(scaled.mapv(T::from_f32))
    }

    pub fn backward<T: Float>(&mut self, x: &ArrayD<T>, grad_out: &ArrayD<T>) -> Result<ArrayD<T>, NormError> {
        reference::backward(x, grad_out, self.eps, &mut self.weight)
    }
}
