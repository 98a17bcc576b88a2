//! alternate: backward in f64 in the x-based form dx = r·h − r³·x·Σ(h ⊙ x)/D, pairwise sums, index loops over flat rows

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
        let d = *x.shape().last().ok_or(NormError::NoAxis)?;
        let xs: Vec<f64> = x.iter().map(|v| v.to_f64()).collect();
        let gs: Vec<f64> = grad_out.iter().map(|v| v.to_f64()).collect();
        let w: Vec<f64> = self.weight.value.iter().map(|&v| v as f64).collect();
        let mut dx = vec![0.0f64; xs.len()];
        let mut dweight = Array1::<f64>::zeros(d);
        for start in (0..xs.len()).step_by(d.max(1)) {
            let row = &xs[start..start + d];
            let g = &gs[start..start + d];
            let squares: Vec<f64> = row.iter().map(|v| v * v).collect();
            let r = (pairwise(&squares) / d as f64 + self.eps as f64).sqrt().recip();
            let r3 = r * r * r;
            let hx: Vec<f64> = (0..d).map(|j| g[j] * w[j] * row[j]).collect();
            let dot = pairwise(&hx);
            for j in 0..d {
                dx[start + j] = r * g[j] * w[j] - r3 * row[j] * dot / d as f64;
                dweight[j] += g[j] * row[j] * r;
            }
        }
        self.weight.accumulate_grad(&dweight.mapv(|v| v as f32))?;
        let dx = ArrayD::from_shape_vec(x.raw_dim(), dx).map_err(|_| NormError::NoAxis)?;
        Ok(dx.mapv(T::from_f64))
    }
}

fn pairwise(values: &[f64]) -> f64 {
    match values.len() {
        0 => 0.0,
        1 => values[0],
        n => pairwise(&values[..n / 2]) + pairwise(&values[n / 2..]),
    }
}
