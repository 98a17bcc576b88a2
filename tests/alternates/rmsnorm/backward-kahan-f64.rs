//! alternate: backward in f64 with Kahan-compensated sums (the mean square, mean(h ⊙ n), and dweight across rows)

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
        let w: Vec<f64> = self.weight.value.iter().map(|&v| f64::from(v)).collect();
        let eps = f64::from(self.eps);
        let mut dx = ArrayD::<f64>::zeros(x.raw_dim());
        let (mut dweight, mut carry) = (vec![0.0f64; w.len()], vec![0.0f64; w.len()]);
        for ((x_row, g_row), mut dx_row) in x.lanes(last).into_iter().zip(grad_out.lanes(last)).zip(dx.lanes_mut(last)) {
            let xs: Vec<f64> = x_row.iter().map(|v| v.to_f64()).collect();
            let gs: Vec<f64> = g_row.iter().map(|v| v.to_f64()).collect();
            let d = xs.len() as f64;
            let r = 1.0 / (kahan(xs.iter().map(|v| v * v)) / d + eps).sqrt();
            let mean_hn = kahan(gs.iter().zip(&w).zip(&xs).map(|((g, w), x)| g * w * x * r)) / d;
            for j in 0..xs.len() {
                let n = xs[j] * r;
                dx_row[j] = r * (gs[j] * w[j] - n * mean_hn);
                // Kahan step for the running sum over rows.
                let y = gs[j] * n - carry[j];
                let t = dweight[j] + y;
                carry[j] = (t - dweight[j]) - y;
                dweight[j] = t;
            }
        }
        self.weight.accumulate_grad(&dweight.iter().map(|&v| v as f32).collect::<Array1<f32>>())?;
        Ok(dx.mapv(T::from_f64))
    }
}

fn kahan(values: impl Iterator<Item = f64>) -> f64 {
    let (mut sum, mut carry) = (0.0f64, 0.0f64);
    for v in values {
        let y = v - carry;
        let t = sum + y;
        carry = (t - sum) - y;
        sum = t;
    }
    sum
}
