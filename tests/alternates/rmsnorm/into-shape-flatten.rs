//! alternate: flattened to an owned [rows, D] matrix with `into_shape_with_order`, 2-D broadcasting, reshaped back

use ndarray::{Array, Array1, ArrayD, Axis};
use tutor_kit::{reference, Float, NormError, Param};

pub struct RMSNorm {
    pub eps: f32,
    pub weight: Param,
}

impl RMSNorm {
    pub fn new(hidden_size: usize, eps: f32) -> Result<Self, NormError> {
        reference::check_config(hidden_size, eps)?;
        Ok(RMSNorm { eps, weight: Param::trainable(Array1::zeros(hidden_size) + 1.0) })
    }

    pub fn norm<T: Float>(&self, x: &ArrayD<T>) -> Result<ArrayD<f32>, NormError> {
        reference::check_input(x, self.weight.len())?;
        let d = self.weight.len();
        let rows = x.len() / d;
        // Logical (row-major) order whatever x's memory layout, so the reshape always succeeds.
        let flat = Array::from_iter(x.iter().map(|v| v.to_f32()));
        let x2 = flat.into_shape_with_order((rows, d)).expect("rows * D elements");
        let mean_square = (&x2 * &x2).sum_axis(Axis(1)) / d as f32;
        let inv_rms = mean_square.mapv(|ms| 1.0 / (ms + self.eps).sqrt()).insert_axis(Axis(1));
        let normalized = &x2 * &inv_rms;
        Ok(normalized.into_shape_with_order(x.shape()).expect("same number of elements"))
    }

    pub fn forward<T: Float>(&self, x: &ArrayD<T>) -> Result<ArrayD<T>, NormError> {
        reference::check_input(x, self.weight.len())?;
        let d = self.weight.len();
        let normalized = self.norm(x)?;
        let rows = normalized.len() / d;
        let mut y2 = normalized.into_shape_with_order((rows, d)).expect("rows * D elements");
        y2 *= &self.weight.value;
        Ok(y2.mapv(T::from_f32).into_shape_with_order(x.shape()).expect("same number of elements"))
    }

    pub fn backward<T: Float>(&mut self, x: &ArrayD<T>, grad_out: &ArrayD<T>) -> Result<ArrayD<T>, NormError> {
        reference::backward(x, grad_out, self.eps, &mut self.weight)
    }
}
