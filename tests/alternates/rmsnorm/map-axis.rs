//! alternate: `map_axis` with a dot product per row for the sum of squares; `rows_mut` scales by the weight

use ndarray::{Array, ArrayD, Axis};
use tutor_kit::{reference, Float, NormError, Param};

pub struct RMSNorm {
    pub eps: f32,
    pub weight: Param,
}

impl RMSNorm {
    pub fn new(hidden_size: usize, eps: f32) -> Result<Self, NormError> {
        reference::check_config(hidden_size, eps)?;
        Ok(RMSNorm { eps, weight: Param::trainable(Array::ones(hidden_size)) })
    }

    pub fn norm<T: Float>(&self, x: &ArrayD<T>) -> Result<ArrayD<f32>, NormError> {
        reference::check_input(x, self.weight.len())?;
        let last = Axis(x.ndim() - 1);
        let x32 = x.mapv(|v| v.to_f32());
        let d = x32.len_of(last) as f32;
        let mean_square = x32.map_axis(last, |row| row.dot(&row) / d);
        let rms = mean_square.mapv(|ms| (ms + self.eps).sqrt()).insert_axis(last);
        Ok(&x32 / &rms)
    }

    pub fn forward<T: Float>(&self, x: &ArrayD<T>) -> Result<ArrayD<T>, NormError> {
        reference::check_input(x, self.weight.len())?;
        let mut scaled = self.norm(x)?;
        for mut row in scaled.rows_mut() {
            row.zip_mut_with(&self.weight.value, |v, &w| *v *= w);
        }
        Ok(scaled.mapv(T::from_f32))
    }

    pub fn backward<T: Float>(&mut self, x: &ArrayD<T>, grad_out: &ArrayD<T>) -> Result<ArrayD<T>, NormError> {
        reference::backward(x, grad_out, self.eps, &mut self.weight)
    }
}
