//! The mistakes the attention chapter can name, and the outputs each would give: the oracle with
//! one knob turned. The comparisons record them (`Run::compare`), and `tutor_grade::evidence`
//! names one only when every comparison that computed it agrees with the learner's output.

use ndarray::{Array2, ArrayD};
use tutor_grade::candidate;
use tutor_kit::Float;

use crate::oracle::{self, Attn, Backward, Mask, Module, Read, Rope, Scale, Softmax, MODULE, RIGHT};

/// A mistaken answer's output on the input at hand, as f64.
pub type Candidate = tutor_grade::Candidate<f64>;

tutor_grade::mistakes! {
    "rope-layout-rotate-half", "01-rope", 2,
        "按 Hugging Face 的 rotate_half 配对 (i, i + d/2)：本章按 Meta 的相邻配对 (2i, 2i+1)（两者数学相同，权重排列不同）", "Hugging Face's rotate_half pairing (i, i + d/2): this chapter pairs neighbours (2i, 2i+1) as Meta does (same maths on permuted weights)";
    "rope-theta-wrong", "01-rope", 1,
        "频率用了另一个 θ：LLaMA 2 是 10000，LLaMA 3 是 500000，用传入的 theta", "The frequencies of another θ: LLaMA 2 uses 10000, LLaMA 3 500000; use the theta passed in";
    "rope-frequency-exponent", "01-rope", 1,
        "频率指数漏了 2：应为 θ^(−2i/d)，i 只走到 d/2", "The frequency exponent without its 2: θ^(−2i/d), with i running to d/2";
    "rope-start-pos-ignored", "01-rope", 1,
        "位置从 0 开始，忽略了 start_pos：第 t 行的位置是 start_pos + t", "Positions counted from 0, start_pos ignored: row t is at position start_pos + t";
    "rope-angle-f32", "01-rope", 3,
        "角度 p·f 在 f32 中计算：位置一大，误差就到 1e-4 弧度以上；用 f64 算角度", "The angle p·f computed in f32: at large positions it is off by 1e-4 rad and more; compute it in f64";
    "rope-reversed", "01-rope", 2,
        "旋转方向反了：(a, b) → (a·cos − b·sin, a·sin + b·cos)", "The rotation the wrong way round: (a, b) → (a·cos − b·sin, a·sin + b·cos)";
    "rope-llama31-inverted", "01-rope", 4,
        "LLaMA 3.1 的缩放方向反了：短波长（< 8192/4）保持不变，长波长（> 8192）除以 8", "LLaMA 3.1's scaling the wrong way round: short wavelengths (< 8192/4) are kept, long ones (> 8192) divided by 8";
    "rope-frequency-integer-division", "01-rope", 1,
        "频率指数用了整数除法：(2 * i / head_dim) 总是 0，每个频率都成了 1；先转换成 f64 再除", "The frequency exponent by integer division: (2 * i / head_dim) is always 0 and every frequency 1; convert to f64, then divide";
    "rope-frequency-not-inverted", "01-rope", 1,
        "频率是 θ^(2i/d)，少了负号（或倒数）：应为 θ^(−2i/d)，越往后越慢", "The frequencies θ^(2i/d), without the minus (or the reciprocal): θ^(−2i/d), slower further along";
    "rope-llama31-ignored", "01-rope", 4,
        "llama31 为真时没有按 LLaMA 3.1 的规则缩放频率", "The frequencies not scaled as LLaMA 3.1 does when llama31 is true";
    "rope-positions-flat", "01-rope", 2,
        "位置按展平后的行计数：每个 (batch, head) 的序列都从 start_pos 重新开始", "Positions counted over the flattened rows: every (batch, head) sequence starts again at start_pos";
    "softmax-no-max", "02-softmax", 2,
        "没有先减去最大值：f32 中 exp 在 88.7 以上溢出，f16 中在 11.1 以上溢出，得到 inf/inf = NaN", "The maximum not subtracted: exp overflows past 88.7 in f32 (past 11.1 in f16), and inf/inf is NaN";
    "softmax-query-axis", "02-softmax", 1,
        "softmax 沿查询轴（倒数第二维）而不是最后一维（键）计算", "The softmax over the query axis (the second-to-last) instead of the last axis (the keys)";
    "softmax-masked-row-nan", "02-softmax", 3,
        "全为 −∞ 的行得到 NaN（PyTorch F.softmax 的行为）；本章定义为全 0：这个查询什么也看不到", "A row −∞ throughout gives NaN (PyTorch's F.softmax); this chapter defines it as 0: the query attends to nothing";
    "softmax-masked-row-uniform", "02-softmax", 3,
        "全为 −∞ 的行得到均匀分布（用一个很大的负数代替 −∞，Hugging Face 的行为）；本章定义为全 0", "A row −∞ throughout comes out uniform (a large negative number standing in for −∞, Hugging Face's behaviour); this chapter defines it as 0";
    "softmax-whole-array", "02-softmax", 1,
        "在整个数组上求和归一化，而不是每一行各自归一化", "The sum taken over the whole array: each row is normalised on its own";
    "lse-max-not-added", "02-softmax", 2,
        "log_sum_exp 减去了最大值却没有加回来：结果是 m + ln Σ exp(x − m)", "log_sum_exp with the maximum subtracted and never added back: it is m + ln Σ exp(x − m)";
    "softmax-rounded-in-t", "02-softmax", 3,
        "softmax 的中间结果（exp 或它们的和）先舍入到了 T：在 FP32 中算完，最后只舍入一次", "The softmax's intermediate values (the exps or their sum) rounded to T: compute in FP32 and round once, at the end";
    "mask-off-by-one", "03-causal-attention", 2,
        "掩码差一：查询 i 可以看到的键是 j ≤ i + offset（包括它自己），不是 j < i + offset 也不是 j ≤ i + offset + 1", "The mask off by one: query i sees keys j ≤ i + offset (itself included), not j < i + offset nor j ≤ i + offset + 1";
    "mask-after-softmax", "03-causal-attention", 2,
        "掩码在 softmax 之后才加：被遮住的键已经分走了概率；−∞ 要加在 softmax 之前的分数上", "The mask applied after the softmax: the masked keys already took their share; add −∞ to the scores before it";
    "mask-missing", "03-causal-attention", 1,
        "没有因果掩码：每个查询都看到了未来的键", "No causal mask: every query sees the keys of the future";
    "mask-zero", "03-causal-attention", 2,
        "被遮住的分数设成了 0（或乘了 0/1 掩码）：0 仍然分到概率，要用 −∞", "The masked scores set to 0 (or multiplied by a 0/1 mask): a 0 still takes its share of the softmax; use −∞";
    "probs-not-rounded", "03-causal-attention", 3,
        "概率在乘 v 之前没有舍入到 T：Meta 的路径是 softmax 在 FP32 中算，再 `.type_as(xq)` 回到 T，然后 @ v", "The probabilities not rounded to T before `@ v`: Meta's path computes the softmax in FP32, then `.type_as(xq)` back to T, then `@ v`";
    "scores-not-rounded", "03-causal-attention", 3,
        "分数（q·kᵀ 与除以 √d 之后）没有舍入到 T：Meta 的路径在 T 中算分数，只有 softmax 在 FP32 中算", "The scores (q·kᵀ and after the division by √d) not rounded to T: Meta's path computes the scores in T, only the softmax in FP32";
    "mask-top-left", "03-causal-attention", 3,
        "掩码按左上角对齐（j ≤ i，SDPA 的 is_causal）：查询在缓存之后时偏移量是 seq_k − seq_q", "The mask aligned top-left (j ≤ i, SDPA's is_causal): queries after a cache are offset by seq_k − seq_q";
    "scale-missing", "03-causal-attention", 1,
        "分数没有除以 √head_dim", "The scores not divided by √head_dim";
    "scale-one-over-d", "03-causal-attention", 1,
        "分数除以 head_dim 而不是 √head_dim", "The scores divided by head_dim instead of √head_dim";
    "scale-multiplied", "03-causal-attention", 1,
        "分数乘以了 √head_dim，应当除以它", "The scores multiplied by √head_dim: divide them by it";
    "scale-d-model", "03-causal-attention", 2,
        "分数除以 √(模型宽度) 而不是 √head_dim", "The scores divided by √(the model width) instead of √head_dim";
    "kv-heads-modulo", "04-gqa", 2,
        "kv 头按 h % n_kv 重复：查询头 h 应读取 kv 头 h / n_rep（每个 kv 头连续重复 n_rep 次）", "kv heads repeated as h % n_kv: query head h reads kv head h / n_rep (each kv head n_rep times in a row)";
    "heads-reshaped-without-transpose", "04-gqa", 3,
        "拆分或合并多头时直接 reshape：[b, s, n·hd] 先变成 [b, s, n, hd]，再交换 s 与 n 两维（合并时反过来）", "Heads split or merged by a reshape alone: [b, s, n·hd] becomes [b, s, n, hd], then the s and n axes are swapped (and back to merge)";
    "rope-q-or-k-only", "04-gqa", 1,
        "RoPE 只做在了 q 或 k 之一上：q 和 k 都要旋转（v 不转）", "RoPE applied to only one of q and k: both are rotated (and v is not)";
    "wo-missing-or-transposed", "04-gqa", 3,
        "输出投影漏了或转置了：合并后的多头要乘 woᵀ（`linear(x, &wo)`）", "The output projection missing or transposed: the merged heads are multiplied by woᵀ (`linear(x, &wo)`)";
    "kv-weights-swapped", "04-gqa", 1,
        "wk 与 wv 用反了：键是 x·wkᵀ，值是 x·wvᵀ", "wk and wv swapped: the keys are x·wkᵀ, the values x·wvᵀ";
    "rope-on-v", "04-gqa", 1,
        "对 v 也做了 RoPE：只旋转 q 和 k", "RoPE applied to v too: only q and k are rotated";
    "cache-rope-at-zero", "05-kv-cache", 2,
        "每次调用都从位置 0 开始做 RoPE：新行的位置是 start_pos + t", "RoPE at position 0 on every call: the new rows are at start_pos + t";
    "cache-wrong-position", "05-kv-cache", 2,
        "键值写到了缓存的错误位置：新行写在 start_pos..start_pos + seq", "Keys and values written at the wrong place in the cache: the new rows go to start_pos..start_pos + seq";
    "cache-keys-before-rope", "05-kv-cache", 3,
        "缓存里存的是旋转之前的键：存入旋转后的键，读出时不再旋转", "The keys cached before RoPE: cache the rotated keys, and do not rotate what you read back";
    "cache-reads-new-only", "05-kv-cache", 3,
        "查询只关注了本次新写入的键值：应关注缓存中 0..start_pos + seq 的所有位置", "The queries attend over this call's new keys only: they attend over the cache's positions 0..start_pos + seq";
    "cache-reads-whole", "05-kv-cache", 3,
        "查询关注了整个缓存（max_seq_len 个位置，包括还没写的 0）：只读 0..start_pos + seq", "The queries attend over the whole cache (max_seq_len positions, the unwritten zeros included): read 0..start_pos + seq only";
    "backward-no-sum-term", "06-backward", 2,
        "softmax 的反向漏了 Σ g·s 项：ds = s ⊙ (g − Σ g·s)，不是 s ⊙ g", "The softmax's backward without its Σ g·s term: ds = s ⊙ (g − Σ g·s), not s ⊙ g";
    "backward-dk-unscaled", "06-backward", 3,
        "dk（或 dq 与 dk）漏了 1/√d：分数是 q·kᵀ/√d，dq 与 dk 都带这个因子", "dk (or dq and dk) without the 1/√d: the scores are q·kᵀ/√d, and both dq and dk carry it";
    "backward-untransposed", "06-backward", 2,
        "反向传播中的乘积少了转置：dv = Pᵀ·g，dk = dSᵀ·q/√d", "A product of the backward without its transpose: dv = Pᵀ·g, dk = dSᵀ·q/√d";
    "backward-mask", "06-backward", 2,
        "反向传播的掩码与前向不同（没有掩码，或忽略了偏移 j ≤ i）：查询 i 看到 j ≤ i + seq_k − seq_q", "The backward's mask is not the forward's (none, or j ≤ i without the offset): query i sees j ≤ i + seq_k − seq_q";
    "backward-sum-without-s", "06-backward", 2,
        "softmax 反向里的和少了 s：减去的是 Σ g·s，不是 Σ g", "The sum in the softmax's backward without s: subtract Σ g·s, not Σ g";
}

