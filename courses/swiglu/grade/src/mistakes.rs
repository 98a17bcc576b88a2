//! The mistakes the SwiGLU chapter can name, and the outputs each would give: a mistake is named
//! only when the learner's output matches its candidate everywhere and the right answer nowhere
//! near (see `cases::compare`).

use ndarray::{Array2, ArrayD, Axis};
use tutor_grade::Mistake;
use tutor_kit::Float;

use crate::cases::Candidate;
use crate::oracle;

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
        zh: "乘积在 f16/bf16 中累加：长行的和停滞或溢出",
        en: "Products accumulated in f16/bf16: a long row's sum stalls or overflows",
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
        id: "block-gate-up-swapped",
        exercise: "04-forward",
        hint: 1,
        zh: "SiLU 作用在 up 上而不是 gate 上（gate 与 up 对调）",
        en: "SiLU applied to up instead of gate (gate and up swapped)",
    },
    Mistake {
        id: "block-rounds-once",
        exercise: "04-forward",
        hint: 3,
        zh: "中间结果全部留在 FP32、只在最后舍入一次（融合内核的做法，很好的选择，但不是本章的契约）",
        en: "Every intermediate kept in FP32 and rounded once at the end (a fused kernel's path: a fine choice, not this chapter's contract)",
    },
    Mistake {
        id: "backward-silu-grad-missing-term",
        exercise: "05-backward",
        hint: 1,
        zh: "silu′ 漏了 x·σ(x)(1 − σ(x)) 这一项：只剩 σ(x)",
        en: "silu′ missing its x·σ(x)(1 − σ(x)) term: σ(x) alone",
    },
    Mistake {
        id: "backward-grads-overwritten",
        exercise: "05-backward",
        hint: 3,
        zh: "权重梯度被覆盖而不是累加：两次 backward 之后 grad 应是两次之和",
        en: "Weight gradients overwritten instead of accumulated: after two backward calls grad holds their sum",
    },
    Mistake {
        id: "backward-gate-up-swapped",
        exercise: "05-backward",
        hint: 2,
        zh: "gate 与 up 的梯度对调了",
        en: "The gate's and up's gradients swapped",
    },
];

/// SiLU's mistaken versions on finite `x`, rounded to `T` as the learner's would be.
pub fn silu_candidates<T: Float>(x: &ArrayD<T>) -> Vec<Candidate> {
    let on = |f: fn(f32) -> f32| x.mapv(|v| T::from_f32(f(v.to_f32())).to_f64());
    vec![
        ("silu-exp-overflow", on(|v| v * (v.exp() / (1.0 + v.exp())))),
        ("silu-exp-overflow", on(|v| v * v.exp() / (1.0 + v.exp()))),
        ("silu-is-relu", on(|v| v.max(0.0))),
        ("silu-is-gelu", on(|v| (0.5 * f64::from(v) * (1.0 + erf(f64::from(v) / std::f64::consts::SQRT_2))) as f32)),
        (
            "silu-is-gelu",
            on(|v| {
                let v = f64::from(v);
                (0.5 * v * (1.0 + ((2.0 / std::f64::consts::PI).sqrt() * (v + 0.044715 * v * v * v)).tanh())) as f32
            }),
        ),
    ]
}

/// erf, Abramowitz & Stegun 7.1.26 (absolute error below 1.5e-7, enough to recognise GELU).
fn erf(x: f64) -> f64 {
    let t = 1.0 / (1.0 + 0.327_591_1 * x.abs());
    let poly =
        t * (0.254_829_592 + t * (-0.284_496_736 + t * (1.421_413_741 + t * (-1.453_152_027 + t * 1.061_405_429))));
    let magnitude = 1.0 - poly * (-x * x).exp();
    magnitude.copysign(x)
}

/// Linear's mistaken versions: sums in `T`; the weight untransposed (square weights only); and
/// `expected` shifted by the first row's error in every row (a bias: the same vector added to
/// every row).
pub fn linear_candidates<T: Float>(
    x: &ArrayD<T>,
    weight: &Array2<f32>,
    expected: &ArrayD<f64>,
    actual: &ArrayD<f64>,
) -> Vec<Candidate> {
    let mut out = vec![("linear-low-precision-sum", sum_in_t(x, weight))];
    if weight.is_square() {
        out.push(("linear-untransposed", oracle::round::<T>(&oracle::linear(x, &weight.t().to_owned()))));
    }
    if let Some(bias) = same_shift(expected, actual) {
        out.push(("linear-bias", bias));
    }
    out
}

/// `x·Wᵀ` with every product rounded to `T` and added in `T`, one at a time.
fn sum_in_t<T: Float>(x: &ArrayD<T>, weight: &Array2<f32>) -> ArrayD<f64> {
    let last = Axis(x.ndim() - 1);
    let mut shape = x.shape().to_vec();
    shape[last.index()] = weight.nrows();
    let mut y = ArrayD::<f64>::zeros(shape);
    for (row, mut out) in x.lanes(last).into_iter().zip(y.lanes_mut(last)) {
        for (j, w) in weight.outer_iter().enumerate() {
            let sum = row.iter().zip(w).fold(T::from_f32(0.0), |acc, (&a, &b)| acc + a * T::from_f32(b));
            out[j] = sum.to_f64();
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

/// The hidden size's mistaken versions.
pub fn hidden_candidates(dim: usize, multiple_of: usize, multiplier: Option<f64>) -> Vec<(&'static str, usize)> {
    let up = |h: usize| multiple_of * h.div_ceil(multiple_of);
    let scaled = |h: usize| multiplier.map_or(h, |m| (m * h as f64) as usize);
    let two_thirds = (2.0 * (4 * dim) as f64 / 3.0) as usize;
    vec![
        ("hidden-no-two-thirds", up(scaled(4 * dim))),
        ("hidden-rounded-down", multiple_of * (scaled(two_thirds) / multiple_of)),
        ("hidden-multiplier-after-rounding", scaled(up(two_thirds))),
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
