//! The chapter's own f64 reference, written apart from the kit: every op in f64 and rounded to
//! `T` exactly where `docs/attention-api.md`'s path rounds, with knobs that turn it into each
//! known mistake (the evidence candidates of `mistakes.rs`).

use ndarray::{s, Array2, ArrayD, Axis, IxDyn};
use tutor_grade::rounding::rounded as r;
pub use tutor_grade::rounding::{round, wide};
use tutor_kit::Float;

/// `θ^(−2i/d)` (or `θ^(−i/d)` with `exponent` 1), LLaMA 3.1-scaled when asked.
pub fn frequencies(head_dim: usize, theta: f64, llama31: bool, exponent: f64) -> Vec<f64> {
    let raw = (0..head_dim / 2).map(|i| 1.0 / theta.powf(exponent * i as f64 / head_dim as f64));
    raw.map(|f| {
        let wavelength = 2.0 * std::f64::consts::PI / f;
        match llama31 {
            false => f,
            true if wavelength < 2048.0 => f,
            true if wavelength > 8192.0 => f / 8.0,
            true => {
                let smooth = (8192.0 / wavelength - 1.0) / 3.0;
                (1.0 - smooth) * f / 8.0 + smooth * f
            }
        }
    })
    .collect()
}

/// How a RoPE is written.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Rope {
    /// Meta's: pairs (2i, 2i+1), angles in f64.
    Pairs,
    /// Hugging Face's `rotate_half`: pairs (i, i + d/2).
    Half,
    /// Meta's pairs, the angle `p·f` in f32.
    AngleF32,
    /// The rotation the other way round.
    Reversed,
    /// Positions counted over the flattened rows, not per sequence.
    Flat,
}

/// RoPE on `[.., seq, d]` (rows at start_pos + t), in f64 (unrounded).
pub fn rope(x: &ArrayD<f64>, start_pos: usize, freqs: &[f64], how: Rope) -> ArrayD<f64> {
    let (seq, d) = (x.shape()[x.ndim() - 2], x.shape()[x.ndim() - 1]);
    let mut out = x.clone();
    for (r, (row, mut o)) in x.rows().into_iter().zip(out.rows_mut()).enumerate() {
        let p = (start_pos + if how == Rope::Flat { r } else { r % seq }) as f64;
        for (i, &f) in freqs.iter().enumerate() {
            let angle = match how {
                Rope::AngleF32 => f64::from((p as f32) * (f as f32)),
                Rope::Reversed => -p * f,
                _ => p * f,
            };
            let (a, b) = if how == Rope::Half { (i, i + d / 2) } else { (2 * i, 2 * i + 1) };
            let (sin, cos) = angle.sin_cos();
            o[a] = row[a] * cos - row[b] * sin;
            o[b] = row[a] * sin + row[b] * cos;
        }
    }
    out
}

/// How a softmax is written.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Softmax {
    /// Right: the maximum subtracted; a row −∞ throughout is 0.
    Stable,
    /// No maximum subtracted, `exp` in FP32 (overflows past 88.7).
    NoMaxF32,
    /// No maximum subtracted, `exp` in `T` (the `T`'s overflow).
    NoMaxIn(f64),
    /// A row −∞ throughout gives NaN (PyTorch's F.softmax).
    MaskedNan,
    /// A row −∞ throughout comes out uniform (a large negative number for −∞).
    MaskedUniform,
}

