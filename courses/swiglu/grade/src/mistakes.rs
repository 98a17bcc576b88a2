//! The mistakes the SwiGLU chapter can name, and the outputs each would give. The comparisons
//! record them (`cases::compare`), and `tutor_grade::evidence` names one only when every
//! comparison that computed it agrees with the learner's output and some failure it alone explains.

use ndarray::{Array2, ArrayD, Axis};
use tutor_grade::{candidate, Mistake};
use tutor_kit::Float;

use crate::cases::Candidate;
use crate::oracle::{self, Slip};

/// Every mistake, with the exercise and hint level that address it.
pub const ALL: &[Mistake] = &[
    Mistake {
        id: "silu-exp-overflow",
        exercise: "01-silu",
        hint: 2,
        zh: "SiLU 写成 x·eˣ/(1 + eˣ)：x 较大时 eˣ 溢出为 inf，inf/inf 得到 NaN",
        en: "SiLU written as x·eˣ/(1 + eˣ): for large x, eˣ overflows to inf and inf/inf is NaN",
    },
    Mistake {
        id: "silu-is-relu",
        exercise: "01-silu",
        hint: 1,
        zh: "用 ReLU（max(x, 0)）代替了 SiLU",
        en: "ReLU (max(x, 0)) in place of SiLU",
    },
    Mistake {
        id: "silu-is-gelu",
        exercise: "01-silu",
        hint: 1,
        zh: "用 GELU 代替了 SiLU（LLaMA 用 SiLU；GPT-2 与 BERT 用 GELU）",
        en: "GELU in place of SiLU (LLaMA uses SiLU; GPT-2 and BERT use GELU)",
    },
    Mistake {
        id: "silu-is-sigmoid",
        exercise: "01-silu",
        hint: 1,
        zh: "只有 σ(x)，漏了因子 x：SiLU 是 x·σ(x)（σ(g)·u 是最初的 GLU，不是 SwiGLU）",
        en: "σ(x) alone, the factor x forgotten: SiLU is x·σ(x) (σ(g)·u is the original GLU, not SwiGLU)",
    },
    Mistake {
        id: "silu-sigmoid-rounded",
        exercise: "01-silu",
        hint: 3,
        zh: "σ(x) 先舍入到输入 dtype 再与 x 相乘：舍入了两次；在 FP32 中算完 x·σ(x)，最后只舍入一次",
        en: "σ(x) rounded to the input's dtype before the product: two roundings; compute x·σ(x) in FP32 and round once, at the end",
    },
    Mistake {
        id: "linear-untransposed",
        exercise: "02-linear",
        hint: 2,
        zh: "权重没有转置：算成了 x·W 而不是 x·Wᵀ（PyTorch 的 weight 形状是 [out, in]）",
        en: "The weight used untransposed: x·W instead of x·Wᵀ (PyTorch's weight is [out, in])",
    },
    Mistake {
        id: "linear-low-precision-sum",
        exercise: "02-linear",
        hint: 3,
        zh: "乘积或它们的和留在 f16/bf16 中：每个乘积或部分和都舍入到 T（长行的和会停滞或溢出）；乘法和加法都应在 FP32 中",
        en: "Products or their sum kept in f16/bf16: each product or partial sum rounded to T (a long row's sum stalls or overflows); multiply and add in FP32",
    },
    Mistake {
        id: "linear-weight-not-rounded",
        exercise: "02-linear",
        hint: 3,
        zh: "FP32 主权重直接相乘，没有先舍入到输入 dtype（T 精度的模块保存的就是 T 的权重）",
        en: "The FP32 master weight multiplied as it is, not rounded to the input's dtype first (a module in T holds its weight in T)",
    },
    Mistake {
        id: "linear-bias",
        exercise: "02-linear",
        hint: 1,
        zh: "加了偏置：LLaMA 的三个投影都没有 bias（bias=False）",
        en: "A bias added: none of LLaMA's three projections has one (bias=False)",
    },
    Mistake {
        id: "hidden-no-two-thirds",
        exercise: "03-hidden-size",
        hint: 1,
        zh: "隐藏宽度漏了 2/3：SwiGLU 有三个矩阵，用 2/3·4·dim 保持参数量与四倍宽的两矩阵 MLP 相当",
        en: "The hidden size without its 2/3: SwiGLU's three matrices at 2/3·4·dim keep the parameter count of a two-matrix 4·dim MLP",
    },
    Mistake {
        id: "hidden-rounded-down",
        exercise: "03-hidden-size",
        hint: 2,
        zh: "隐藏宽度向下取到 multiple_of 的倍数；Meta 的规则是向上取",
        en: "The hidden size rounded down to a multiple of multiple_of; Meta's rule rounds up",
    },
    Mistake {
        id: "hidden-multiplier-after-rounding",
        exercise: "03-hidden-size",
        hint: 3,
        zh: "ffn_dim_multiplier 在取整到倍数之后才乘；它应在取整之前",
        en: "ffn_dim_multiplier applied after rounding to the multiple; it comes before",
    },
    Mistake {
        id: "hidden-two-thirds-rounded",
        exercise: "03-hidden-size",
        hint: 1,
        zh: "2·(4·dim)/3 没有向下取整：先除后乘（(2·dim/3)·4），或四舍五入；Python 的 int() 向下截断",
        en: "2·(4·dim)/3 not rounded down: divided before multiplying ((2·dim/3)·4), or rounded to nearest; Python's int() truncates",
    },
    Mistake {
        id: "hidden-always-bumps",
        exercise: "03-hidden-size",
        hint: 2,
        zh: "已经是 multiple_of 的倍数时也加了一个倍数：(h/m + 1)·m；向上取整时倍数保持不变",
        en: "A whole multiple added even when h already is one: (h/m + 1)·m; rounding up leaves a multiple as it is",
    },
    Mistake {
        id: "hidden-multiplier-rounded",
        exercise: "03-hidden-size",
        hint: 3,
        zh: "multiplier·h 四舍五入了（round()）；Meta 的 int() 是向零截断（as usize）",
        en: "multiplier·h rounded to nearest (round()); Meta's int() truncates toward zero (as usize)",
    },
    Mistake {
        id: "hidden-multiplier-before-two-thirds",
        exercise: "03-hidden-size",
        hint: 3,
        zh: "multiplier 乘在了 4·dim 上、2/3 之前；它应在 2/3 之后",
        en: "The multiplier applied to 4·dim, before the 2/3; it comes after",
    },
    Mistake {
        id: "block-gate-up-swapped",
        exercise: "04-forward",
        hint: 1,
        zh: "SiLU 作用在 up 上而不是 gate 上（gate 与 up 对调）",
        en: "SiLU applied to up instead of gate (gate and up swapped)",
    },
    Mistake {
        id: "block-no-activation",
        exercise: "04-forward",
        hint: 1,
        zh: "gate 的输出没有经过 SiLU：gate(x) ⊙ up(x) 是双线性层，不是 SwiGLU",
        en: "gate's output without SiLU: gate(x) ⊙ up(x) is a bilinear layer, not SwiGLU",
    },
    Mistake {
        id: "block-rounds-once",
        exercise: "04-forward",
        hint: 3,
        zh: "中间结果全部留在 FP32、只在最后舍入一次：这是融合内核的路（也是第一章的路），很好的选择，但本章的契约与 PyTorch 的 bf16 模块一样，每一步都舍入回 T",
        en: "Every intermediate kept in FP32 and rounded once at the end: a fused kernel's road (and chapter 1's), a fine choice, but this chapter's contract rounds after every op back to T, as a PyTorch bf16 module does",
    },
    Mistake {
        id: "backward-silu-grad-missing-term",
        exercise: "05-backward",
        hint: 1,
        zh: "silu′ 漏了 x·σ(x)(1 − σ(x)) 这一项：只剩 σ(x)",
        en: "silu′ missing its x·σ(x)(1 − σ(x)) term: σ(x) alone",
    },
    Mistake {
        id: "backward-silu-grad-overflow",
        exercise: "05-backward",
        hint: 1,
        zh: "silu′ 的写法在尾部溢出：e^(−x) 或 eˣ 变成 inf 后得到 inf/inf = NaN（f64 中 |x| 约超过 709.8）；用 σ(x) = 1/(1 + e^(−x)) 写，它在整个范围内有限",
        en: "silu′ written in a form that overflows in the tails: once e^(−x) or eˣ is inf, inf/inf is NaN (|x| beyond about 709.8 in f64); write it with σ(x) = 1/(1 + e^(−x)), finite over the whole range",
    },
    Mistake {
        id: "backward-grads-overwritten",
        exercise: "05-backward",
        hint: 3,
        zh: "权重梯度被覆盖而不是累加：两次 backward 之后 grad 应是两次之和",
        en: "Weight gradients overwritten instead of accumulated: after two backward calls grad holds their sum",
    },
    Mistake {
        id: "backward-silu-grad-dropped",
        exercise: "05-backward",
        hint: 2,
        zh: "dg 漏了 silu′：gate 的梯度是 dp ⊙ u ⊙ silu′(g)，链式法则要穿过 SiLU",
        en: "dg without silu′: gate's gradient is dp ⊙ u ⊙ silu′(g), the chain rule goes through SiLU",
    },
    Mistake {
        id: "backward-dx-missing-up",
        exercise: "05-backward",
        hint: 2,
        zh: "dx 只走了 gate 一条路：x 同时进入 gate 和 up，dx = dg·W_gate + du·W_up",
        en: "dx through gate alone: x feeds both gate and up, so dx = dg·W_gate + du·W_up",
    },
    Mistake {
        id: "backward-own-multiplicands",
        exercise: "05-backward",
        hint: 2,
        zh: "du 与 dg 乘错了对象：乘积 a ⊙ u 对 u 的导数是 a，对 a 的导数是 u（du = dp ⊙ silu(g)，dg = dp ⊙ u ⊙ silu′(g)）",
        en: "du and dg multiplied by the wrong factor: the product a ⊙ u has derivative a in u and u in a (du = dp ⊙ silu(g), dg = dp ⊙ u ⊙ silu′(g))",
    },
    Mistake {
        id: "backward-gate-up-swapped",
        exercise: "05-backward",
        hint: 2,
        zh: "gate 与 up 的梯度对调了",
        en: "The gate's and up's gradients swapped",
    },
];

