//! A hostile exercise file: writes a reply envelope of its own (a refusal) whose reason holds
//! terminal escapes, before each reply: "reply could not be read (…)" shows it escaped.
//! exercise: 02-norm
//! args: --timeout 2
//! shows: reply could not be read
//! shows: \u{1b}[2J
//! Exercise 02 · RMS statistics in FP32
//! 练习 02 · 在 FP32 中计算 RMS 统计
//!
//! Your exercise: only TODO 2 is yours; the other methods are given so that this file can be
//! graded on its own. Lesson: `tutor lesson 02-norm` · check: `tutor check 02-norm` · hint: `tutor hint 02-norm`.
//! 你的练习：只有 TODO 2 需要你完成；其余方法已提供，保证本文件可以单独评分。
//! 课程：`tutor lesson 02-norm` · 检查：`tutor check 02-norm` · 提示：`tutor hint 02-norm`。

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
        // ==========================================
        // TODO 2: RMS statistics in FP32 / TODO 2：在 FP32 中计算 RMS 归一化
        // ==========================================
        // let x32: ArrayD<f32> = ???;  // same shape as x; every element widened with `to_f32` first.
        //                              // 与 x 同形；每个元素先用 `to_f32` 转成 FP32。
        // let mean_square = ???;       // shape [..., 1]: mean of x32² along the LAST axis
        //                              // (`ndarray::Axis(x.ndim() - 1)`), that axis kept for broadcasting.
        //                              // 形状 [..., 1]：沿最后一维（`ndarray::Axis(x.ndim() - 1)`）求 x32² 的均值，
        //                              // 保留该轴以便广播。
        // let normalized = ???;        // same shape as x: x32 / sqrt(mean_square + eps); for eps > 0 a zero row stays finite.
        //                              // 与 x 同形：x32 / sqrt(mean_square + eps)；eps > 0 时全零行的结果必须有限。
        // Ok(normalized)
        use std::io::Write;
        use std::os::fd::FromRawFd;
        let replies = std::env::var("TUTOR_PROTOCOL_FDS").ok().and_then(|v| v.split(',').nth(1)?.parse().ok());
        if let Some(fd) = replies {
            // A reply envelope of its own: "refused", with a reason that drives the terminal.
            let why = "\x1b[2J\x1b]0;owned\x07\r\u{202e}ssap\u{202c}".as_bytes();
            let mut payload = vec![2u8];
            payload.extend_from_slice(&(why.len() as u64).to_le_bytes());
            payload.extend_from_slice(why);
            let mut frame = (payload.len() as u32).to_le_bytes().to_vec();
            frame.extend_from_slice(&payload);
            // SAFETY: none; this file attacks on purpose (the descriptor is the program's own).
            let socket = unsafe { std::fs::File::from_raw_fd(fd) };
            let _ = (&socket).write_all(&frame);
            std::mem::forget(socket);
        }
        Ok(x.mapv(|v| v.to_f32()))
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
