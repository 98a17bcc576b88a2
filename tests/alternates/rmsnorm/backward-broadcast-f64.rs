//! alternate: backward vectorised in f64: r per row broadcast back with insert_axis, dweight from a [rows, D] view summed over axis 0

use ndarray::{Array1, ArrayD, Axis};
use tutor_kit::{reference, Float, NormError, Param};

pub struct RMSNorm {
    pub eps: f32,
    pub weight: Param,
}

impl RMSNorm {
    pub fn new(hidden_size: usize, eps: f32) -> Result<Self, NormError> {
        reference::check_config(hidden_size, eps)?;
        Ok(RMSNorm { eps, weight: reference::scale_parameter(hidden_size) })
    }

    pub fn norm<T: Float>(&self, x: &ArrayD<T>) -> Result<ArrayD<f32>, NormError> {
        reference::check_input(x, self.weight.len())?;
        reference::rms_normalize(x, self.eps)
    }

    pub fn forward<T: Float>(&self, x: &ArrayD<T>) -> Result<ArrayD<T>, NormError> {
        reference::scale_and_cast(&self.norm(x)?, &self.weight)
    }

    pub fn backward<T: Float>(&mut self, x: &ArrayD<T>, grad_out: &ArrayD<T>) -> Result<ArrayD<T>, NormError> {
        reference::check_input(x, self.weight.len())?;
        if x.shape() != grad_out.shape() {
            return Err(NormError::ShapeMismatch { expected: x.shape().to_vec(), found: grad_out.shape().to_vec() });
        }
        let last = Axis(x.ndim() - 1);
        let d = x.len_of(last);
        let x64 = x.mapv(|v| v.to_f64());
        let g64 = grad_out.mapv(|v| v.to_f64());
        let w = self.weight.value.mapv(f64::from);
        let mean_square = x64.mapv(|v| v * v).sum_axis(last) / d as f64;
        let r = mean_square.mapv(|m| 1.0 / (m + self.eps as f64).sqrt()).insert_axis(last);
        let n = &x64 * &r;
        let h = &g64 * &w;
        let mean_hn = ((&h * &n).sum_axis(last) / d as f64).insert_axis(last);
        let dx = (&h - &(&n * &mean_hn)) * &r;
        let rows = x64.len() / d;
        let per_element = (&g64 * &n).into_shape_with_order((rows, d)).map_err(|_| NormError::NoAxis)?;
        let dweight: Array1<f64> = per_element.sum_axis(Axis(0));
        self.weight.accumulate_grad(&dweight.mapv(|v| v as f32))?;
        Ok(dx.mapv(T::from_f64))
    }
}
