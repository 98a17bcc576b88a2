//! Exercise 02 · A bias-free Linear: y = x·Wᵀ
//! 练习 02 · 无偏置的 Linear：y = x·Wᵀ
//!
//! Your exercise: only TODO 2 is yours; the other pieces are given so that this file can be
//! graded on its own. Lesson: `tutor lesson 02-linear` · check: `tutor check 02-linear` · hint: `tutor hint 02-linear`.
//! 你的练习：只有 TODO 2 需要你完成；其余部分已提供，保证本文件可以单独评分。
//! 课程：`tutor lesson 02-linear` · 检查：`tutor check 02-linear` · 提示：`tutor hint 02-linear`。

use ndarray::ArrayD;
use tutor_kit::{reference, Float, MlpError, Param};
use ndarray::Array2;
use tutor_kit::Rng;

/// SiLU (swish) elementwise: `x·σ(x)`, computed in FP32, rounded once to `T` (an f64 input goes
/// through FP32 too: `to_f32` rounds it; tutor grades f32, f16 and bf16).
/// SiLU（swish）逐元素：`x·σ(x)`，在 FP32 中计算，只舍入一次回到 `T`（f64 输入也经过 FP32：
/// `to_f32` 会舍入它；tutor 评分 f32、f16 与 bf16）。
pub fn silu<T: Float>(x: &ArrayD<T>) -> ArrayD<T> {
    // Exercise 01 writes it; here the kit provides it.
    // 由练习 01 编写；这里由 kit 提供。
    reference::silu(x)
}

/// SiLU's derivative `σ(x)·(1 + x·(1 − σ(x)))`, elementwise, in f64.
/// SiLU 的导数 `σ(x)·(1 + x·(1 − σ(x)))`，逐元素，在 f64 中计算。
pub fn silu_grad<T: Float>(x: &ArrayD<T>) -> ArrayD<f64> {
    // Exercise 05 writes it; here the kit provides it.
    // 由练习 05 编写；这里由 kit 提供。
    reference::silu_grad(x)
}

/// LLaMA's FFN width for a model of width `dim` (Meta's `FeedForward`). A width of 0 before
/// the last step stays 0 (`Ok(0)`: 0 is a multiple of every `multiple_of`), as Meta's formula gives.
/// 模型宽度为 `dim` 时 LLaMA 的 FFN 宽度（Meta 的 `FeedForward`）。最后一步之前宽度为 0 时结果
/// 仍是 0（`Ok(0)`：0 是任何 `multiple_of` 的倍数），和 Meta 的公式一致。
pub fn hidden_size(dim: usize, multiple_of: usize, ffn_dim_multiplier: Option<f64>) -> Result<usize, MlpError> {
    // Exercise 03 writes it; here the kit provides it.
    // 由练习 03 编写；这里由 kit 提供。
    reference::hidden_size(dim, multiple_of, ffn_dim_multiplier)
}

/// A bias-free linear map with PyTorch's layout: weight `[out_features, in_features]`.
/// 无偏置的线性映射，采用 PyTorch 的布局：weight 形状 `[out_features, in_features]`。
pub struct Linear {
    /// The weight W, FP32 master copy, `[out, in]`. / 权重 W，FP32 主副本，形状 `[out, in]`。
    pub weight: Param,
}

impl Linear {
    /// A trainable weight, each element drawn from `U(−1/√in, 1/√in)` with `Rng::new(seed)`.
    /// The same seed gives the same weight: its values are the first out·in draws of
    /// `rng.uniform(-bound, bound)`; where each goes (the order of the draws) is yours.
    /// 可训练的权重，每个元素用 `Rng::new(seed)` 从 `U(−1/√in, 1/√in)` 中抽取。同一种子给出同一
    /// 权重：它的值就是依次抽出的前 out·in 个 `rng.uniform(-bound, bound)`；
    /// 放在哪个位置（抽取顺序）由你决定。
    pub fn new(in_features: usize, out_features: usize, seed: u64) -> Result<Linear, MlpError> {
        reference::check_sizes(in_features, out_features)?;
        let bound = 1.0f32 / (in_features as f32).sqrt();
        let mut rng = Rng::new(seed);
        let value = Array2::from_shape_fn((out_features, in_features), |_| rng.uniform(-bound, bound));
        Ok(Linear { weight: Param::trainable(value) })
    }