/// One row's softmax in f64.
pub fn softmax_row(row: &[f64], how: Softmax) -> Vec<f64> {
    if row.iter().any(|v| v.is_nan() || *v == f64::INFINITY) {
        return vec![f64::NAN; row.len()];
    }
    let max = row.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let e: Vec<f64> = match how {
        _ if max == f64::NEG_INFINITY && how == Softmax::MaskedNan => return vec![f64::NAN; row.len()],
        _ if max == f64::NEG_INFINITY && how == Softmax::MaskedUniform => {
            return vec![1.0 / row.len() as f64; row.len()]
        }
        _ if max == f64::NEG_INFINITY => return vec![0.0; row.len()],
        Softmax::NoMaxF32 => row.iter().map(|v| f64::from((*v as f32).exp())).collect(),
        Softmax::NoMaxIn(limit) => row.iter().map(|v| if v.exp() > limit { f64::INFINITY } else { v.exp() }).collect(),
        _ => row.iter().map(|v| (v - max).exp()).collect(),
    };
    let sum: f64 = e.iter().sum();
    e.iter().map(|v| v / sum).collect()
}

/// Softmax over `axis` (the last one, or another for the wrong-axis mistake), unrounded.
pub fn softmax(x: &ArrayD<f64>, axis: usize, how: Softmax) -> ArrayD<f64> {
    let mut out = x.clone();
    for mut lane in out.lanes_mut(Axis(axis)) {
        let row: Vec<f64> = lane.iter().copied().collect();
        lane.assign(&ndarray::Array1::from(softmax_row(&row, how)));
    }
    out
}

/// log Σ exp over the last axis, in f64.
pub fn log_sum_exp(x: &ArrayD<f64>) -> ArrayD<f64> {
    x.map_axis(Axis(x.ndim() - 1), |row| {
        let max = row.fold(f64::NEG_INFINITY, |m, &v| if v.is_nan() { f64::NAN } else { m.max(v) });
        if !max.is_finite() {
            return max;
        }
        max + row.iter().map(|v| (v - max).exp()).sum::<f64>().ln()
    })
}

/// How causal attention is written.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Mask {
    /// Right: j ≤ i + offset.
    Causal,
    /// j < i + offset: a query cannot see itself.
    Diagonal(Softmax),
    /// j ≤ i + offset + 1.
    OneAhead,
    /// The softmax over every key, masked entries zeroed afterwards.
    AfterSoftmax,
    /// None.
    Missing,
    /// j ≤ i, the offset ignored (SDPA's is_causal with fewer queries).
    TopLeft,
    /// The masked scores set to 0 (or multiplied by a 0/1 mask) instead of −∞.
    Zero,
}

/// The scale, right or mistaken.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Scale {
    /// 1/√head_dim.
    Right,
    /// None.
    Missing,
    /// 1/head_dim.
    OverD,
    /// 1/√(heads·head_dim).
    OverModel,
    /// Times √head_dim.
    Times,
}

/// A way of writing causal attention.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Attn {
    /// The mask.
    pub mask: Mask,
    /// The scale.
    pub scale: Scale,
    /// The softmax over the query axis.
    pub query_axis: bool,
    /// The softmax.
    pub softmax: Softmax,
    /// The scores, the probabilities kept in FP32 (not rounded to `T`).
    pub fp32: [bool; 2],
}

/// The right way.
pub const RIGHT: Attn =
    Attn { mask: Mask::Causal, scale: Scale::Right, query_axis: false, softmax: Softmax::Stable, fp32: [false; 2] };

