//! alternate: viewed as [rows, D] with `to_shape`, rows walked with `outer_iter`, then reshaped back

use ndarray::{Array1, Array2, ArrayD};
use tutor_kit::{reference, Float, NormError, Param};

pub struct RMSNorm {
    pub eps: f32,
    pub weight: Param,
}

impl RMSNorm {
    pub fn new(hidden_size: usize, eps: f32) -> Result<Self, NormError> {
        reference::check_config(hidden_size, eps)?;
        Ok(RMSNorm { eps, weight: Param::trainable(Array1::linspace(1.0, 1.0, hidden_size)) })
    }

    pub fn norm<T: Float>(&self, x: &ArrayD<T>) -> Result<ArrayD<f32>, NormError> {
        reference::check_input(x, self.weight.len())?;
        let d = self.weight.len();
        let rows = x.len() / d;
        let x2 = x.to_shape((rows, d)).expect("[rows, D] holds the same elements");
        let mut out = Array2::<f32>::zeros((rows, d));
        for (row, mut out_row) in x2.outer_iter().zip(out.outer_iter_mut()) {
            let mean_square = row.iter().map(|v| v.to_f32() * v.to_f32()).sum::<f32>() / d as f32;
            let rms = (mean_square + self.eps).sqrt();
            for (o, v) in out_row.iter_mut().zip(row.iter()) {
                *o = v.to_f32() / rms;
            }
        }
        Ok(out.into_shape_with_order(x.raw_dim()).expect("same number of elements"))
    }

    pub fn forward<T: Float>(&self, x: &ArrayD<T>) -> Result<ArrayD<T>, NormError> {
        reference::check_input(x, self.weight.len())?;
        let normalized = self.norm(x)?;
        let d = self.weight.len();
        let rows = normalized.len() / d;
        let n2 = normalized.to_shape((rows, d)).expect("[rows, D] holds the same elements");
        let mut values = Vec::with_capacity(normalized.len());
        for row in n2.outer_iter() {
            for (n, w) in row.iter().zip(self.weight.value.iter()) {
                values.push(T::from_f32(n * w));
            }
        }
        Ok(ArrayD::from_shape_vec(x.raw_dim(), values).expect("one value per element"))
    }

    pub fn backward<T: Float>(&mut self, x: &ArrayD<T>, grad_out: &ArrayD<T>) -> Result<ArrayD<T>, NormError> {
        reference::backward(x, grad_out, self.eps, &mut self.weight)
    }
}
