//! exercise: 04-backward
//! args: --timeout 6
//! shows: each row divided by its terms' scale
//! shows: grows with D² per row
//! a cheat: no derivation, central differences (step 1e-3) of its own forward::<f64>.

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
        // No derivation: central differences of this layer's own forward, row by row, in f64.
        let last = Axis(x.ndim() - 1);
        let d = x.len_of(last);
        let x64 = x.mapv(|v| v.to_f64());
        let g64 = grad_out.mapv(|v| v.to_f64());
        let mut dx = ArrayD::<f64>::zeros(x64.raw_dim());
        let mut dweight = Array1::<f32>::zeros(self.weight.len());
        let loss = |layer: &Self, row: &ArrayD<f64>, g: &ArrayD<f64>| -> Result<f64, NormError> {
            Ok((layer.forward(row)? * g).sum())
        };
        let rows = x64.lanes(last).into_iter().zip(g64.lanes(last)).zip(dx.lanes_mut(last));
        for ((x_row, g_row), mut dx_row) in rows {
            let row = x_row.to_owned().into_shape_with_order((1, d)).expect("one row").into_dyn();
            let g = g_row.to_owned().into_shape_with_order((1, d)).expect("one row").into_dyn();
            let h = 1e-3;
            for i in 0..d {
                let (mut plus, mut minus) = (row.clone(), row.clone());
                plus[[0, i]] += h;
                minus[[0, i]] -= h;
                dx_row[i] = (loss(self, &plus, &g)? - loss(self, &minus, &g)?) / (2.0 * h);
            }
            let mut probe = RMSNorm { eps: self.eps, weight: Param::trainable(self.weight.value.clone()) };
            for j in 0..d {
                let original = self.weight.value[j];
                probe.weight.value[j] = original + 1e-3;
                let up = loss(&probe, &row, &g)?;
                probe.weight.value[j] = original - 1e-3;
                let down = loss(&probe, &row, &g)?;
                probe.weight.value[j] = original;
                dweight[j] += ((up - down) / 2e-3) as f32;
            }
        }
        self.weight.accumulate_grad(&dweight)?;
        Ok(dx.mapv(T::from_f64))
    }
}