/// The frequency tables of the known mistakes.
pub fn frequencies(head_dim: usize, theta: f64, llama31: bool) -> Vec<Candidate> {
    let table = |f: Vec<f64>| ArrayD::from_shape_vec(vec![f.len()], f).expect("one axis");
    let mut all = vec![candidate(
        "rope-frequency-exponent",
        "i-over-d",
        table(oracle::frequencies(head_dim, theta, llama31, 1.0)),
    )];
    all.push(candidate(
        "rope-frequency-not-inverted",
        "positive",
        table(oracle::frequencies(head_dim, theta, llama31, -2.0)),
    ));
    // One variant per θ: a table that is always LLaMA 2's is right where 10000 is asked.
    for (other, variant) in [(1e4, "theta-10000"), (5e5, "theta-500000"), (1e6, "theta-1000000")] {
        if other != theta {
            all.push(candidate("rope-theta-wrong", variant, table(oracle::frequencies(head_dim, other, llama31, 2.0))));
        }
    }
    all.push(candidate("rope-frequency-integer-division", "ones", table(vec![1.0; head_dim / 2])));
    if llama31 {
        let raw = oracle::frequencies(head_dim, theta, false, 2.0);
        all.push(candidate("rope-llama31-ignored", "unscaled", table(raw.clone())));
        for (variant, blend_inverted) in [("ends-swapped", false), ("all-inverted", true)] {
            all.push(candidate("rope-llama31-inverted", variant, table(inverted(&raw, blend_inverted))));
        }
    }
    all
}

