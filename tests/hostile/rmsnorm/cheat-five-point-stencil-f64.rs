//! exercise: 04-backward
//! args: --timeout 6
//! shows: each row divided by its terms' scale
//! shows: grows with D² per row
//! a cheat: five-point central differences (step 1e-4 of each value) of a private forward written in f64, returned in f64: far closer than a two-point difference, still not a derived gradient.

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
        let eps = self.eps as f64;
        let w: Vec<f64> = self.weight.value.iter().map(|&v| v as f64).collect();
        let x64 = x.mapv(|v| v.to_f64());
        let g64 = grad_out.mapv(|v| v.to_f64());
        let mut dx = ArrayD::<f64>::zeros(x.raw_dim());
        let mut dweight = vec![0.0f64; w.len()];
        for ((xr, gr), mut dxr) in x64.lanes(last).into_iter().zip(g64.lanes(last)).zip(dx.lanes_mut(last)) {
            let xv = xr.to_vec();
            let gv = gr.to_vec();
            let loss = |xs: &[f64], ws: &[f64]| -> f64 {
                let ms = xs.iter().map(|v| v * v).sum::<f64>() / xs.len() as f64;
                let r = 1.0 / (ms + eps).sqrt();
                xs.iter().zip(ws).zip(&gv).map(|((a, b), c)| a * r * b * c).sum()
            };
            let mut probe = xv.clone();
            for i in 0..xv.len() {
                let h = 1e-4 * xv[i].abs().max(1e-3);
                let mut at = |k: f64| { probe[i] = xv[i] + k * h; let v = loss(&probe, &w); probe[i] = xv[i]; v };
                let d = (8.0 * (at(1.0) - at(-1.0)) - (at(2.0) - at(-2.0))) / (12.0 * h);
                dxr[i] = d;
            }
            let mut wp = w.clone();
            for j in 0..w.len() {
                let h = 1e-4;
                let mut at = |k: f64| { wp[j] = w[j] + k * h; let v = loss(&xv, &wp); wp[j] = w[j]; v };
                dweight[j] += (8.0 * (at(1.0) - at(-1.0)) - (at(2.0) - at(-2.0))) / (12.0 * h);
            }
        }
        let dweight: Array1<f32> = dweight.iter().map(|&v| v as f32).collect();
        self.weight.accumulate_grad(&dweight)?;
        Ok(dx.mapv(T::from_f64))
    }
}
