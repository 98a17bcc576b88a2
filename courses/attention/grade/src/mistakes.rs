//! The mistakes the attention chapter can name, and the outputs each would give: the oracle with
//! one knob turned. The comparisons record them (`cases::compare`), and `tutor_grade::evidence`
//! names one only when every comparison that computed it agrees with the learner's output.

use ndarray::{Array2, ArrayD};
use tutor_grade::candidate;
use tutor_kit::Float;

use crate::oracle::{self, Attn, Backward, Mask, Module, Rope, Scale, Softmax, MODULE, RIGHT};

/// A mistaken answer's output on the input at hand, as f64.
pub type Candidate = tutor_grade::Candidate<f64>;

tutor_grade::mistakes! {
    "rope-layout-rotate-half", "01-rope", 2,
        "按 Hugging Face 的 rotate_half 配对 (i, i + d/2)：本章按 Meta 的相邻配对 (2i, 2i+1)（两者数学相同，权重排列不同）",
        "Hugging Face's rotate_half pairing (i, i + d/2): this chapter pairs neighbours (2i, 2i+1) as Meta does (same maths on permuted weights)";
    "rope-theta-wrong", "01-rope", 1,
        "频率用了另一个 θ：LLaMA 2 是 10000，LLaMA 3 是 500000，用传入的 theta",
        "The frequencies of another θ: LLaMA 2 uses 10000, LLaMA 3 500000; use the theta passed in";
    "rope-frequency-exponent", "01-rope", 1,
        "频率指数漏了 2：应为 θ^(−2i/d)，i 只走到 d/2",
        "The frequency exponent without its 2: θ^(−2i/d), with i running to d/2";
    "rope-start-pos-ignored", "01-rope", 1,
        "位置从 0 开始，忽略了 start_pos：第 t 行的位置是 start_pos + t",
        "Positions counted from 0, start_pos ignored: row t is at position start_pos + t";
    "rope-angle-f32", "01-rope", 3,
        "角度 p·f 在 f32 中计算：位置一大，误差就到 1e-4 弧度以上；用 f64 算角度",
        "The angle p·f computed in f32: at large positions it is off by 1e-4 rad and more; compute it in f64";
    "rope-reversed", "01-rope", 2,
        "旋转方向反了：(a, b) → (a·cos − b·sin, a·sin + b·cos)",
        "The rotation the wrong way round: (a, b) → (a·cos − b·sin, a·sin + b·cos)";
    "softmax-no-max", "02-softmax", 2,
        "没有先减去最大值：f32 中 exp 在 88.7 以上溢出，f16 中在 11.1 以上溢出，得到 inf/inf = NaN",
        "The maximum not subtracted: exp overflows past 88.7 in f32 (past 11.1 in f16), and inf/inf is NaN";
    "softmax-query-axis", "02-softmax", 1,
        "softmax 沿查询轴（倒数第二维）而不是最后一维（键）计算",
        "The softmax over the query axis (the second-to-last) instead of the last axis (the keys)";
    "softmax-masked-row-nan", "02-softmax", 3,
        "全为 −∞ 的行得到 NaN（PyTorch F.softmax 的行为）；本章定义为全 0：这个查询什么也看不到",
        "A row −∞ throughout gives NaN (PyTorch's F.softmax); this chapter defines it as 0: the query attends to nothing";
    "mask-off-by-one", "03-causal-attention", 2,
        "掩码差一：查询 i 可以看到的键是 j ≤ i + offset（包括它自己），不是 j < i + offset 也不是 j ≤ i + offset + 1",
        "The mask off by one: query i sees keys j ≤ i + offset (itself included), not j < i + offset nor j ≤ i + offset + 1";
    "mask-after-softmax", "03-causal-attention", 2,
        "掩码在 softmax 之后才加：被遮住的键已经分走了概率；−∞ 要加在 softmax 之前的分数上",
        "The mask applied after the softmax: the masked keys already took their share; add −∞ to the scores before it";
    "mask-missing", "03-causal-attention", 1,
        "没有因果掩码：每个查询都看到了未来的键",
        "No causal mask: every query sees the keys of the future";
    "mask-top-left", "03-causal-attention", 3,
        "掩码按左上角对齐（j ≤ i，SDPA 的 is_causal）：查询在缓存之后时偏移量是 seq_k − seq_q",
        "The mask aligned top-left (j ≤ i, SDPA's is_causal): queries after a cache are offset by seq_k − seq_q";
    "scale-missing", "03-causal-attention", 1,
        "分数没有除以 √head_dim",
        "The scores not divided by √head_dim";
    "scale-one-over-d", "03-causal-attention", 1,
        "分数除以 head_dim 而不是 √head_dim",
        "The scores divided by head_dim instead of √head_dim";
    "scale-d-model", "03-causal-attention", 2,
        "分数除以 √(模型宽度) 而不是 √head_dim",
        "The scores divided by √(the model width) instead of √head_dim";
    "kv-heads-modulo", "04-gqa", 2,
        "kv 头按 h % n_kv 重复：查询头 h 应读取 kv 头 h / n_rep（每个 kv 头连续重复 n_rep 次）",
        "kv heads repeated as h % n_kv: query head h reads kv head h / n_rep (each kv head n_rep times in a row)";
    "rope-on-v", "04-gqa", 1,
        "对 v 也做了 RoPE：只旋转 q 和 k",
        "RoPE applied to v too: only q and k are rotated";
    "cache-rope-at-zero", "05-kv-cache", 2,
        "每次调用都从位置 0 开始做 RoPE：新行的位置是 start_pos + t",
        "RoPE at position 0 on every call: the new rows are at start_pos + t";
    "cache-wrong-position", "05-kv-cache", 2,
        "键值写到了缓存的错误位置：新行写在 start_pos..start_pos + seq",
        "Keys and values written at the wrong place in the cache: the new rows go to start_pos..start_pos + seq";
    "cache-keys-before-rope", "05-kv-cache", 3,
        "缓存里存的是旋转之前的键：存入旋转后的键，读出时不再旋转",
        "The keys cached before RoPE: cache the rotated keys, and do not rotate what you read back";
    "backward-no-sum-term", "06-backward", 2,
        "softmax 的反向漏了 Σ g·s 项：ds = s ⊙ (g − Σ g·s)，不是 s ⊙ g",
        "The softmax's backward without its Σ g·s term: ds = s ⊙ (g − Σ g·s), not s ⊙ g";
    "backward-dk-unscaled", "06-backward", 3,
        "dk 漏了 1/√d：分数是 q·kᵀ/√d，dq 与 dk 都带这个因子",
        "dk without the 1/√d: the scores are q·kᵀ/√d, and both dq and dk carry it";
}