/// LLaMA 3.1's scaling the wrong way round: short wavelengths divided by 8, long ones kept, the
/// band between blended as Meta does or inverted too.
fn inverted(raw: &[f64], blend_inverted: bool) -> Vec<f64> {
    let blend = |f: f64, smooth: f64| (1.0 - smooth) * f / 8.0 + smooth * f;
    raw.iter()
        .map(|&f| match 2.0 * std::f64::consts::PI / f {
            w if w < 2048.0 => f / 8.0,
            w if w > 8192.0 => f,
            w if blend_inverted => blend(f, 1.0 - (8192.0 / w - 1.0) / 3.0),
            w => blend(f, (8192.0 / w - 1.0) / 3.0),
        })
        .collect()
}

/// RoPE's known mistakes on `x`, rounded to `T`.
pub fn rope<T: Float>(x: &ArrayD<f64>, start_pos: usize, freqs: &[f64]) -> Vec<Candidate> {
    let at = |start, how| oracle::round::<T>(&oracle::rope(x, start, freqs, how));
    vec![
        candidate("rope-layout-rotate-half", "half", at(start_pos, Rope::Half)),
        candidate("rope-start-pos-ignored", "from-zero", at(0, Rope::Pairs)),
        candidate("rope-angle-f32", "f32-angle", at(start_pos, Rope::AngleF32)),
        candidate("rope-reversed", "negative-angle", at(start_pos, Rope::Reversed)),
        candidate("rope-positions-flat", "flat", at(start_pos, Rope::Flat)),
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
        candidate("softmax-masked-row-uniform", "uniform", with(last, Softmax::MaskedUniform)),
    ];
    all.extend(softmax_in_t::<T>(x).into_iter().map(|c| c.map(|v| v.to_f64())));
    // Over the whole array, where every value is finite (what else it gives varies).
    if x.iter().all(|v| v.is_finite()) {
        let e = x.mapv(|v| (v - x.fold(f64::NEG_INFINITY, |m, &w| m.max(w))).exp());
        all.push(candidate("softmax-whole-array", "sum-all", oracle::round::<T>(&(&e / e.sum()))));
    }
    if last > 0 {
        all.push(candidate("softmax-query-axis", "axis-2", with(last - 1, Softmax::Stable)));
    }
    all
}

