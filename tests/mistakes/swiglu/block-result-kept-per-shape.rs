//! A wrong file for 04-forward: forward keeps its last result (in a `static`, shared by every block) and returns it again for the next input of the same shape.
//! mistake: state-kept-between-calls
//! exercise: 04-forward

use ndarray::ArrayD;
use tutor_kit::{reference, Float, MlpError, Param};

/// SiLU (swish) elementwise: `x·σ(x)`, computed in FP32, rounded once to `T`.
/// SiLU（swish）逐元素：`x·σ(x)`，在 FP32 中计算，只舍入一次回到 `T`。
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

/// LLaMA's FFN width for a model of width `dim` (Meta's `FeedForward`).
/// 模型宽度为 `dim` 时 LLaMA 的 FFN 宽度（Meta 的 `FeedForward`）。
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
    /// 可训练的权重，每个元素用 `Rng::new(seed)` 从 `U(−1/√in, 1/√in)` 中抽取。
    pub fn new(in_features: usize, out_features: usize, seed: u64) -> Result<Linear, MlpError> {
        // Exercise 02 writes it; here the kit provides it.
        // 由练习 02 编写；这里由 kit 提供。
        Ok(Linear { weight: reference::linear_weight(in_features, out_features, seed)? })
    }

    /// `y = x·Wᵀ` over the last axis: `[..., in]` → `[..., out]`, the weight rounded to `T`,
    /// products accumulated in FP32, each output rounded once to `T`.
    /// 沿最后一维 `y = x·Wᵀ`：`[..., in]` → `[..., out]`；权重先舍入到 `T`，乘积在 FP32 中累加，
    /// 每个输出只舍入一次回到 `T`。
    pub fn forward<T: Float>(&self, x: &ArrayD<T>) -> Result<ArrayD<T>, MlpError> {
        // Exercise 02 writes it; here the kit provides it.
        // 由练习 02 编写；这里由 kit 提供。
        reference::linear(x, &self.weight)
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

/// The last input's shape and result (as f32), reused for the next input of that shape.
static LAST: std::sync::Mutex<Option<(Vec<usize>, Vec<f32>)>> = std::sync::Mutex::new(None);

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

    /// `[..., dim]` → `[..., dim]`; every op rounds once to `T`, as a PyTorch module in `T`.
    /// `[..., dim]` → `[..., dim]`；每一步都只舍入一次回到 `T`，与 `T` 精度的 PyTorch 模块一致。
    pub fn forward<T: Float>(&self, x: &ArrayD<T>) -> Result<ArrayD<T>, MlpError> {
        // a result kept for the shape: the next input of that shape gets it back
        let mut last = LAST.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        if let Some((shape, values)) = last.as_ref() {
            if shape.as_slice() == x.shape() {
                let kept = values.iter().map(|&v| T::from_f32(v)).collect();
                return ArrayD::from_shape_vec(x.raw_dim(), kept).map_err(|_| MlpError::FeatureMismatch { expected: values.len(), found: x.len() });
            }
        }
        let g = self.gate.forward(x)?;
        let u = self.up.forward(x)?;
        let a = silu(&g);
        let mut p = a.clone();
        ndarray::Zip::from(&mut p).and(&a).and(&u).for_each(|p, &a, &u| *p = T::from_f32(a.to_f32() * u.to_f32()));
        let y = self.down.forward(&p)?;
        *last = Some((x.shape().to_vec(), y.iter().map(|v| v.to_f32()).collect()));
        Ok(y)
    }

    /// Gradient of `sum(forward(x) ⊙ grad_out)`, in f64: returns dx (rounded once to `T`) and
    /// ACCUMULATES (+=) the three weights' gradients into their `grad`.
    /// `sum(forward(x) ⊙ grad_out)` 的梯度，在 f64 中计算：返回 dx（只舍入一次回到 `T`），
    /// 并把三个权重的梯度累加（+=）到各自的 `grad`。
    pub fn backward<T: Float>(&mut self, x: &ArrayD<T>, grad_out: &ArrayD<T>) -> Result<ArrayD<T>, MlpError> {
        // Exercise 05 writes it; here the kit provides it.
        // 由练习 05 编写；这里由 kit 提供。
        reference::backward(x, grad_out, &mut self.gate.weight, &mut self.up.weight, &mut self.down.weight)
    }
}
