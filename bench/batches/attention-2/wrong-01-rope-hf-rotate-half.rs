//! Exercise 01 · RoPE: Meta's rotary position embeddings
//! 练习 01 · RoPE：Meta 的旋转位置编码
//!
//! Your exercise: only TODO 1 is yours; the other pieces are given so that this file can be
//! graded on its own. Lesson: `tutor lesson 01-rope` · check: `tutor check 01-rope` · hint: `tutor hint 01-rope`.
//! 你的练习：只有 TODO 1 需要你完成；其余部分已提供，保证本文件可以单独评分。
//! 课程：`tutor lesson 01-rope` · 检查：`tutor check 01-rope` · 提示：`tutor hint 01-rope`。

use ndarray::{Array4, ArrayD};
#[allow(unused_imports)]
use ndarray::{s, Array2, ArrayView2, Axis, Ix2, Ix4, IxDyn};
use tutor_kit::{reference, AttnError, Float, Gradients, Param};

/// The rotation frequencies `θ^(−2i/head_dim)`, i < head_dim/2, in f64; with `llama31`, LLaMA
/// 3.1's scaling (factor 8, low 1, high 4, original context 8192).
/// 旋转频率 `θ^(−2i/head_dim)`（i < head_dim/2），f64；`llama31` 为真时按 LLaMA 3.1 的规则缩放。
pub fn rope_frequencies(head_dim: usize, theta: f64, llama31: bool) -> Result<Vec<f64>, AttnError> {
    if head_dim == 0 {
        return Err(AttnError::ZeroSize { what: "head_dim".to_string() });
    }
    if head_dim % 2 != 0 {
        return Err(AttnError::OddHeadDim(head_dim));
    }
    if !theta.is_finite() || theta <= 1.0 {
        return Err(AttnError::BadTheta(theta));
    }
    let d = head_dim as f64;
    let mut freqs: Vec<f64> = (0..head_dim / 2)
        .map(|i| 1.0 / theta.powf((2 * i) as f64 / d))
        .collect();
    if llama31 {
        let factor = 8.0_f64;
        let low_freq_factor = 1.0_f64;
        let high_freq_factor = 4.0_f64;
        let old_context = 8192.0_f64;
        let low_freq_wavelen = old_context / low_freq_factor;
        let high_freq_wavelen = old_context / high_freq_factor;
        for f in freqs.iter_mut() {
            let wavelen = 2.0 * std::f64::consts::PI / *f;
            if wavelen < high_freq_wavelen {
                // kept
            } else if wavelen > low_freq_wavelen {
                *f /= factor;
            } else {
                let smooth = (old_context / wavelen - low_freq_factor) / (high_freq_factor - low_freq_factor);
                *f = (1.0 - smooth) * *f / factor + smooth * *f;
            }
        }
    }
    Ok(freqs)
}

/// RoPE on `[batch, heads, seq, head_dim]`: the row at seq index t is at position
/// `start_pos + t`; each consecutive pair `(2i, 2i+1)` is rotated by `p·freqs[i]`, from the f64
/// angle, rounded once to `T`.
/// 对 `[batch, heads, seq, head_dim]` 做 RoPE：第 t 行的位置是 `start_pos + t`；相邻的一对
/// `(2i, 2i+1)` 旋转 `p·freqs[i]`，角度用 f64，最后只舍入一次回到 `T`。
pub fn rope<T: Float>(x: &ArrayD<T>, start_pos: usize, freqs: &[f64]) -> Result<ArrayD<T>, AttnError> {
    if x.ndim() != 4 {
        return Err(AttnError::Rank { expected: 4, found: x.shape().to_vec() });
    }
    let hd = x.shape()[3];
    if hd % 2 != 0 {
        return Err(AttnError::OddHeadDim(hd));
    }
    if freqs.len() != hd / 2 {
        return Err(AttnError::ShapeMismatch { expected: vec![hd / 2], found: vec![freqs.len()] });
    }
    let xv = x.view().into_dimensionality::<Ix4>().unwrap();
    let (nb, nh, ns, _) = xv.dim();
    let mut out = xv.to_owned();
    for b in 0..nb {
        for h in 0..nh {
            for t in 0..ns {
                let p = (start_pos + t) as f64;
                for i in 0..hd / 2 {
                    let angle = p * freqs[i];
                    let (sin, cos) = angle.sin_cos();
                    let a = xv[[b, h, t, i]].to_f64();
                    let c = xv[[b, h, t, i + hd / 2]].to_f64();
                    out[[b, h, t, i]] = T::from_f64(a * cos - c * sin);
                    out[[b, h, t, i + hd / 2]] = T::from_f64(a * sin + c * cos);
                }
            }
        }
    }
    Ok(out.into_dyn())
}

