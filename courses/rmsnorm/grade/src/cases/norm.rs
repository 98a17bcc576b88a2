//! Numeric contract: RMS statistics along the last axis, in FP32 (TODO 2).
//!
//! Each case is built so that classic mistakes give visibly wrong answers, not panics; every
//! comparison also records which known mistakes its output matches (see `crate::evidence`).

use half::{bf16, f16};
use ndarray::{ArrayD, IxDyn};
use tutor_kit::{reference, Element};

use super::{assert_close, cases, Case, Outcome, Run};
use crate::evidence::Observation;
use crate::mistakes::scale_fit;
use crate::Build;
use crate::{mistakes, text};
use tutor_grade::data::tensor;
use tutor_grade::refused;

/// The explicit FP32 reference and the learner's code sum in different orders: a few ulp apart.
const ATOL: f64 = 1e-6;
const RTOL: f64 = 1e-5;

pub fn cases() -> Vec<Case> {
    cases! { super::NUMERIC;
        "tutorial-case",
            "教程用例 [[[3,4],[0,0]]]：与 FP32 参考一致，零行保持有限",
            "tutorial case [[[3,4],[0,0]]]: matches the FP32 reference, zero row stays finite" => tutorial_case;
        "last-axis-only",
            "只沿最后一维统计（方阵输入，各行尺度不同）",
            "statistics along the last axis only (square input, rows at different scales)" => last_axis_only;
        "eps-inside-sqrt",
            "eps 在平方根内部（[1e-3, -1e-3, …] 应得 0.7071）",
            "eps inside the square root ([1e-3, -1e-3, …] must give 0.7071)" => eps_inside_sqrt;
        "eps-is-used",
            "norm 使用本层的 eps（eps = 1e-12 时 [1e-6, -1e-6, …] 应得 0.7071；eps = 0.1 时结果随之改变；f16、bf16 输入的均方接近 eps = 1e-6 时，eps 不舍入）",
            "norm uses the layer's own eps ([1e-6, -1e-6, …] at eps = 1e-12 must give 0.7071; eps = 0.1 shows too; f16 and bf16 rows near eps = 1e-6 take it unrounded)" => eps_is_used;
        "f16-squares-in-fp32",
            "f16 输入的平方在 FP32 中计算（[300, -300, …] 应得 ±1）",
            "squares of f16 input taken in FP32 ([300, -300, …] must give ±1)" => f16_squares_in_fp32;
        "f16-long-row",
            "f16 长行求和在 FP32 中进行（D = 4096：全为 4.0，以及 3、5、4、6 循环）",
            "a long f16 row summed in FP32 (D = 4096: all 4.0, and 3, 5, 4, 6 repeated)" => f16_long_row;
        "zero-row-at-eps-zero",
            "eps = 0 时全零行得到 0 / 0 = NaN（契约如此），其他行照常",
            "at eps = 0 a zero row gives 0 / 0 = NaN (the contract, as PyTorch), the other rows as usual" => zero_row_at_eps_zero;
        "nan-stays-in-its-row",
            "某一行的 NaN 留在该行，不会扩散到其他行",
            "a NaN in one row stays in that row and does not leak into the others" => nan_stays_in_its_row;
        "one-dimensional-input",
            "一维输入 [D]",
            "a one-dimensional input [D]" => |run| norm_matches_reference::<f32>(run, &run.rng(3).normal_array(&[5]), 1e-6);
        "four-dimensional-input",
            "四维输入 [2, 2, 3, D]",
            "a four-dimensional input [2, 2, 3, D]" => |run| norm_matches_reference::<f32>(run, &run.rng(4).normal_array(&[2, 2, 3, 6]), 1e-5);
        "empty-batch",
            "空批次 [0, D] 返回同形的空结果",
            "an empty batch [0, D] gives an empty result of the same shape" => |run| norm_matches_reference::<f32>(run, &ArrayD::zeros(IxDyn(&[0, 4])), 1e-6);
        "rejects-bad-input",
            "最后一维不等于 hidden_size 或零维输入时返回 Err 而不是 panic",
            "a last axis that is not hidden_size, or a zero-dimensional input, returns Err instead of panicking" => rejects_bad_input;
    }
}

