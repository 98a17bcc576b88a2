//! alternate: checks everything itself as well (config, rank, width, weight length, shapes) before and after the kit's checks

use ndarray::{Array1, ArrayD, Axis};
use tutor_kit::{reference, Float, NormError, Param};

pub struct RMSNorm {
    pub eps: f32,
    pub weight: Param,
}

impl RMSNorm {
    pub fn new(hidden_size: usize, eps: f32) -> Result<Self, NormError> {
        if hidden_size == 0 {
            return Err(NormError::ZeroHiddenSize);
        }
        if eps.is_nan() || eps.is_infinite() || eps < 0.0 {
            return Err(NormError::BadEps(eps));
        }
        reference::check_config(hidden_size, eps)?;
        let weight = Param::trainable(Array1::<f32>::ones(hidden_size));
        if weight.len() != hidden_size || !weight.requires_grad || weight.grad.is_some() {
            return Err(NormError::ShapeMismatch { expected: vec![hidden_size], found: vec![weight.len()] });
        }
        Ok(RMSNorm { eps, weight })
    }

    fn validate<T>(&self, x: &ArrayD<T>) -> Result<Axis, NormError> {
        if x.ndim() == 0 {
            return Err(NormError::NoAxis);
        }
        let found = x.shape()[x.ndim() - 1];
        if found != self.weight.len() {
            return Err(NormError::HiddenSizeMismatch { expected: self.weight.len(), found });
        }
        reference::check_input(x, self.weight.len())?;
        Ok(Axis(x.ndim() - 1))
    }

    pub fn norm<T: Float>(&self, x: &ArrayD<T>) -> Result<ArrayD<f32>, NormError> {
        let last = self.validate(x)?;
        let d = x.len_of(last);
        let mut values = Vec::with_capacity(x.len());
        for row in x.lanes(last) {
            let row32: Vec<f32> = row.iter().map(|v| v.to_f32()).collect();
            let mean_square = row32.iter().map(|v| v * v).sum::<f32>() / d as f32;
            let rms = (mean_square + self.eps).sqrt();
            values.extend(row32.iter().map(|v| v / rms));
        }
        let out = ArrayD::from_shape_vec(x.raw_dim(), values)
            .map_err(|_| NormError::ShapeMismatch { expected: x.shape().to_vec(), found: vec![x.len()] })?;
        if out.shape() != x.shape() {
            return Err(NormError::ShapeMismatch { expected: x.shape().to_vec(), found: out.shape().to_vec() });
        }
        Ok(out)
    }

    pub fn forward<T: Float>(&self, x: &ArrayD<T>) -> Result<ArrayD<T>, NormError> {
        self.validate(x)?;
        let normalized = self.norm(x)?;
        if normalized.shape() != x.shape() {
            return Err(NormError::ShapeMismatch { expected: x.shape().to_vec(), found: normalized.shape().to_vec() });
        }
        let scaled = &normalized * &self.weight.value;
        let output = scaled.mapv(T::from_f32);
        debug_assert_eq!(output.shape(), x.shape());
        Ok(output)
    }

    pub fn backward<T: Float>(&mut self, x: &ArrayD<T>, grad_out: &ArrayD<T>) -> Result<ArrayD<T>, NormError> {
        self.validate(x)?;
        if grad_out.shape() != x.shape() {
            return Err(NormError::ShapeMismatch { expected: x.shape().to_vec(), found: grad_out.shape().to_vec() });
        }
        reference::backward(x, grad_out, self.eps, &mut self.weight)
    }
}