/// Meta's path on `T` inputs widened to f64: scores rounded to `T`, divided by the scale and
/// rounded, masked, softmax rounded to `T`, `@ v` rounded.
pub fn attention<T: Float>(q: &ArrayD<f64>, k: &ArrayD<f64>, v: &ArrayD<f64>, how: Attn) -> ArrayD<f64> {
    let (heads, sq, d) = (q.shape()[1], q.shape()[2], q.shape()[3]);
    let sk = k.shape()[2];
    let offset = sk - sq;
    let divisor = match how.scale {
        Scale::Right => f64::from((d as f64).sqrt() as f32),
        Scale::Missing => 1.0,
        Scale::OverD => d as f64,
        Scale::OverModel => f64::from(((heads * d) as f64).sqrt() as f32),
        Scale::Times => 1.0 / f64::from((d as f64).sqrt() as f32),
    };
    let mut out = q.clone();
    for bi in 0..q.shape()[0] {
        for hi in 0..heads {
            let qh = q.slice(s![bi, hi, .., ..]);
            let kh = k.slice(s![bi, hi, .., ..]);
            let in_t = |x: f64| if how.fp32[0] { x } else { r::<T>(x) };
            let mut scores = qh.dot(&kh.t()).mapv(|x| in_t(in_t(x) / divisor));
            let allowed = |i: usize, j: usize| match how.mask {
                Mask::Causal | Mask::AfterSoftmax | Mask::Zero => j <= i + offset,
                Mask::Diagonal(_) => j < i + offset,
                Mask::OneAhead => j <= i + offset + 1,
                Mask::Missing => true,
                Mask::TopLeft => j <= i,
            };
            if how.mask != Mask::AfterSoftmax {
                scores
                    .indexed_iter_mut()
                    .filter(|((i, j), _)| !allowed(*i, *j))
                    .for_each(|(_, x)| *x = if how.mask == Mask::Zero { 0.0 } else { f64::NEG_INFINITY });
            }
            let softmax_how = if let Mask::Diagonal(s) = how.mask { s } else { how.softmax };
            let axis = if how.query_axis { 0 } else { 1 };
            let mut p = softmax(&scores.into_dyn(), axis, softmax_how);
            if !how.fp32[1] {
                p.mapv_inplace(r::<T>);
            }
            if how.mask == Mask::AfterSoftmax {
                p.indexed_iter_mut().filter(|(ix, _)| ix[1] > ix[0] + offset).for_each(|(_, x)| *x = 0.0);
            }
            let p: Array2<f64> = p.into_dimensionality().expect("two axes");
            out.slice_mut(s![bi, hi, .., ..]).assign(&p.dot(&v.slice(s![bi, hi, .., ..])).mapv(r::<T>));
        }
    }
    out
}

/// `x·Wᵀ` over the last axis with the weight rounded to `T`, rounded to `T`.
pub fn linear<T: Float>(x: &ArrayD<f64>, w: &Array2<f32>) -> ArrayD<f64> {
    let rows: usize = x.shape()[..x.ndim() - 1].iter().product();
    let flat = x.to_shape((rows, w.ncols())).expect("rows × in");
    let y = flat.dot(&w.mapv(|v| r::<T>(f64::from(v))).t()).mapv(r::<T>);
    let mut shape = x.shape().to_vec();
    *shape.last_mut().expect("an axis") = w.nrows();
    y.into_shape_with_order(IxDyn(&shape)).expect("rows × out")
}

/// `[b, s, n·hd]` → `[b, n, s, hd]` (or, `reshaped`, read in its own order without the transpose).
pub fn split(x: &ArrayD<f64>, n: usize, reshaped: bool) -> ArrayD<f64> {
    let (b, s, width) = (x.shape()[0], x.shape()[1], x.shape()[2]);
    if reshaped {
        return x.to_shape(IxDyn(&[b, n, s, width / n])).expect("heads").to_owned();
    }
    let y = x.to_shape(IxDyn(&[b, s, n, width / n])).expect("heads").to_owned();
    y.permuted_axes(IxDyn(&[0, 2, 1, 3])).as_standard_layout().into_owned()
}

/// `[b, n, s, hd]` → `[b, s, n·hd]` (or, `reshaped`, read in its own order without the transpose).
pub fn merge(x: &ArrayD<f64>, reshaped: bool) -> ArrayD<f64> {
    let (b, n, s, hd) = (x.shape()[0], x.shape()[1], x.shape()[2], x.shape()[3]);
    let order = if reshaped { [0, 1, 2, 3] } else { [0, 2, 1, 3] };
    let y = x.view().permuted_axes(IxDyn(&order)).as_standard_layout().into_owned();
    y.into_shape_with_order(IxDyn(&[b, s, n * hd])).expect("merge")
}

