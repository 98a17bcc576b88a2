//! Exercise 04 · backward by hand: the gradients of x and of the weight
//! 练习 04 · 手写反向传播：x 与权重的梯度
//!
//! Your exercise: only TODO 4 is yours; the other methods are given so that this file can be
//! graded on its own. Lesson: `tutor lesson 04-backward` · check: `tutor check 04-backward` · hint: `tutor hint 04-backward`.
//! 你的练习：只有 TODO 4 需要你完成；其余方法已提供，保证本文件可以单独评分。
//! 课程：`tutor lesson 04-backward` · 检查：`tutor check 04-backward` · 提示：`tutor hint 04-backward`。

#[allow(unused_imports)] // Array1 and Axis are what TODO 4 needs / TODO 4 会用到 Array1 与 Axis
use ndarray::{Array1, ArrayD, Axis};
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
        // TODO 4
        let axis = Axis(x.ndim() - 1);
        let d = x.len_of(axis);
        let w: Array1<f64> = self.weight.value.mapv(|v| v as f64);
        let mut dx = ArrayD::<f64>::zeros(x.raw_dim());
        let mut dweight = Array1::<f64>::zeros(d);
        for ((x_row, g_row), mut dx_row) in x.lanes(axis).into_iter().zip(grad_out.lanes(axis)).zip(dx.lanes_mut(axis)) {
            let x_row = x_row.mapv(|v| v.to_f64());
            let g_row = g_row.mapv(|v| v.to_f64());
            let ms = x_row.mapv(|v| v * v).sum() / d as f64;
            let r = 1.0 / ms.sqrt();
            let n = &x_row * r;
            let h = &g_row * &w;
            let m = (&h * &n).sum() / d as f64;
            dx_row.assign(&((&h - &(&n * m)) * r));
            dweight += &(&g_row * &n);
        }
        self.weight.accumulate_grad(&dweight.mapv(|v| v as f32))?;
        Ok(dx.mapv(T::from_f64))
    }
}
