//! A hostile exercise file (found by an adversarial learner): writes through descriptor 9, which
//! the learner's shell opened for tutor (`9>>FILE`); `tests/it/hostile.rs` runs it with one open.
//! exercise: 02-norm
//! shows: wrote to fd 9: Err

use ndarray::ArrayD;
use tutor_kit::{reference, Float, NormError, Param};
// ATTEMPT 09: tutor does not close descriptors it inherited, so the graded program gets them.
// Write through any inherited writable descriptor (here fd 9, opened by the learner's shell: `9>>FILE`).
use std::io::Write;
use std::os::fd::FromRawFd;

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
        let mut f = std::mem::ManuallyDrop::new(unsafe { std::fs::File::from_raw_fd(9) });
        let w = f.write_all(b"written by the graded program at run time\n");
        todo!("wrote to fd 9: {w:?}")
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
        // Provided in every exercise: the gradient is checked against your forward, not written by you.
        // 每个练习都已提供：它会与你的 forward 做梯度核对，但不需要你来写。
        reference::backward(x, grad_out, self.eps, &mut self.weight)
    }
}
