//! Exercise 01 · the per-feature scale parameter
//! 练习 01 · 逐特征缩放参数
//!
//! Your exercise: only TODO 1 is yours; the other methods are given so that this file can be
//! graded on its own. Lesson: `tutor lesson 01-weight` · check: `tutor check 01-weight` · hint: `tutor hint 01-weight`.
//! 你的练习：只有 TODO 1 需要你完成；其余方法已提供，保证本文件可以单独评分。
//! 课程：`tutor lesson 01-weight` · 检查：`tutor check 01-weight` · 提示：`tutor hint 01-weight`。

use ndarray::{Array1, ArrayD};
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
        // TODO 1: γ = [1.0; D] as a trainable FP32 master copy.
        let ones = Array1::<f32>::from_elem(hidden_size, 1.0);
        let weight = Param::trainable(ones);
        Ok(Self { eps, weight })
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
        // Exercise 04 writes the gradients; here the kit provides them (checked against your forward).
        // 梯度由练习 04 编写；这里由 kit 提供（会与你的 forward 做梯度核对）。
        reference::backward(x, grad_out, self.eps, &mut self.weight)
    }
}
