//! alternate: the tutorial's PyTorch reference solution, line for line: the weight cast to x's dtype first, the product in FP32, one rounding

use ndarray::{Array1, ArrayD, Axis, Zip};
use tutor_kit::{reference, Float, NormError, Param};

pub struct RMSNorm {
    pub eps: f32,
    pub weight: Param,
}

impl RMSNorm {
    pub fn new(hidden_size: usize, eps: f32) -> Result<Self, NormError> {
        reference::check_config(hidden_size, eps)?;
        // TODO 1: self.weight = nn.Parameter(torch.ones(hidden_size))
        Ok(RMSNorm { eps, weight: Param::trainable(Array1::ones(hidden_size)) })
    }

    /// `_norm`: FP32 statistics, FP32 result.
    pub fn norm<T: Float>(&self, x: &ArrayD<T>) -> Result<ArrayD<f32>, NormError> {
        // if x.ndim < 1: raise ValueError('x 至少需要包含一个特征维')
        if x.ndim() < 1 {
            return Err(NormError::NoAxis);
        }
        // (PyTorch would fail on a wrong width only when broadcasting against the weight.)
        reference::check_input(x, self.weight.len())?;
        // TODO 2
        // x_fp32 = x.float()
        let x_fp32 = x.mapv(T::to_f32);
        // mean_square = x_fp32.pow(2).mean(dim=-1, keepdim=True)
        let last = Axis(x_fp32.ndim() - 1);
        let mean_square = x_fp32.mapv(|v| v.powi(2)).mean_axis(last).ok_or(NormError::NoAxis)?.insert_axis(last);
        // normalized = x_fp32 * torch.rsqrt(mean_square + self.eps)
        let normalized = &x_fp32 * &(mean_square + self.eps).mapv(|v| 1.0 / v.sqrt());
        Ok(normalized)
    }

    pub fn forward<T: Float>(&self, x: &ArrayD<T>) -> Result<ArrayD<T>, NormError> {
        // TODO 3
        // weight = self.weight.to(dtype=x.dtype)
        let weight: Array1<T> = self.weight.value.mapv(T::from_f32);
        // normalized = self._norm(x)
        let normalized = self.norm(x)?;
        // output = (normalized * weight).to(dtype=x.dtype): for an f16/bf16 x, FP32 times x.dtype
        // promotes to FP32 in PyTorch, so the product is taken in FP32 and `.to` rounds it once.
        // (For f64 PyTorch would multiply in f64; FP32 is kept here for every type.)
        let output = Zip::from(&normalized).and_broadcast(&weight).map_collect(|&n, &w| T::from_f32(n * w.to_f32()));
        Ok(output)
    }

    pub fn backward<T: Float>(&mut self, x: &ArrayD<T>, grad_out: &ArrayD<T>) -> Result<ArrayD<T>, NormError> {
        reference::backward(x, grad_out, self.eps, &mut self.weight)
    }
}