/// log-sum-exp's known mistakes on `x`, rounded to `T`.
pub fn log_sum_exp<T: Float>(x: &ArrayD<f64>) -> Vec<Candidate> {
    let max = x.map_axis(ndarray::Axis(x.ndim() - 1), |row| row.fold(f64::NEG_INFINITY, |m, &v| m.max(v)));
    // Where the maximum is not finite, the mistaken code returns it, as the right one does.
    let lse = oracle::log_sum_exp(x);
    let without = ndarray::Zip::from(&lse).and(&max).map_collect(|&l, &m| if m.is_finite() { l - m } else { l });
    // Without the maximum subtracted, FP32's exp overflows past 88.7.
    let naive = x.map_axis(ndarray::Axis(x.ndim() - 1), |row| {
        row.iter().map(|&v| f64::from((v as f32).exp())).sum::<f64>().ln()
    });
    vec![
        candidate("lse-max-not-added", "no-max", oracle::round::<T>(&without)),
        candidate("softmax-no-max", "lse-fp32", oracle::round::<T>(&naive)),
    ]
}

/// The softmax rounded to `T` before its end, as `T` values: the exps rounded (and their sum, or
/// every step in `T`: `x − max`, the exps, each partial sum), then the quotient.
pub fn softmax_in_t<T: Float>(x: &ArrayD<f64>) -> Vec<tutor_grade::Candidate<T>> {
    let r = |v: f64| T::from_f64(v).to_f64();
    let with = |how: usize| {
        let mut out = x.clone();
        for mut lane in out.lanes_mut(ndarray::Axis(x.ndim() - 1)) {
            let max = lane.fold(f64::NEG_INFINITY, |m, &v| m.max(v));
            // Rows of NaN, +∞ or −∞ throughout: as the right answer (what else it gives varies).
            if !max.is_finite() || lane.iter().any(|v| v.is_nan()) {
                let right = oracle::softmax_row(&lane.to_vec(), Softmax::Stable);
                lane.assign(&ndarray::Array1::from(right));
                continue;
            }
            lane.mapv_inplace(|v| r(f64::from((if how == 2 { r(v - max) } else { v - max }) as f32).exp()));
            let sum = [lane.sum(), r(lane.sum()), lane.fold(0.0, |s, &e| r(s + e))][how];
            lane.mapv_inplace(|e| e / sum);
        }
        out.mapv(T::from_f64)
    };
    ["exp", "exp-and-sum", "all-in-t"]
        .into_iter()
        .enumerate()
        .map(|(how, v)| candidate("softmax-rounded-in-t", v, with(how)))
        .collect()
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
        candidate("mask-zero", "zero", mask(Mask::Zero)),
        candidate("probs-not-rounded", "fp32", with(Attn { fp32: [false, true], ..RIGHT })),
        candidate("scores-not-rounded", "fp32", with(Attn { fp32: [true, false], ..RIGHT })),
        candidate("scale-missing", "none", scale(Scale::Missing)),
        candidate("scale-one-over-d", "d", scale(Scale::OverD)),
        candidate("scale-d-model", "model", scale(Scale::OverModel)),
        candidate("scale-multiplied", "times", scale(Scale::Times)),
        candidate("softmax-query-axis", "in-attention", with(Attn { query_axis: true, ..RIGHT })),
        candidate("softmax-no-max", "attention-fp32", with(Attn { softmax: Softmax::NoMaxF32, ..RIGHT })),
        candidate("softmax-no-max", "attention-in-t", with(Attn { softmax: Softmax::NoMaxIn(t_max), ..RIGHT })),
    ]
}

