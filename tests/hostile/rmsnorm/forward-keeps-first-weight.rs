//! exercise: 03-forward
//! shows: weight kept between calls
//! hides: the weight is never multiplied in
//! a wrong answer graded as an attack: forward keeps, in a static, the weight of the first layer it ran on. Only a fresh graded program tells it from a weight ignored, so it is graded out of process (in-process tests share one process).

#![allow(dead_code)]

use ndarray::ArrayD;
use tutor_kit::{reference, Float, NormError, Param};

/// RMSNorm: `y = x / sqrt(mean(x²) + eps) ⊙ weight`, statistics along the last axis only.
/// RMSNorm：只沿最后一维统计，`y = x / sqrt(mean(x²) + eps) ⊙ weight`。
pub struct RMSNorm {
    /// Added inside the square root, so that, for eps > 0, a zero vector stays finite.
    /// 加在平方根内部：eps > 0 时，零向量的结果有限。
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
        reference::check_input(x, self.weight.len())?;
        // TODO 3: scale in FP32 with the FP32 master weight, then round once to the input's type.
        // TODO 3：用 FP32 主权重在 FP32 中缩放，最后只舍入一次回到输入类型。
        let normalized = self.norm(x)?;
        // [..., D] ⊙ [D]: ndarray broadcasts the weight along the last axis, one scale per feature.
        // [..., D] ⊙ [D]：ndarray 沿最后一维广播权重，每个特征一个缩放值。
        // The weight of the first layer that ran forward, kept for every layer after it.
        static FIRST_WEIGHT: std::sync::OnceLock<ndarray::Array1<f32>> = std::sync::OnceLock::new();
        let weight = FIRST_WEIGHT.get_or_init(|| self.weight.value.clone());
        let scaled = &normalized * weight;
        let output: ArrayD<T> = scaled.mapv(T::from_f32);
        Ok(output)
    }

    /// Gradient of `sum(forward(x) ⊙ grad_out)`: returns dx, accumulates dweight into `weight.grad`.
    /// `sum(forward(x) ⊙ grad_out)` 的梯度：返回 dx，并把 dweight 累加到 `weight.grad`。
    pub fn backward<T: Float>(&mut self, x: &ArrayD<T>, grad_out: &ArrayD<T>) -> Result<ArrayD<T>, NormError> {
        // Exercise 04 writes the gradients; here the kit provides them (checked against your forward).
        // 梯度由练习 04 编写；这里由 kit 提供（会与你的 forward 做梯度核对）。
        reference::backward(x, grad_out, self.eps, &mut self.weight)
    }
}