/// kv heads repeated: head h reads kv head h / n_rep, or h % n_kv (the mistake).
pub fn repeat(x: &ArrayD<f64>, n_rep: usize, modulo: bool) -> ArrayD<f64> {
    let n_kv = x.shape()[1];
    let heads: Vec<usize> = (0..n_kv * n_rep).map(|h| if modulo { h % n_kv } else { h / n_rep }).collect();
    x.select(Axis(1), &heads)
}

/// A way of writing the module and its cache.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Module {
    /// Its attention.
    pub attn: Attn,
    /// Its RoPE (on q and k).
    pub rope: Rope,
    /// kv heads as h % n_kv.
    pub modulo: bool,
    /// Which of q, k, v are rotated (q and k; keys cached before RoPE are k not rotated).
    pub rotated: [bool; 3],
    /// Heads split, merged by a reshape without the transpose.
    pub reshaped: [bool; 2],
    /// Which cached positions the queries attend over.
    pub read: Read,
    /// RoPE at positions 0.. whatever start_pos is.
    pub rope_at_zero: bool,
    /// Where the new rows are written: start_pos + this (`None`: at 0).
    pub write_shift: Option<usize>,
}

/// The positions of the cache a call reads.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Read {
    /// Right: `0..start_pos + seq`.
    Prefix,
    /// Only the new ones, `start_pos..start_pos + seq`.
    New,
    /// All `max_seq_len` slots, unwritten zeros included.
    Whole,
}

/// The right module.
pub const MODULE: Module = Module {
    attn: RIGHT,
    rope: Rope::Pairs,
    modulo: false,
    rotated: [true, true, false],
    reshaped: [false, false],
    read: Read::Prefix,
    rope_at_zero: false,
    write_shift: Some(0),
};

/// The module's weights, heads and frequencies.
pub struct Layer<'w> {
    /// wq, wk, wv, wo.
    pub weights: &'w [Array2<f32>; 4],
    /// Query heads.
    pub n_heads: usize,
    /// kv heads.
    pub n_kv_heads: usize,
    /// RoPE's frequencies.
    pub freqs: Vec<f64>,
}

/// A simulated cache `[b, n_kv, max_seq, hd]` for keys and values, in f64.
pub type Cache = [ArrayD<f64>; 2];

/// The module on `x` `[b, s, dim]` at start_pos, reading and writing `cache` as `how` does.
pub fn module<T: Float>(
    layer: &Layer,
    x: &ArrayD<f64>,
    start_pos: usize,
    cache: &mut Cache,
    how: Module,
) -> ArrayD<f64> {
    let [wq, wk, wv, wo] = layer.weights;
    let (b, s) = (x.shape()[0], x.shape()[1]);
    let rotate = |a: &ArrayD<f64>| {
        let at = if how.rope_at_zero { 0 } else { start_pos };
        round::<T>(&rope(a, at, &layer.freqs, how.rope))
    };
    let heads = [(wq, layer.n_heads), (wk, layer.n_kv_heads), (wv, layer.n_kv_heads)];
    let [q, k, v] = [0, 1, 2].map(|i| {
        let projected = split(&linear::<T>(x, heads[i].0), heads[i].1, how.reshaped[0]);
        if how.rotated[i] {
            rotate(&projected)
        } else {
            projected
        }
    });
    let end = start_pos + s;
    let at = how.write_shift.map_or(0, |shift| start_pos + shift);
    for (c, new) in cache.iter_mut().zip([&k, &v]) {
        let room = c.shape()[2].saturating_sub(at).min(s);
        c.slice_mut(s![..b, .., at..at + room, ..]).assign(&new.slice(s![.., .., ..room, ..]));
    }
    let n_rep = layer.n_heads / layer.n_kv_heads;
    let (from, to) = match how.read {
        Read::Prefix => (0, end),
        Read::New => (start_pos, end),
        Read::Whole => (0, cache[0].shape()[2]),
    };
    let read = |c: &ArrayD<f64>| repeat(&c.slice(s![..b, .., from..to, ..]).to_owned().into_dyn(), n_rep, how.modulo);
    let heads = attention::<T>(&q, &read(&cache[0]), &read(&cache[1]), how.attn);
    linear::<T>(&merge(&heads, how.reshaped[1]), wo)
}