/// Softmax over the last axis, in FP32 with the row's maximum subtracted, rounded once to `T`.
/// A row −∞ throughout is all 0; a row holding NaN or +∞ is NaN.
/// 沿最后一维的 softmax：FP32 中先减去该行最大值，最后只舍入一次回到 `T`。全为 −∞ 的行输出全 0；
/// 含 NaN 或 +∞ 的行输出 NaN。
pub fn softmax<T: Float>(x: &ArrayD<T>) -> Result<ArrayD<T>, AttnError> {
    // Exercise 02 writes it; here the kit provides it.
    // 由练习 02 编写；这里由 kit 提供。
    reference::softmax(x)
}

/// `log Σ exp` over the last axis (that axis removed), in FP32 with the maximum subtracted,
/// rounded once to `T`; a row −∞ throughout gives −∞.
/// 沿最后一维的 `log Σ exp`（去掉该维），FP32 中减去最大值，只舍入一次；全为 −∞ 的行得 −∞。
pub fn log_sum_exp<T: Float>(x: &ArrayD<T>) -> Result<ArrayD<T>, AttnError> {
    // Exercise 02 writes it; here the kit provides it.
    // 由练习 02 编写；这里由 kit 提供。
    reference::log_sum_exp(x)
}

/// Causal attention `softmax(q·kᵀ/√head_dim + mask)·v` on `[batch, heads, seq, head_dim]`:
/// the queries are the last seq_q of seq_k positions, query i sees key j iff j ≤ i + seq_k − seq_q.
/// Meta's dtype path: scores in `T`, softmax in FP32 rounded to `T`, then `@ v`.
/// 因果注意力：查询是 seq_k 个位置中的最后 seq_q 个，查询 i 只能看到 j ≤ i + seq_k − seq_q 的键。
/// Meta 的 dtype 路径：分数为 `T`，softmax 在 FP32 中算并舍入到 `T`，再乘 v。
pub fn attention<T: Float>(q: &ArrayD<T>, k: &ArrayD<T>, v: &ArrayD<T>) -> Result<ArrayD<T>, AttnError> {
    // Exercise 03 writes it; here the kit provides it.
    // 由练习 03 编写；这里由 kit 提供。
    reference::attention(q, k, v)
}

/// Meta's `repeat_kv`: `[batch, n_kv, seq, hd]` → `[batch, n_kv·n_rep, seq, hd]`, query head h
/// reading kv head `h / n_rep`.
/// Meta 的 `repeat_kv`：查询头 h 读取 kv 头 `h / n_rep`。
pub fn repeat_kv<T: Float>(x: &ArrayD<T>, n_rep: usize) -> Result<ArrayD<T>, AttnError> {
    // Exercise 04 writes it; here the kit provides it.
    // 由练习 04 编写；这里由 kit 提供。
    reference::repeat_kv(x, n_rep)
}

/// The softmax's backward along the last axis, in f64: `s ⊙ (g − Σ g·s)` from the softmax's
/// output `s` and the gradient `g` of the loss with respect to it.
/// softmax 的反向传播（f64）：由输出 `s` 与上游梯度 `g` 得 `s ⊙ (g − Σ g·s)`。
pub fn softmax_backward(s: &ArrayD<f64>, g: &ArrayD<f64>) -> Result<ArrayD<f64>, AttnError> {
    // Exercise 06 writes it; here the kit provides it.
    // 由练习 06 编写；这里由 kit 提供。
    reference::softmax_backward(s, g)
}

/// Gradients (dq, dk, dv) of `sum(attention(q, k, v) ⊙ grad_out)` for TODO 3's causal
/// attention, all in f64.
/// `sum(attention(q, k, v) ⊙ grad_out)` 对 q、k、v 的梯度（f64），因果规则同 TODO 3。
pub fn attention_backward(
    q: &ArrayD<f64>,
    k: &ArrayD<f64>,
    v: &ArrayD<f64>,
    grad_out: &ArrayD<f64>,
) -> Result<Gradients, AttnError> {
    // Exercise 06 writes it; here the kit provides it.
    // 由练习 06 编写；这里由 kit 提供。
    reference::attention_backward(q, k, v, grad_out)
}