/// The ways of writing a mistake that differ from the right answer in where it rounds alone: the
/// only ones held to the learner's output bit for bit (another is computed as near as a tolerance
/// tells, not to the bit: an erf approximated, a sum in another order).
pub const ROUNDINGS: [&str; 7] = [
    "sigmoid-in-t",
    "fp32-weight",
    "products-in-t",
    "fused-fp32-weights",
    "fused-weights-in-t",
    "per-op-fp32-weights",
    "block-sigmoid-in-t",
];

/// SiLU's mistaken versions on `x`, rounded to `T` as the learner's would be.
pub fn silu_candidates<T: Float>(x: &ArrayD<T>) -> Vec<Candidate> {
    let on = |f: fn(f32) -> f32| x.mapv(|v| T::from_f32(f(v.to_f32())).to_f64());
    let sigmoid = |v: f32| 1.0 / (1.0 + (-v).exp());
    vec![
        candidate("silu-exp-overflow", "x-times-quotient", on(|v| v * (v.exp() / (1.0 + v.exp())))),
        candidate("silu-exp-overflow", "product-first", on(|v| v * v.exp() / (1.0 + v.exp()))),
        candidate("silu-is-relu", "max", on(|v| v.max(0.0))),
        candidate("silu-is-sigmoid", "sigmoid", on(sigmoid)),
        candidate("silu-is-gelu", "erf", on(|v| gelu_erf(f64::from(v)) as f32)),
        candidate("silu-is-gelu", "tanh", on(|v| gelu_tanh(f64::from(v)) as f32)),
        candidate("silu-sigmoid-rounded", "sigmoid-in-t", x.mapv(|v| (v * T::from_f32(sigmoid(v.to_f32()))).to_f64())),
    ]
}