/// The frequency tables of the known mistakes.
pub fn frequencies(head_dim: usize, theta: f64, llama31: bool) -> Vec<Candidate> {
    let table = |f: Vec<f64>| ArrayD::from_shape_vec(vec![f.len()], f).expect("one axis");
    let mut all = vec![candidate(
        "rope-frequency-exponent",
        "i-over-d",
        table(oracle::frequencies(head_dim, theta, llama31, 1.0)),
    )];
    // One variant per θ: a table that is always LLaMA 2's is right where 10000 is asked.
    for (other, variant) in [(1e4, "theta-10000"), (5e5, "theta-500000"), (1e6, "theta-1000000")] {
        if other != theta {
            all.push(candidate("rope-theta-wrong", variant, table(oracle::frequencies(head_dim, other, llama31, 2.0))));
        }
    }
    all
}

/// RoPE's known mistakes on `x`, rounded to `T`.
pub fn rope<T: Float>(x: &ArrayD<f64>, start_pos: usize, freqs: &[f64]) -> Vec<Candidate> {
    let at = |start, how| oracle::round::<T>(&oracle::rope(x, start, freqs, how));
    vec![
        candidate("rope-layout-rotate-half", "half", at(start_pos, Rope::Half)),
        candidate("rope-start-pos-ignored", "from-zero", at(0, Rope::Pairs)),
        candidate("rope-angle-f32", "f32-angle", at(start_pos, Rope::AngleF32)),
        candidate("rope-reversed", "negative-angle", at(start_pos, Rope::Reversed)),
    ]
}

/// The softmax's known mistakes on `x` `T` values, rounded to `T` (`t_max`: `T`'s largest).
pub fn softmax<T: Float>(x: &ArrayD<f64>, t_max: f64) -> Vec<Candidate> {
    let last = x.ndim() - 1;
    let with = |axis, how| oracle::round::<T>(&oracle::softmax(x, axis, how));
    let mut all = vec![
        candidate("softmax-no-max", "fp32", with(last, Softmax::NoMaxF32)),
        candidate("softmax-no-max", "in-t", with(last, Softmax::NoMaxIn(t_max))),
        candidate("softmax-masked-row-nan", "nan", with(last, Softmax::MaskedNan)),
    ];
    if last > 0 {
        all.push(candidate("softmax-query-axis", "axis-2", with(last - 1, Softmax::Stable)));
    }
    all
}