/// Runs the learner's `norm` on `x` at `eps`, records what it says about known mistakes, and
/// compares it with the FP32 reference.
pub(super) fn norm_matches_reference<T: Element>(run: &Run, x: &ArrayD<T>, eps: f32) -> Outcome {
    let hidden = *x.shape().last().expect("test inputs have a last axis");
    let norm = run.build(hidden, eps)?;
    let actual = super::call(&text::code("norm(x)"), norm.norm(x))?.mapv(f64::from);
    super::shape::same_as_input("norm(x)", actual.shape(), x.shape())?;
    let expected = reference::rms_normalize(x, eps).expect("test inputs are valid").mapv(f64::from);
    let rows = x.mapv(T::to_f64);
    let (case, seen, right, x) = (run.case(), actual.clone(), expected.clone(), x.clone());
    run.observe(move || {
        let mut candidates = mistakes::wrong_norms(&x, eps);
        let ones = vec![1.0; *x.shape().last().unwrap_or(&0)];
        let fitted = scale_fit::candidates(&x.mapv(T::to_f64), &ones, f64::from(eps), &seen, false, 1e-6);
        candidates.extend(fitted.into_iter().map(|c| c.map(|v| v as f32)));
        vec![Observation::by_tolerance(case, &seen, &right, candidates, ATOL, RTOL)]
    });
    // norm returns FP32 whatever the input's type.
    assert_close(&text::code("norm(x)"), "float32", &actual, &expected, ATOL, RTOL)
        .map_err(tutor_grade::origin::traced(tutor_grade::origin::Input::Rows("x", &rows)))
}

fn tutorial_case(run: &Run) -> Outcome {
    let x = tensor::<f32>(&[1, 2, 2], &[3.0, 4.0, 0.0, 0.0]);
    norm_matches_reference::<f32>(run, &x, 1e-6).map_err(|mut failure| {
        // The zero row is the point of this case: say so when it is what went wrong.
        let non_finite = failure.mismatch.as_ref().is_some_and(|m| m.actual.iter().any(|v| !v.is_finite()));
        if non_finite {
            failure.message = text::not_finite(&text::code("norm(x)"));
        }
        failure
    })
}

fn last_axis_only(run: &Run) -> Outcome {
    // Square, so statistics along the wrong axis still broadcast; rows at very different scales,
    // so they give different numbers.
    let mut x: ArrayD<f32> = run.rng(2).normal_array(&[4, 4]);
    for (mut row, scale) in x.rows_mut().into_iter().zip([1.0, 10.0, 0.1, 100.0]) {
        row *= scale;
    }
    norm_matches_reference::<f32>(run, &x, 1e-6)
}

fn eps_inside_sqrt(run: &Run) -> Outcome {
    // mean(x²) = 1e-6 = eps: inside the root gives 1e-3/sqrt(2e-6) ≈ 0.7071, outside ≈ 0.9990.
    let x = tensor::<f32>(&[1, 4], &[1e-3, -1e-3, 1e-3, -1e-3]);
    norm_matches_reference::<f32>(run, &x, 1e-6)
}