/// GELU, exact: `x·Φ(x)`.
pub fn gelu_erf(x: f64) -> f64 {
    0.5 * x * (1.0 + erf(x / std::f64::consts::SQRT_2))
}

/// GELU, the tanh approximation (GPT-2's).
pub fn gelu_tanh(x: f64) -> f64 {
    0.5 * x * (1.0 + ((2.0 / std::f64::consts::PI).sqrt() * (x + 0.044715 * x * x * x)).tanh())
}

/// erf, Abramowitz & Stegun 7.1.26 (absolute error below 1.5e-7, enough to recognise GELU).
fn erf(x: f64) -> f64 {
    let t = 1.0 / (1.0 + 0.327_591_1 * x.abs());
    let poly =
        t * (0.254_829_592 + t * (-0.284_496_736 + t * (1.421_413_741 + t * (-1.453_152_027 + t * 1.061_405_429))));
    let magnitude = 1.0 - poly * (-x * x).exp();
    magnitude.copysign(x)
}

/// Linear's mistaken versions, rounded to `T`: products or sums in `T`; the FP32 weight unrounded;
/// the weight untransposed (square weights only); and, in FP32 or f64, `expected` shifted by the
/// first row's error in every row (a bias: the same vector added to every row).
pub fn linear_candidates<T: Float>(
    x: &ArrayD<T>,
    weight: &Array2<f32>,
    expected: &ArrayD<f64>,
    actual: &ArrayD<f64>,
) -> Vec<Candidate> {
    let x64 = x.mapv(T::to_f64);
    let mut out = vec![
        candidate("linear-low-precision-sum", "sum-in-t", products_in_t(x, weight, true)),
        candidate("linear-low-precision-sum", "products-in-t", products_in_t(x, weight, false)),
        candidate(
            "linear-weight-not-rounded",
            "fp32-weight",
            oracle::round::<T>(&oracle::project(&x64, &weight.mapv(f64::from))),
        ),
    ];
    if weight.is_square() {
        out.push(candidate(
            "linear-untransposed",
            "x-times-w",
            oracle::round::<T>(&oracle::linear(x, &weight.t().to_owned())),
        ));
    }
    // A bias read from the first row carries that row's rounding errors: in f16 or bf16 they
    // exceed the tolerance of a small output, and the fit would contradict a real bias.
    let resolves_fp32 = T::from_f32(1.0 + f32::EPSILON).to_f32() != 1.0;
    if let Some(bias) = same_shift(expected, actual).filter(|_| resolves_fp32) {
        out.push(candidate("linear-bias", "row-shift", oracle::round::<T>(&bias)));
    }
    out
}

