//! alternate: `ndarray::Zip` throughout: per-lane sums, a broadcast divide, and a broadcast weight in forward

use ndarray::{Array1, ArrayD, Axis, IxDyn, Zip};
use tutor_kit::{reference, Float, NormError, Param};

pub struct RMSNorm {
    pub eps: f32,
    pub weight: Param,
}

impl RMSNorm {
    pub fn new(hidden_size: usize, eps: f32) -> Result<Self, NormError> {
        reference::check_config(hidden_size, eps)?;
        Ok(RMSNorm { eps, weight: Param::trainable((0..hidden_size).map(|_| 1.0).collect::<Array1<f32>>()) })
    }

    pub fn norm<T: Float>(&self, x: &ArrayD<T>) -> Result<ArrayD<f32>, NormError> {
        reference::check_input(x, self.weight.len())?;
        let last = Axis(x.ndim() - 1);
        let d = x.len_of(last) as f32;
        let rows_shape = &x.shape()[..x.ndim() - 1];
        let mut rms = ArrayD::<f32>::zeros(IxDyn(rows_shape));
        Zip::from(&mut rms).and(x.lanes(last)).for_each(|r, row| {
            let sum_sq: f32 = row.iter().map(|v| v.to_f32() * v.to_f32()).sum();
            *r = (sum_sq / d + self.eps).sqrt();
        });
        let rms = rms.insert_axis(last);
        let mut out = ArrayD::<f32>::zeros(x.raw_dim());
        Zip::from(&mut out).and(x).and_broadcast(&rms).for_each(|o, v, r| *o = v.to_f32() / r);
        Ok(out)
    }

    pub fn forward<T: Float>(&self, x: &ArrayD<T>) -> Result<ArrayD<T>, NormError> {
        reference::check_input(x, self.weight.len())?;
        let normalized = self.norm(x)?;
        Ok(Zip::from(&normalized).and_broadcast(&self.weight.value).map_collect(|&n, &w| T::from_f32(n * w)))
    }

    pub fn backward<T: Float>(&mut self, x: &ArrayD<T>, grad_out: &ArrayD<T>) -> Result<ArrayD<T>, NormError> {
        reference::backward(x, grad_out, self.eps, &mut self.weight)
    }
}
