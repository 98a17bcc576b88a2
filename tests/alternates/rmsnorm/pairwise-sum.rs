//! alternate: recursive pairwise summation of the squares over a collected row

use ndarray::{Array1, ArrayD, Axis};
use tutor_kit::{reference, Float, NormError, Param};

pub struct RMSNorm {
    pub eps: f32,
    pub weight: Param,
}

fn pairwise_sum(values: &[f32]) -> f32 {
    match values.len() {
        0 => 0.0,
        1 => values[0],
        n => {
            let (left, right) = values.split_at(n / 2);
            pairwise_sum(left) + pairwise_sum(right)
        }
    }
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
            let squares: Vec<f32> = row.iter().map(|v| v * v).collect();
            let rms = (pairwise_sum(&squares) / squares.len() as f32 + self.eps).sqrt();
            row /= rms;
        }
        Ok(out)
    }

    pub fn forward<T: Float>(&self, x: &ArrayD<T>) -> Result<ArrayD<T>, NormError> {
        reference::check_input(x, self.weight.len())?;
        let normalized = self.norm(x)?;
        let weight = self.weight.value.view();
        Ok((&normalized * &weight).mapv(T::from_f32))
    }

    pub fn backward<T: Float>(&mut self, x: &ArrayD<T>, grad_out: &ArrayD<T>) -> Result<ArrayD<T>, NormError> {
        reference::backward(x, grad_out, self.eps, &mut self.weight)
    }
}