/// `x·Wᵀ` with every product rounded to `T`, then added in `T` one at a time (`sum_in_t`), or
/// added exactly and rounded once (products in `T`, their sum in FP32).
fn products_in_t<T: Float>(x: &ArrayD<T>, weight: &Array2<f32>, sum_in_t: bool) -> ArrayD<f64> {
    let last = Axis(x.ndim() - 1);
    let mut shape = x.shape().to_vec();
    shape[last.index()] = weight.nrows();
    let mut y = ArrayD::<f64>::zeros(shape);
    for (row, mut out) in x.lanes(last).into_iter().zip(y.lanes_mut(last)) {
        for (j, w) in weight.outer_iter().enumerate() {
            let products = row.iter().zip(w).map(|(&a, &b)| a * T::from_f32(b));
            out[j] = if sum_in_t {
                products.fold(T::from_f32(0.0), |acc, p| acc + p).to_f64()
            } else {
                T::from_f64(products.map(T::to_f64).sum()).to_f64()
            };
        }
    }
    y
}

/// `expected` plus the difference `actual − expected` of its first row, in every row, when there
/// are several rows and that difference is not zero.
fn same_shift(expected: &ArrayD<f64>, actual: &ArrayD<f64>) -> Option<ArrayD<f64>> {
    if expected.shape() != actual.shape() || expected.ndim() == 0 {
        return None;
    }
    let last = Axis(expected.ndim() - 1);
    let first_shift =
        expected.lanes(last).into_iter().next().zip(actual.lanes(last).into_iter().next()).map(|(e, a)| &a - &e)?;
    let rows = expected.len() / first_shift.len().max(1);
    if rows < 2 || first_shift.iter().all(|v| v.abs() < 1e-6) {
        return None;
    }
    let mut shifted = expected.clone();
    for mut row in shifted.lanes_mut(last) {
        row += &first_shift;
    }
    Some(shifted)
}