    /// `y = x·Wᵀ` over the last axis: `[..., in]` → `[..., out]`, the weight rounded to `T`,
    /// products accumulated in FP32, each output rounded once to `T` (an f64 input goes through
    /// FP32 too; tutor grades f32, f16 and bf16).
    /// 沿最后一维 `y = x·Wᵀ`：`[..., in]` → `[..., out]`；权重先舍入到 `T`，乘积在 FP32 中累加，
    /// 每个输出只舍入一次回到 `T`（f64 输入也经过 FP32；tutor 评分 f32、f16 与 bf16）。
    pub fn forward<T: Float>(&self, x: &ArrayD<T>) -> Result<ArrayD<T>, MlpError> {
        let (out_f, in_f) = self.weight.value.dim();
        reference::check_features(x, in_f)?;
        let w = self.weight.value.clone();
        let xs: Vec<f32> = x.iter().map(|v| v.to_f32()).collect();
        let rows = xs.len() / in_f;
        let mut ys: Vec<T> = Vec::with_capacity(rows * out_f);
        for r in 0..rows {
            let row = &xs[r * in_f..(r + 1) * in_f];
            for j in 0..out_f {
                let mut acc = 0.0f32;
                for k in 0..in_f {
                    acc += row[k] * w[[j, k]];
                }
                ys.push(T::from_f32(acc));
            }
        }
        let mut shape = x.shape().to_vec();
        let last = shape.len() - 1;
        shape[last] = out_f;
        Ok(ArrayD::from_shape_vec(shape, ys).expect("shape"))
    }
}

/// LLaMA's feed-forward block: `down(silu(gate(x)) ⊙ up(x))`.
/// Meta calls gate, down, up `w1`, `w2`, `w3`; Hugging Face `gate_proj`, `down_proj`, `up_proj`.
/// LLaMA 的前馈块：`down(silu(gate(x)) ⊙ up(x))`。
/// Meta 把 gate、down、up 称为 `w1`、`w2`、`w3`；Hugging Face 称为 `gate_proj`、`down_proj`、`up_proj`。
pub struct FeedForward {
    /// `[hidden, dim]`: its output goes through SiLU. / 其输出经过 SiLU。
    pub gate: Linear,
    /// `[hidden, dim]`: its output multiplies the gate's. / 其输出与 gate 的相乘。
    pub up: Linear,
    /// `[dim, hidden]`: back to the model width. / 映射回模型宽度。
    pub down: Linear,
}

impl FeedForward {
    /// The three projections, seeded `seed`, `seed + 1`, `seed + 2`.
    /// 三个投影，种子分别为 `seed`、`seed + 1`、`seed + 2`。
    pub fn new(dim: usize, hidden: usize, seed: u64) -> Result<FeedForward, MlpError> {
        Ok(FeedForward {
            gate: Linear::new(dim, hidden, seed)?,
            up: Linear::new(dim, hidden, seed.wrapping_add(1))?,
            down: Linear::new(hidden, dim, seed.wrapping_add(2))?,
        })
    }

    /// `[..., dim]` → `[..., dim]`; every op rounds once to `T`, as a PyTorch module in `T` on a
    /// CPU. The product `silu(g) ⊙ u`: two `T` values multiplied in FP32 (exact for f16, and for
    /// bf16 within FP32's normal range), then rounded to `T`: one rounding.
    /// `[..., dim]` → `[..., dim]`；每一步都只舍入一次回到 `T`，与 CPU 上 `T` 精度的 PyTorch
    /// 模块一致。
    /// 乘积 `silu(g) ⊙ u`：两个 `T` 值在 FP32 中相乘（对 f16 是精确的，bf16 在 FP32 正规数范围内
    /// 也是），再舍入到 `T`：只舍入一次。
    pub fn forward<T: Float>(&self, x: &ArrayD<T>) -> Result<ArrayD<T>, MlpError> {
        // Exercise 04 writes it; here the kit provides it.
        // 由练习 04 编写；这里由 kit 提供。
        reference::feed_forward(x, &self.gate.weight, &self.up.weight, &self.down.weight)
    }

    /// Gradient of `sum(forward(x) ⊙ grad_out)`, in f64: returns dx (rounded once to `T`) and
    /// ACCUMULATES (+=) the three weights' gradients into their `grad`. It differentiates the
    /// exact block on the FP32 master weights (not rounded to `T`, and no op rounded): not the
    /// rounded path of `forward`. An empty batch accumulates zeros: each trainable weight's `grad`
    /// becomes zeros of its shape, not `None`.
    /// `sum(forward(x) ⊙ grad_out)` 的梯度，在 f64 中计算：返回 dx（只舍入一次回到 `T`），
    /// 并把三个权重的梯度累加（+=）到各自的 `grad`。求导的是 FP32 主权重上的精确的块（权重不舍入到
    /// `T`，每一步也不舍入），不是 `forward` 逐步舍入的路径。空批次累加的是零：每个可训练权重的
    /// `grad` 变成同形的零数组，而不是 `None`。
    pub fn backward<T: Float>(&mut self, x: &ArrayD<T>, grad_out: &ArrayD<T>) -> Result<ArrayD<T>, MlpError> {
        // Exercise 05 writes it; here the kit provides it.
        // 由练习 05 编写；这里由 kit 提供。
        reference::backward(x, grad_out, &mut self.gate.weight, &mut self.up.weight, &mut self.down.weight)
    }
}
