//! alternate: Kahan-compensated FP32 sum of squares per row; forward walks the flat output with `i % D` for the weight

use ndarray::{Array1, ArrayD, Axis};
use tutor_kit::{reference, Float, NormError, Param};

pub struct RMSNorm {
    pub eps: f32,
    pub weight: Param,
}

fn kahan_sum_of_squares<'a>(values: impl Iterator<Item = &'a f32>) -> f32 {
    let mut sum = 0.0f32;
    let mut compensation = 0.0f32;
    for &v in values {
        let y = v * v - compensation;
        let t = sum + y;
        compensation = (t - sum) - y;
        sum = t;
    }
    sum
}

impl RMSNorm {
    pub fn new(hidden_size: usize, eps: f32) -> Result<Self, NormError> {
        reference::check_config(hidden_size, eps)?;
        Ok(RMSNorm { eps, weight: Param::trainable(Array1::ones(hidden_size)) })
    }

    pub fn norm<T: Float>(&self, x: &ArrayD<T>) -> Result<ArrayD<f32>, NormError> {
        reference::check_input(x, self.weight.len())?;
        let last = Axis(x.ndim() - 1);
        let mut out = x.mapv(T::to_f32);
        for mut row in out.lanes_mut(last) {
            let mean_square = kahan_sum_of_squares(row.iter()) / row.len() as f32;
            let scale = 1.0 / (mean_square + self.eps).sqrt();
            row.mapv_inplace(|v| v * scale);
        }
        Ok(out)
    }

    pub fn forward<T: Float>(&self, x: &ArrayD<T>) -> Result<ArrayD<T>, NormError> {
        reference::check_input(x, self.weight.len())?;
        let normalized = self.norm(x)?;
        let d = self.weight.len();
        // `iter()` visits elements in logical row-major order: the feature index is i % D.
        let values: Vec<T> =
            normalized.iter().enumerate().map(|(i, &n)| T::from_f32(n * self.weight.value[i % d])).collect();
        Ok(ArrayD::from_shape_vec(normalized.raw_dim(), values).expect("one value per element"))
    }

    pub fn backward<T: Float>(&mut self, x: &ArrayD<T>, grad_out: &ArrayD<T>) -> Result<ArrayD<T>, NormError> {
        reference::backward(x, grad_out, self.eps, &mut self.weight)
    }
}