/// Meta's attention module, bias-free. The caches are part of the handle ON PURPOSE: they are
/// the state incremental decoding keeps between calls.
/// Meta 的注意力模块（无偏置）。缓存是句柄的一部分，这是有意的：增量解码在调用之间保留的状态。
pub struct Attention {
    /// `[n_heads·head_dim, dim]`.
    pub wq: Param,
    /// `[n_kv_heads·head_dim, dim]`.
    pub wk: Param,
    /// `[n_kv_heads·head_dim, dim]`.
    pub wv: Param,
    /// `[dim, n_heads·head_dim]`.
    pub wo: Param,
    /// Query heads. / 查询头数。
    pub n_heads: usize,
    /// Key/value heads (n_heads is a multiple). / 键值头数（n_heads 是它的倍数）。
    pub n_kv_heads: usize,
    /// `rope_frequencies(head_dim, theta, false)`.
    pub freqs: Vec<f64>,
    /// Rotated keys `[max_batch, n_kv_heads, max_seq_len, head_dim]`. / 旋转后的键。
    pub cache_k: Array4<f32>,
    /// Values, same shape. / 值，形状相同。
    pub cache_v: Array4<f32>,
}

impl Attention {
    /// Given: checks the sizes, draws wq, wk, wv, wo from `U(−1/√in, 1/√in)` with
    /// `Rng::new(seed)`, zero caches.
    /// 已提供：检查尺寸，用 `Rng::new(seed)` 抽取四个权重，缓存置零。
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        dim: usize,
        n_heads: usize,
        n_kv_heads: usize,
        max_batch: usize,
        max_seq_len: usize,
        theta: f64,
        seed: u64,
    ) -> Result<Attention, AttnError> {
        let built = reference::build(dim, n_heads, n_kv_heads, max_batch, max_seq_len, theta, seed)?;
        Ok(Attention {
            wq: built.wq,
            wk: built.wk,
            wv: built.wv,
            wo: built.wo,
            n_heads,
            n_kv_heads,
            freqs: built.freqs,
            cache_k: built.cache_k,
            cache_v: built.cache_v,
        })
    }

    /// `[batch, seq, dim]` → `[batch, seq, dim]`, positions 0.., no cache (left untouched):
    /// project, split heads, RoPE on q and k only, repeat kv heads, causal attention, merge, `wo`.
    /// 不使用缓存的前向：投影、拆分多头、只对 q 和 k 做 RoPE、重复 kv 头、因果注意力、合并、`wo`。
    pub fn forward<T: Float>(&self, x: &ArrayD<T>) -> Result<ArrayD<T>, AttnError> {
        // Exercise 04 writes it; here the kit provides it.
        // 由练习 04 编写；这里由 kit 提供。
        reference::attention_forward(
            x,
            [&self.wq, &self.wk, &self.wv, &self.wo],
            self.n_heads,
            self.n_kv_heads,
            &self.freqs,
        )
    }

    /// The forward of `x` `[batch, seq, dim]` at positions `start_pos..`: the rotated keys and the
    /// values written into the caches at `[..batch, :, start_pos..start_pos + seq]`, the queries
    /// attending over the caches' first `start_pos + seq` positions.
    /// 位置从 `start_pos` 开始的前向：旋转后的键与值写入缓存的 `start_pos..start_pos + seq`，
    /// 查询关注缓存中前 `start_pos + seq` 个位置。
    pub fn forward_cached<T: Float>(&mut self, x: &ArrayD<T>, start_pos: usize) -> Result<ArrayD<T>, AttnError> {
        // Exercise 05 writes it; here the kit provides it.
        // 由练习 05 编写；这里由 kit 提供。
        reference::attention_forward_cached(
            x,
            start_pos,
            [&self.wq, &self.wk, &self.wv, &self.wo],
            self.n_heads,
            self.n_kv_heads,
            &self.freqs,
            [&mut self.cache_k, &mut self.cache_v],
        )
    }
}
