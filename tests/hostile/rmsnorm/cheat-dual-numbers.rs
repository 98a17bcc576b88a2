//! exercise: 04-backward
//! args: --timeout 6
//! shows: grows with D² per row
//! hides: time limit and was stopped
//! a cheat: no derivation, forward-mode automatic differentiation with dual numbers, one feature at a time: exact to f64's rounding, D² steps per row.

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
        // No derivation: forward-mode automatic differentiation with dual numbers, one input at a
        // time. Exact to f64's rounding, so no precision bound tells it from a derived gradient,
        // but it runs the forward once per feature: D² steps per row.
        #[derive(Clone, Copy)]
        struct Dual {
            value: f64,
            slope: f64,
        }
        impl Dual {
            fn add(self, o: Dual) -> Dual {
                Dual { value: self.value + o.value, slope: self.slope + o.slope }
            }
            fn mul(self, o: Dual) -> Dual {
                Dual { value: self.value * o.value, slope: self.value * o.slope + self.slope * o.value }
            }
            fn inverse_sqrt(self) -> Dual {
                let r = 1.0 / self.value.sqrt();
                Dual { value: r, slope: -0.5 * r * r * r * self.slope }
            }
        }
        let constant = |value: f64| Dual { value, slope: 0.0 };
        let last = Axis(x.ndim() - 1);
        let d = x.len_of(last);
        let eps = f64::from(self.eps);
        let weight: Vec<f64> = self.weight.value.iter().map(|&w| f64::from(w)).collect();
        // Σ_k forward(x)_k · g_k for one row, with x and the weight as dual numbers.
        let loss = |xs: &[Dual], ws: &[Dual], g: &[f64]| -> Dual {
            let mut sum = constant(0.0);
            for v in xs {
                sum = sum.add(v.mul(*v));
            }
            let r = sum.mul(constant(1.0 / d as f64)).add(constant(eps)).inverse_sqrt();
            let mut total = constant(0.0);
            for k in 0..d {
                total = total.add(xs[k].mul(r).mul(ws[k]).mul(constant(g[k])));
            }
            total
        };
        let mut dx = ArrayD::<f64>::zeros(x.raw_dim());
        let mut dweight = Array1::<f64>::zeros(d);
        let rows = x.lanes(last).into_iter().zip(grad_out.lanes(last)).zip(dx.lanes_mut(last));
        for ((x_row, g_row), mut dx_row) in rows {
            let xs: Vec<Dual> = x_row.iter().map(|v| constant(v.to_f64())).collect();
            let ws: Vec<Dual> = weight.iter().map(|&w| constant(w)).collect();
            let g: Vec<f64> = g_row.iter().map(|v| v.to_f64()).collect();
            for i in 0..d {
                let mut seeded = xs.clone();
                seeded[i].slope = 1.0;
                dx_row[i] = loss(&seeded, &ws, &g).slope;
                let mut seeded = ws.clone();
                seeded[i].slope = 1.0;
                dweight[i] += loss(&xs, &seeded, &g).slope;
            }
        }
        if self.weight.requires_grad {
            let dweight = dweight.mapv(|v| v as f32);
            self.weight.grad = Some(match self.weight.grad.take() {
                Some(before) => before + &dweight,
                None => dweight,
            });
        }
        Ok(dx.mapv(T::from_f64))
    }
}
