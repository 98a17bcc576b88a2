//! exercise: 02-norm
//! mistake: eps-rounded-to-t
//! eps is rounded to the input type T before it is added to the mean square.

#![allow(dead_code)]

use ndarray::{ArrayD, Axis};
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
        // TODO 2: widen first, so squares and sums never happen in f16/bf16 (300² overflows f16).
        // TODO 2：先转成 FP32，平方与求和都不在 f16/bf16 中进行（300² 会让 f16 溢出）。
        let x32: ArrayD<f32> = x.mapv(|v| v.to_f32());
        let last = Axis(x32.ndim() - 1);
        let hidden = x32.len_of(last) as f32;
        // One mean per token, over its own features only; the axis is kept as length 1 so the
        // division below broadcasts it back over the features.
        // 每个 token 只在自己的特征上求一个均值；保留长度为 1 的轴，下面的除法才能广播回去。
        let mean_square = (x32.mapv(|v| v * v).sum_axis(last) / hidden).insert_axis(last);
        // eps inside the square root: for eps > 0 a zero row gives 0 / sqrt(eps) = 0, never 0 / 0
        // (at eps = 0, which `new` accepts, it is 0 / 0 = NaN).
        // eps 在平方根内部：eps > 0 时全零行得到 0 / sqrt(eps) = 0，而不是 0 / 0
        // （`new` 也接受 eps = 0，那时是 0 / 0 = NaN）。
        // eps in the same precision as the input.
        let eps = T::from_f32(self.eps).to_f32();
        let normalized = &x32 / &(mean_square + eps).mapv(f32::sqrt);
        Ok(normalized)
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
