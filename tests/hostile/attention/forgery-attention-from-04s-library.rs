//! A route that opened with one given library per exercise: 04's library holds the attention
//! piece (04 is given it), so 03's file names that library to compute its own answer. Each
//! program's package depends on its own given library alone, and rustc finds no other.
//! exercise: 03-causal-attention
//! shows: can't find crate for `given_attention_04_gqa`

extern crate given_attention_04_gqa;
use ndarray::{Array4, ArrayD};
use tutor_kit::{reference, AttnError, Float, Gradients, Param};

/// The rotation frequencies `θ^(−2i/head_dim)`, i < head_dim/2, in f64; with `llama31`, LLaMA
/// 3.1's scaling (factor 8, low 1, high 4, original context 8192).
/// 旋转频率 `θ^(−2i/head_dim)`（i < head_dim/2），f64；`llama31` 为真时按 LLaMA 3.1 的规则缩放。
pub fn rope_frequencies(head_dim: usize, theta: f64, llama31: bool) -> Result<Vec<f64>, AttnError> {
    // Exercise 01 writes it; here the kit provides it.
    // 由练习 01 编写；这里由 kit 提供。
    reference::rope_frequencies(head_dim, theta, llama31)
}

/// RoPE on `[batch, heads, seq, head_dim]`: the row at seq index t is at position
/// `start_pos + t`; each consecutive pair `(2i, 2i+1)` is rotated by `p·freqs[i]`, from the f64
/// angle, rounded once to `T`.
/// 对 `[batch, heads, seq, head_dim]` 做 RoPE：第 t 行的位置是 `start_pos + t`；相邻的一对
/// `(2i, 2i+1)` 旋转 `p·freqs[i]`，角度用 f64，最后只舍入一次回到 `T`。
pub fn rope<T: Float>(x: &ArrayD<T>, start_pos: usize, freqs: &[f64]) -> Result<ArrayD<T>, AttnError> {
    // Exercise 01 writes it; here the kit provides it.
    // 由练习 01 编写；这里由 kit 提供。
    reference::rope(x, start_pos, freqs)
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
    given_attention_04_gqa::reference::attention(q, k, v)
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
        reference::attention_forward(x, [&self.wq, &self.wk, &self.wv, &self.wo], self.n_heads, self.n_kv_heads, &self.freqs)
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
