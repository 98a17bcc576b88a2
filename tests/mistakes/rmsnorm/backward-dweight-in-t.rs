//! exercise: 04-backward
//! mistake: weight-gradient-rounded-to-t
//! the weight gradient summed over rows in T (an f16 sum stalls at 2048).

#![allow(dead_code)]

use ndarray::{Array1, ArrayD, Axis};
use tutor_kit::{reference, Float, NormError, Param};

/// RMSNorm: `y = x / sqrt(mean(x²) + eps) ⊙ weight`, statistics along the last axis only.
/// RMSNorm：只沿最后一维统计，`y = x / sqrt(mean(x²) + eps) ⊙ weight`。
pub struct RMSNorm {
    /// Added inside the square root, so that a zero vector stays finite.
    /// 加在平方根内部，保证零向量的结果有限。
    pub eps: f32,
    /// The per-feature scale γ, shape [D], FP32 master copy.
    /// 逐特征缩放参数 γ，形状 [D]，FP32 主副本。
    pub weight: Param,
}

impl RMSNorm {
    /// Builds the layer for hidden vectors of `hidden_size` features.
    /// 为 `hidden_size` 维的隐藏向量创建本层。
    pub fn new(hidden_size: usize, eps: f32) -> Result<Self, NormError> {
        reference::check_config(hidden_size, eps)?;
        // Exercise 01 writes the weight; here the kit provides it.
        // weight 由练习 01 编写；这里由 kit 提供。
        Ok(RMSNorm { eps, weight: reference::scale_parameter(hidden_size) })
    }

    /// `x / sqrt(mean(x²) + eps)` along the last axis, computed in FP32, same shape as `x`.
    /// 沿最后一维计算 `x / sqrt(mean(x²) + eps)`，在 FP32 中进行，形状与 `x` 相同。
    pub fn norm<T: Float>(&self, x: &ArrayD<T>) -> Result<ArrayD<f32>, NormError> {
        reference::check_input(x, self.weight.len())?;
        // Exercise 02 writes the statistics; here the kit provides them.
        // RMS 统计由练习 02 编写；这里由 kit 提供。
        reference::rms_normalize(x, self.eps)
    }

    /// `norm(x) ⊙ weight`, rounded once to `T`.
    /// `norm(x) ⊙ weight`，只舍入一次回到 `T`。
    pub fn forward<T: Float>(&self, x: &ArrayD<T>) -> Result<ArrayD<T>, NormError> {
        // Exercise 03 writes the scaling and the cast; here the kit provides them.
        // 缩放与类型恢复由练习 03 编写；这里由 kit 提供。
        reference::scale_and_cast(&self.norm(x)?, &self.weight)
    }

    /// Gradient of `sum(forward(x) ⊙ grad_out)`: returns dx, accumulates dweight into `weight.grad`.
    /// `sum(forward(x) ⊙ grad_out)` 的梯度：返回 dx，并把 dweight 累加到 `weight.grad`。
    pub fn backward<T: Float>(&mut self, x: &ArrayD<T>, grad_out: &ArrayD<T>) -> Result<ArrayD<T>, NormError> {
        reference::check_input(x, self.weight.len())?;
        if x.shape() != grad_out.shape() {
            return Err(NormError::ShapeMismatch { expected: x.shape().to_vec(), found: grad_out.shape().to_vec() });
        }
        let last = Axis(x.ndim() - 1);
        let x64 = x.mapv(|v| v.to_f64());
        let g64 = grad_out.mapv(|v| v.to_f64());
        let d = x64.len_of(last) as f64;
        let mut dx = ArrayD::<f64>::zeros(x64.raw_dim());
        let mut dweight_t = Array1::<T>::zeros(self.weight.len());
        let rows = x64.lanes(last).into_iter().zip(g64.lanes(last)).zip(dx.lanes_mut(last));
        for ((x_row, g_row), mut dx_row) in rows {
            let r = 1.0 / (x_row.iter().map(|v| v * v).sum::<f64>() / d + (self.eps as f64)).sqrt();
            let n = &x_row * r;
            for (acc, v) in dweight_t.iter_mut().zip((&g_row * &n).iter()) {
                *acc = *acc + T::from_f64(*v);
            }
            let h = &g_row * &self.weight.value.mapv(f64::from);
            let mean_hn = (&h * &n).sum() / d;
            dx_row.assign(&((&h - &(&n * mean_hn)) * r));
        }
        let dweight = dweight_t.mapv(|v| v.to_f64());
        self.weight.accumulate_grad(&dweight.mapv(|v| v as f32))?;
        Ok(dx.mapv(T::from_f64))
    }
}