/// Causal attention's known mistakes on `T` inputs widened.
pub fn attention<T: Float>(q: &ArrayD<f64>, k: &ArrayD<f64>, v: &ArrayD<f64>, t_max: f64) -> Vec<Candidate> {
    let with = |how: Attn| oracle::attention::<T>(q, k, v, how);
    let mask = |mask| with(Attn { mask, ..RIGHT });
    let scale = |scale| with(Attn { scale, ..RIGHT });
    vec![
        candidate("mask-off-by-one", "diagonal-nan", mask(Mask::Diagonal(Softmax::MaskedNan))),
        candidate("mask-off-by-one", "diagonal-zero", mask(Mask::Diagonal(Softmax::Stable))),
        candidate("mask-off-by-one", "one-ahead", mask(Mask::OneAhead)),
        candidate("mask-after-softmax", "zeroed", mask(Mask::AfterSoftmax)),
        candidate("mask-missing", "none", mask(Mask::Missing)),
        candidate("mask-top-left", "top-left", mask(Mask::TopLeft)),
        candidate("scale-missing", "none", scale(Scale::Missing)),
        candidate("scale-one-over-d", "d", scale(Scale::OverD)),
        candidate("scale-d-model", "model", scale(Scale::OverModel)),
        candidate("softmax-query-axis", "in-attention", with(Attn { query_axis: true, ..RIGHT })),
        candidate("softmax-no-max", "attention-fp32", with(Attn { softmax: Softmax::NoMaxF32, ..RIGHT })),
        candidate("softmax-no-max", "attention-in-t", with(Attn { softmax: Softmax::NoMaxIn(t_max), ..RIGHT })),
    ]
}

/// The module's known mistakes (04), one call at positions 0.. on a fresh cache.
pub fn module<T: Float>(layer: &oracle::Layer, x: &ArrayD<f64>) -> Vec<Candidate> {
    let (b, s) = (x.shape()[0], x.shape()[1]);
    let with = |how: Module| oracle::module::<T>(layer, x, 0, &mut oracle::cache(layer, b, s), how);
    vec![
        candidate("kv-heads-modulo", "modulo", with(Module { modulo: true, ..MODULE })),
        candidate("rope-on-v", "v-rotated", with(Module { rope_on_v: true, ..MODULE })),
        candidate("rope-layout-rotate-half", "module-half", with(Module { rope: Rope::Half, ..MODULE })),
    ]
}

/// The cache's known mistakes over a sequence of calls `(x, start_pos)`: each mistake's outputs,
/// concatenated along the sequence axis.
pub fn cached<T: Float>(layer: &oracle::Layer, calls: &[(ArrayD<f64>, usize)], max: (usize, usize)) -> Vec<Candidate> {
    let run = |how: Module| {
        let mut cache = oracle::cache(layer, max.0, max.1);
        let outputs: Vec<ArrayD<f64>> =
            calls.iter().map(|(x, at)| oracle::module::<T>(layer, x, *at, &mut cache, how)).collect();
        let views: Vec<_> = outputs.iter().map(|o| o.view()).collect();
        ndarray::concatenate(ndarray::Axis(1), &views).expect("one batch and width")
    };
    vec![
        candidate("cache-rope-at-zero", "zero", run(Module { rope_at_zero: true, ..MODULE })),
        candidate("cache-wrong-position", "at-zero", run(Module { write_shift: None, ..MODULE })),
        candidate("cache-wrong-position", "one-late", run(Module { write_shift: Some(1), ..MODULE })),
        candidate("cache-keys-before-rope", "unrotated", run(Module { keys_before_rope: true, ..MODULE })),
        candidate("kv-heads-modulo", "cached-modulo", run(Module { modulo: true, ..MODULE })),
        candidate("rope-on-v", "cached-v-rotated", run(Module { rope_on_v: true, ..MODULE })),
    ]
}

/// The softmax backward's known mistakes.
pub fn softmax_backward(s: &ArrayD<f64>, g: &ArrayD<f64>) -> Vec<Candidate> {
    vec![candidate(
        "backward-no-sum-term",
        "s-times-g",
        oracle::softmax_backward(s, g, Backward { no_sum: true, ..Backward::default() }),
    )]
}

/// Attention backward's known mistakes, for gradient `which` (0 dq, 1 dk, 2 dv).
pub fn attention_backward(inputs: &[ArrayD<f64>; 4], which: usize) -> Vec<Candidate> {
    let [q, k, v, g] = inputs;
    let with = |how| oracle::attention_backward(q, k, v, g, how)[which].clone();
    vec![
        candidate("backward-no-sum-term", "attention", with(Backward { no_sum: true, dk_unscaled: false })),
        candidate("backward-dk-unscaled", "dk", with(Backward { no_sum: false, dk_unscaled: true })),
    ]
}

/// The module's weights wq, wk, wv, wo, `[out, in]`.
pub type Weights = [Array2<f32>; 4];