/// The module's known mistakes (04), one call at positions 0.. on a fresh cache.
pub fn module<T: Float>(layer: &oracle::Layer, x: &ArrayD<f64>) -> Vec<Candidate> {
    let (b, s) = (x.shape()[0], x.shape()[1]);
    let with = |how: Module| oracle::module::<T>(layer, x, 0, &mut oracle::cache(layer, b, s), how);
    let [wq, wk, wv, wo] = layer.weights;
    let weighted = |weights: &[Array2<f32>; 4]| {
        let other = oracle::Layer { weights, freqs: layer.freqs.clone(), ..*layer };
        oracle::module::<T>(&other, x, 0, &mut oracle::cache(&other, b, s), MODULE)
    };
    let eye = Array2::eye(wo.nrows());
    vec![
        candidate("kv-heads-modulo", "modulo", with(Module { modulo: true, ..MODULE })),
        candidate("rope-on-v", "v-rotated", with(Module { rotated: [true; 3], ..MODULE })),
        candidate("rope-layout-rotate-half", "module-half", with(Module { rope: Rope::Half, ..MODULE })),
        candidate("heads-reshaped-without-transpose", "reshape", with(Module { reshaped: [false, true], ..MODULE })),
        candidate("rope-q-or-k-only", "q-only", with(Module { rotated: [true, false, false], ..MODULE })),
        candidate("rope-q-or-k-only", "k-only", with(Module { rotated: [false, true, false], ..MODULE })),
        candidate("heads-reshaped-without-transpose", "split", with(Module { reshaped: [true, false], ..MODULE })),
        candidate("wo-missing-or-transposed", "missing", weighted(&[wq.clone(), wk.clone(), wv.clone(), eye])),
        candidate(
            "wo-missing-or-transposed",
            "transposed",
            weighted(&[wq.clone(), wk.clone(), wv.clone(), wo.t().to_owned()]),
        ),
        candidate("kv-weights-swapped", "swapped", weighted(&[wq.clone(), wv.clone(), wk.clone(), wo.clone()])),
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
        // Also RoPE on q only: the cache and the outputs of both are the same.
        candidate("cache-keys-before-rope", "unrotated", run(Module { rotated: [true, false, false], ..MODULE })),
        candidate("kv-heads-modulo", "cached-modulo", run(Module { modulo: true, ..MODULE })),
        candidate("rope-on-v", "cached-v-rotated", run(Module { rotated: [true; 3], ..MODULE })),
        candidate("cache-reads-new-only", "new", run(Module { read: Read::New, ..MODULE })),
        candidate("cache-reads-whole", "whole", run(Module { read: Read::Whole, ..MODULE })),
        candidate(
            "heads-reshaped-without-transpose",
            "cached-reshape",
            run(Module { reshaped: [false, true], ..MODULE }),
        ),
        candidate("rope-q-or-k-only", "cached-k-only", run(Module { rotated: [false, true, false], ..MODULE })),
    ]
}

