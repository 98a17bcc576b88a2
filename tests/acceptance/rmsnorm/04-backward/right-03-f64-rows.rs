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
        let dd = self.weight.len();
        let xs: Vec<f64> = x.iter().map(|v| v.to_f32() as f64).collect();
        let gs: Vec<f64> = grad_out.iter().map(|v| v.to_f32() as f64).collect();
        let w: Vec<f64> = self.weight.value.iter().map(|&v| v as f64).collect();
        let mut dx = vec![0.0f32; xs.len()];
        let mut dw = vec![0.0f64; dd];
        for start in (0..xs.len()).step_by(dd.max(1)) {
            let row = &xs[start..start + dd];
            let g = &gs[start..start + dd];
            let ms = row.iter().map(|v| v * v).sum::<f64>() / dd as f64;
            let r = 1.0 / (ms + self.eps as f64).sqrt();
            let mut hn = 0.0;
            for i in 0..dd {
                dw[i] += g[i] * row[i] * r;
                hn += g[i] * w[i] * row[i] * r;
            }
            let m = hn / dd as f64;
            for i in 0..dd {
                dx[start + i] = (r * (g[i] * w[i] - row[i] * r * m)) as f32;
            }
        }
        let dweight: Array1<f32> = dw.iter().map(|&v| v as f32).collect();
        self.weight.accumulate_grad(&dweight)?;
        let dx = ArrayD::from_shape_vec(x.raw_dim(), dx).expect("same size");
        Ok(dx.mapv(T::from_f32))
    }
}