/// An empty cache for `layer`.
pub fn cache(layer: &Layer, max_batch: usize, max_seq: usize) -> Cache {
    let hd = layer.weights[0].nrows() / layer.n_heads;
    let empty = ArrayD::zeros(IxDyn(&[max_batch, layer.n_kv_heads, max_seq, hd]));
    [empty.clone(), empty]
}

/// How the backward is written.
#[derive(Clone, Copy, Debug, PartialEq, Default)]
pub struct Backward {
    /// The softmax's `Σ g·s` term dropped.
    pub no_sum: bool,
    /// `[dq, dk]` each without the 1/√d.
    pub unscaled: [bool; 2],
    /// The mask j ≤ i, the offset ignored.
    pub top_left: bool,
    /// No mask.
    pub unmasked: bool,
    /// `Σ g` subtracted in the softmax's backward instead of `Σ g·s`.
    pub sum_without_s: bool,
    /// `[dk, dv]` each as dS·q/√d and P·g, the products not transposed (square only).
    pub untransposed: [bool; 2],
}

/// `s ⊙ (g − Σ g·s)` along the last axis (or `s ⊙ g`).
pub fn softmax_backward(s: &ArrayD<f64>, g: &ArrayD<f64>, how: Backward) -> ArrayD<f64> {
    let axis = Axis(s.ndim() - 1);
    let dot = match (how.no_sum, how.sum_without_s) {
        (true, _) => ArrayD::zeros(s.raw_dim()),
        (_, true) => g.sum_axis(axis).insert_axis(axis),
        _ => (s * g).sum_axis(axis).insert_axis(axis),
    };
    s * &(g - &dot)
}

/// (dq, dk, dv) of causal attention in f64.
pub fn attention_backward(
    q: &ArrayD<f64>,
    k: &ArrayD<f64>,
    v: &ArrayD<f64>,
    g: &ArrayD<f64>,
    how: Backward,
) -> [ArrayD<f64>; 3] {
    let (sq, d, sk) = (q.shape()[2], q.shape()[3], k.shape()[2]);
    let scale = 1.0 / (d as f64).sqrt();
    let (mut dq, mut dk, mut dv) = (q.clone(), k.clone(), v.clone());
    for bi in 0..q.shape()[0] {
        for hi in 0..q.shape()[1] {
            let at = s![bi, hi, .., ..];
            let (qh, kh, vh, gh) = (q.slice(at), k.slice(at), v.slice(at), g.slice(at));
            let mut scores = (qh.dot(&kh.t()) * scale).into_dyn();
            scores
                .indexed_iter_mut()
                .filter(|(ix, _)| !how.unmasked && ix[1] > ix[0] + if how.top_left { 0 } else { sk - sq })
                .for_each(|(_, x)| *x = f64::NEG_INFINITY);
            let p = softmax(&scores, 1, Softmax::Stable);
            let dp = gh.dot(&vh.t()).into_dyn();
            let ds: Array2<f64> = softmax_backward(&p, &dp, how).into_dimensionality().expect("two axes");
            let p: Array2<f64> = p.into_dimensionality().expect("two axes");
            let [dq_scale, dk_scale] = how.unscaled.map(|u| if u { 1.0 } else { scale });
            dq.slice_mut(at).assign(&(ds.dot(&kh) * dq_scale));
            let [dk_as, dv_as] = how.untransposed.map(|u| if u { [0, 1] } else { [1, 0] });
            dk.slice_mut(at).assign(&(ds.view().permuted_axes(dk_as).dot(&qh) * dk_scale));
            dv.slice_mut(at).assign(&p.view().permuted_axes(dv_as).dot(&gh));
        }
    }
    [dq, dk, dv]
}