fn eps_is_used(run: &Run) -> Outcome {
    // mean(x²) = 1e-12 = eps: 1e-6/sqrt(2e-12) ≈ 0.7071; an eps fixed at 1e-6 gives ≈ 1e-3.
    let tiny = tensor::<f32>(&[1, 4], &[1e-6, -1e-6, 1e-6, -1e-6]);
    // eps = 0.1 beside mean(x²) ≈ 1 moves every value by about 5%.
    let unit: ArrayD<f32> = run.rng(12).normal_array(&[3, 8]);
    // Both compared before the first failure is shown: each is evidence about the mistakes.
    let mut outcome = Ok(());
    for (x, eps) in [(tiny, 1e-12), (unit, 0.1)] {
        let kept = run.build(4, eps)?.eps();
        if kept.to_bits() != eps.to_bits() {
            return Err(super::weight::eps_changed(eps, kept));
        }
        outcome = outcome.and(norm_matches_reference::<f32>(run, &x, eps));
    }
    // Half-precision rows at mean(x²) ≈ eps = 1e-6: eps belongs to the FP32 statistics, and
    // rounded to f16 (1.3 % off) or bf16 (0.2 % off) it moves every value well past FP32's
    // tolerance.
    let near_eps = [1e-3, -1e-3, 2e-3, -5e-4];
    outcome = outcome.and(norm_matches_reference::<f16>(run, &tensor::<f16>(&[1, 4], &near_eps), 1e-6));
    outcome.and(norm_matches_reference::<bf16>(run, &tensor::<bf16>(&[1, 4], &near_eps), 1e-6))
}

fn f16_squares_in_fp32(run: &Run) -> Outcome {
    // 300² = 90000 overflows f16 (max 65504): squares taken in f16 turn the output into zeros.
    let x = tensor::<f16>(&[1, 4], &[300.0, -300.0, 300.0, -300.0]);
    norm_matches_reference::<f16>(run, &x, 1e-6)
}

fn f16_long_row(run: &Run) -> Outcome {
    // 4096 squares of 4.0 sum to 65536: past f16's range (ndarray's partial sums overflow), and
    // an f16 running sum stalls at 32768, after 2048 terms (see tests/it/lesson_claims.rs). A constant row normalises to ones whatever the statistics' scale, so a second,
    // varying row (3, 5, 4, 6, … : mean square 21.5) tells the mistakes apart.
    let constant = ArrayD::from_elem(IxDyn(&[1, 4096]), f16::from_f32(4.0));
    let varying = ArrayD::from_shape_fn(IxDyn(&[1, 4096]), |i| f16::from_f32([3.0, 5.0, 4.0, 6.0][i[1] % 4]));
    norm_matches_reference::<f16>(run, &constant, 1e-6).and(norm_matches_reference::<f16>(run, &varying, 1e-6))
}

fn zero_row_at_eps_zero(run: &Run) -> Outcome {
    // The kit accepts eps = 0, and the formula then gives 0 / 0 for a zero row: a guard that
    // returns 0 there passes every case with eps > 0.
    // The zero row between two others: statistics that mix rows do not look like another count.
    let x = tensor::<f32>(&[3, 4], &[0.5, -1.5, 2.0, 0.25, 0.0, 0.0, 0.0, 0.0, 3.0, 1.0, -2.0, 0.5]);
    norm_matches_reference::<f32>(run, &x, 0.0)
}

fn nan_stays_in_its_row(run: &Run) -> Outcome {
    let x = tensor::<f32>(&[3, 4], &[1.0, 2.0, 3.0, 4.0, f32::NAN, 1.0, 2.0, 3.0, -0.5, 0.25, 2.0, -1.0]);
    norm_matches_reference::<f32>(run, &x, 1e-6)
}

fn rejects_bad_input(run: &Run) -> Outcome {
    let norm = run.build(4, 1e-6)?;
    let wrong_width = ArrayD::<f32>::zeros(IxDyn(&[2, 5]));
    refused(&text::call_on_wrong_width("norm(x)", &[2, 5], 4), norm.norm(&wrong_width))?;
    refused(&text::call_on_0d("norm(x)"), norm.norm(&ArrayD::<f32>::zeros(IxDyn(&[]))))?;
    refused(&text::call_on_wrong_width("forward(x)", &[2, 5], 4), norm.forward(&wrong_width))
}