/// A wrong silu′: its mistake, its way of writing it, and the slope it computes.
pub type WrongSlope = (&'static str, &'static str, fn(f64) -> f64);

/// silu′ as the backward mistakes write it: (mistake, way of writing it, the slope). The forms
/// that overflow are NaN where an exponential is inf (the quotient rule's `x·e^(−x)` overflows a
/// little earlier, below about −703.2) and right elsewhere.
pub const WRONG_SLOPES: [WrongSlope; 4] = [
    ("backward-silu-grad-missing-term", "sigmoid-alone", oracle::sigmoid),
    ("backward-silu-grad-overflow", "exp-minus-x-inf", |x| {
        if (-x).exp().is_finite() {
            oracle::silu_grad(x)
        } else {
            f64::NAN
        }
    }),
    ("backward-silu-grad-overflow", "quotient-rule", |x| {
        let e = (-x).exp();
        (1.0 + e + x * e) / ((1.0 + e) * (1.0 + e))
    }),
    ("backward-silu-grad-overflow", "exp-x-inf", |x| if x.exp().is_finite() { oracle::silu_grad(x) } else { f64::NAN }),
];

/// A backward's slip in the chain rule itself: (mistake, way of writing it, silu′, slip).
pub type ChainRuleSlip = (&'static str, &'static str, fn(f64) -> f64, Slip);

/// The backward's slips in the chain rule itself.
pub const CHAIN_RULE_SLIPS: [ChainRuleSlip; 3] = [
    ("backward-silu-grad-dropped", "dg-is-dp-times-u", |_| 1.0, Slip::None),
    ("backward-dx-missing-up", "gate-path-only", oracle::silu_grad, Slip::DxWithoutUp),
    ("backward-own-multiplicands", "du-dp-u-dg-dp-a", oracle::silu_grad, Slip::OwnMultiplicands),
];

/// The hidden size's mistaken versions: (mistake, way of writing it, value).
pub fn hidden_candidates(
    dim: usize,
    multiple_of: usize,
    multiplier: Option<f64>,
) -> Vec<(&'static str, &'static str, usize)> {
    let up = |h: usize| multiple_of * h.div_ceil(multiple_of);
    let scaled = |h: usize| multiplier.map_or(h, |m| (m * h as f64) as usize);
    let two_thirds = (2.0 * (4 * dim) as f64 / 3.0) as usize;
    let rounded = |h: usize| multiplier.map_or(h, |m| (m * h as f64).round() as usize);
    vec![
        ("hidden-no-two-thirds", "four-dim", up(scaled(4 * dim))),
        ("hidden-rounded-down", "down", multiple_of * (scaled(two_thirds) / multiple_of)),
        ("hidden-multiplier-after-rounding", "after", scaled(up(two_thirds))),
        ("hidden-two-thirds-rounded", "divided-first", up(scaled(2 * dim / 3 * 4))),
        ("hidden-two-thirds-rounded", "nearest", up(scaled((8.0 * dim as f64 / 3.0).round() as usize))),
        ("hidden-always-bumps", "plus-one", (scaled(two_thirds) / multiple_of + 1) * multiple_of),
        ("hidden-multiplier-rounded", "round", up(rounded(two_thirds))),
        ("hidden-multiplier-before-two-thirds", "on-four-dim", up(2 * scaled(4 * dim) / 3)),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_mistake_addresses_an_exercise_and_a_hint() {
        for m in ALL {
            assert!(
                ["01-silu", "02-linear", "03-hidden-size", "04-forward", "05-backward"].contains(&m.exercise),
                "{}",
                m.id
            );
            assert!((1..=3).contains(&m.hint), "{}", m.id);
        }
    }

    #[test]
    fn erf_is_close_enough_to_recognise_gelu() {
        assert!((erf(0.5) - 0.520_499_877_813_046_5).abs() < 2e-7);
        assert!((erf(-2.0) + 0.995_322_265_018_952_7).abs() < 2e-7);
    }
}