/// The softmax backward's known mistakes.
pub fn softmax_backward(s: &ArrayD<f64>, g: &ArrayD<f64>) -> Vec<Candidate> {
    let with = |how| oracle::softmax_backward(s, g, how);
    vec![
        candidate("backward-no-sum-term", "s-times-g", with(Backward { no_sum: true, ..Backward::default() })),
        candidate("backward-sum-without-s", "sum-g", with(Backward { sum_without_s: true, ..Backward::default() })),
    ]
}

/// Attention backward's known mistakes, for gradient `which` (0 dq, 1 dk, 2 dv).
pub fn attention_backward(inputs: &[ArrayD<f64>; 4], which: usize) -> Vec<Candidate> {
    let [q, k, v, g] = inputs;
    let with = |how| oracle::attention_backward(q, k, v, g, how)[which].clone();
    let mut all = vec![
        candidate("backward-no-sum-term", "attention", with(Backward { no_sum: true, ..Backward::default() })),
        candidate("backward-dk-unscaled", "dk", with(Backward { unscaled: [false, true], ..Backward::default() })),
        candidate("backward-dk-unscaled", "dq-dk", with(Backward { unscaled: [true; 2], ..Backward::default() })),
        candidate("backward-mask", "none", with(Backward { unmasked: true, ..Backward::default() })),
        candidate("backward-sum-without-s", "attention", with(Backward { sum_without_s: true, ..Backward::default() })),
    ];
    // Without an offset the mask is the same either way: no evidence there. With one, a product
    // not transposed has another shape.
    if k.shape()[2] != q.shape()[2] {
        all.push(candidate("backward-mask", "top-left", with(Backward { top_left: true, ..Backward::default() })));
        return all;
    }
    for (variant, untransposed) in [("dk", [true, false]), ("dv", [false, true]), ("dk-dv", [true, true])] {
        all.push(candidate("backward-untransposed", variant, with(Backward { untransposed, ..Backward::default() })));
    }
    all
}

/// The module's weights wq, wk, wv, wo, `[out, in]`.
pub type Weights = [Array2<f32>; 4];
