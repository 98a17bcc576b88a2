//! alternate: `mean_axis` for the mean square, and the weight broadcast to the input's shape explicitly

use ndarray::{Array1, ArrayD, Axis};
use tutor_kit::{reference, Float, NormError, Param};

pub struct RMSNorm {
    pub eps: f32,
    pub weight: Param,
}

impl RMSNorm {
    pub fn new(hidden_size: usize, eps: f32) -> Result<Self, NormError> {
        reference::check_config(hidden_size, eps)?;
        Ok(RMSNorm { eps, weight: Param::trainable(Array1::from(vec![1.0f32; hidden_size])) })
    }

    pub fn norm<T: Float>(&self, x: &ArrayD<T>) -> Result<ArrayD<f32>, NormError> {
        reference::check_input(x, self.weight.len())?;
        let last = Axis(x.ndim() - 1);
        let x32: ArrayD<f32> = x.mapv(|v| v.to_f32());
        // `mean_axis` is `None` only for an empty axis, and the feature axis never is.
        let mean_square = x32.mapv(|v| v * v).mean_axis(last).ok_or(NormError::NoAxis)?.insert_axis(last);
        let rms = (mean_square + self.eps).mapv_into(f32::sqrt);
        Ok(&x32 / &rms)
    }

    pub fn forward<T: Float>(&self, x: &ArrayD<T>) -> Result<ArrayD<T>, NormError> {
        reference::check_input(x, self.weight.len())?;
        let normalized = self.norm(x)?;
        let weight = self.weight.value.broadcast(normalized.shape()).ok_or(NormError::HiddenSizeMismatch {
            expected: self.weight.len(),
            found: normalized.shape().last().copied().unwrap_or(0),
        })?;
        Ok((&normalized * &weight).mapv(T::from_f32))
    }

    pub fn backward<T: Float>(&mut self, x: &ArrayD<T>, grad_out: &ArrayD<T>) -> Result<ArrayD<T>, NormError> {
        reference::backward(x, grad_out, self.eps, &mut self.weight)
    }
}
