//! A wrong file for 05-backward: dW_down computed as p^T*grad_out ([hidden, dim]) and reshaped (not transposed) to [dim, hidden] to fit.
//! From the independent SwiGLU acceptance batch (05-backward/wrong-17-dwd-reshaped-not-transposed.rs).
//! mistake: backward-down-grad-wrong
//! exercise: 05-backward

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
    // dW_down computed as p^T*grad_out ([hidden, dim]) and reshaped (not transposed) to [dim, hidden] to fit
    x.mapv(|v| {
        let x = v.to_f64();
        let s = 1.0 / (1.0 + (-x).exp());
        s * (1.0 + x * (1.0 - s))
    })
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
        // Exercise 04 writes it; here the kit provides it.
        // 由练习 04 编写；这里由 kit 提供。
        reference::feed_forward(x, &self.gate.weight, &self.up.weight, &self.down.weight)
    }

    /// Gradient of `sum(forward(x) ⊙ grad_out)`, in f64: returns dx (rounded once to `T`) and
    /// ACCUMULATES (+=) the three weights' gradients into their `grad`.
    /// `sum(forward(x) ⊙ grad_out)` 的梯度，在 f64 中计算：返回 dx（只舍入一次回到 `T`），
    /// 并把三个权重的梯度累加（+=）到各自的 `grad`。
    pub fn backward<T: Float>(&mut self, x: &ArrayD<T>, grad_out: &ArrayD<T>) -> Result<ArrayD<T>, MlpError> {
        // dW_down computed as p^T*grad_out ([hidden, dim]) and reshaped (not transposed) to [dim, hidden] to fit
        let dim = self.gate.weight.value.shape()[1];
        reference::check_features(x, dim)?;
        if grad_out.shape() != x.shape() {
            return Err(MlpError::ShapeMismatch { expected: x.shape().to_vec(), found: grad_out.shape().to_vec() });
        }
        let n = x.len() / dim;
        let xf = ndarray::Array2::from_shape_vec((n, dim), x.iter().map(|v| v.to_f64()).collect()).unwrap();
        let go = ndarray::Array2::from_shape_vec((n, dim), grad_out.iter().map(|v| v.to_f64()).collect()).unwrap();
        let wg = self.gate.weight.value.mapv(f64::from);
        let wu = self.up.weight.value.mapv(f64::from);
        let wd = self.down.weight.value.mapv(f64::from);
        let g = xf.dot(&wg.t());
        let u = xf.dot(&wu.t());
        let a = g.mapv(|v| v / (1.0 + (-v).exp()));
        let sp = silu_grad(&g.clone().into_dyn()).into_dimensionality::<ndarray::Ix2>().unwrap();
        let dp = go.dot(&wd);
        let p = &a * &u;
        let dwd = p.t().dot(&go).as_standard_layout().into_owned().into_shape_with_order((dim, p.ncols())).unwrap();
        let du = &dp * &a;
        let dg = &dp * &u * &sp;
        let dwg = dg.t().dot(&xf);
        let dwu = du.t().dot(&xf);
        let dx = dg.dot(&wg) + du.dot(&wu);
        self.gate.weight.accumulate_grad(&dwg.mapv(|v| v as f32))?;
        self.up.weight.accumulate_grad(&dwu.mapv(|v| v as f32))?;
        self.down.weight.accumulate_grad(&dwd.mapv(|v| v as f32))?;
        Ok(ArrayD::from_shape_vec(x.shape().to_vec(), dx.iter().map(|&v| T::from_f64(v)).collect()).unwrap())
    }
}
