//! The backward cases that make 04 airtight: weights with zero and negative elements, a backward
//! that must leave the weight's value (and so forward's output) alone, half-precision inputs
//! large enough for an f16 square to overflow and with enough rows for an f16 sum to stall, dx
//! rounded once to the input type, and an f64 gradient at the precision only a derived gradient
//! reaches. Every one uses an eps other than the default, so a hard-coded eps shows.

use half::{bf16, f16};
use ndarray::{Array1, ArrayD, Axis, IxDyn};
use tutor_kit::Element;

use super::dtype::{compare_gradients, weighted, with_weights, Spacing};
use super::{assert_close, call, cases, Case, Failure, Outcome, Run};
use crate::subject::RMSNorm;
use crate::{oracle, text};

pub fn cases() -> Vec<Case> {
    cases! { super::DTYPE_GRADIENT;
        "backward-zero-negative-weights",
            "权重含零与负值时的 backward（f32、f64、f16、bf16；eps = 1e-12）",
            "backward with zero and negative weight elements (f32, f64, f16, bf16; eps = 1e-12)" => zero_and_negative_weights;
        "backward-leaves-weight",
            "backward 不改变 weight 的值：之后 forward 的输出逐位相同",
            "backward leaves the weight's value alone: forward gives the same bits afterwards" => leaves_weight;
        "backward-frozen-weight",
            "权重被冻结（requires_grad = false）时，backward 仍返回正确的 dx，且不给权重留下梯度",
            "with the weight frozen (requires_grad = false), backward still returns the right dx and leaves the weight without a gradient" => frozen_weight;
        "f16-backward-large",
            "f16 backward：|x| ≥ 256（平方超出 f16 范围），权重梯度的 f16 累加会停滞，dx 只舍入一次",
            "f16 backward: |x| ≥ 256 (squares past f16's range), a weight gradient an f16 sum stalls on, dx rounded once" => f16_backward_large;
        "bf16-backward-large",
            "bf16 backward：|x| ≥ 256，权重梯度的 bf16 累加会停滞，dx 只舍入一次",
            "bf16 backward: |x| ≥ 256, a weight gradient a bf16 sum stalls on, dx rounded once" => bf16_backward_large;
        "f64-backward-derived",
            "f64 backward 达到推导出的梯度的精度（每行误差 ≤ 4e-6 × 该行最大值；数值差分达不到）",
            "f64 backward as precise as a derived gradient (each row within 4e-6 of its largest value; finite differences cannot get there)" => f64_backward_derived;
        "f64-backward-long-rows",
            "f64 backward 处理长行（1 行 × D = 32768）：推导出的梯度每行只需 O(D) 次运算，数值差分需要 O(D²)",
            "f64 backward on long rows (1 row × D = 32768): a derived gradient costs O(D) a row, finite differences O(D²)" => f64_backward_long_rows;
    }
}

/// A frozen weight is the parameter contract's finding, told by the cases listed in lesson 01;
/// these cases are about dx and the gradient's values, and pass over it.
fn unless_frozen(outcome: Outcome) -> Outcome {
    match outcome {
        Err(failure) if failure.mistake.as_deref() == Some("frozen-weight") => Ok(()),
        other => other,
    }
}

/// Weights with exact zeros and negative elements beside ordinary ones.
fn zero_and_negative(hidden: usize) -> Array1<f32> {
    Array1::from_iter((0..hidden).map(|i| [0.0, -1.5, 0.75, -0.25, 2.0, 0.0, 1.25, -2.0][i % 8]))
}

/// One backward on `x` (with the layer's weight set to `weights`), compared with the f64 oracle.
fn backward_against_oracle<T: Element>(
    run: &Run,
    x: &ArrayD<T>,
    weights: Array1<f32>,
    eps: f32,
    salt: u64,
    tolerance: (f64, f64),
) -> Result<ArrayD<T>, Failure> {
    let hidden = *x.shape().last().expect("test shapes have a last axis");
    let (mut norm, weight) = with_weights(run, hidden, eps, weights)?;
    norm.clear_grad();
    let grad_out: ArrayD<T> = run.rng(salt + 300).normal_array(x.shape());
    let dx = call(&text::code("backward(x, grad_out)"), norm.backward(x, &grad_out))?;
    unless_frozen(compare_gradients(run, &norm, &weight, (x, &grad_out), &dx, eps, tolerance))?;
    Ok(dx)
}

fn zero_and_negative_weights(run: &Run) -> Outcome {
    const EPS: f32 = 1e-12;
    let shape = [3, 8];
    let weights = zero_and_negative(8);
    backward_against_oracle::<f32>(run, &run.rng(41).normal_array(&shape), weights.clone(), EPS, 41, (1e-5, 1e-4))?;
    backward_against_oracle::<f64>(run, &run.rng(42).normal_array(&shape), weights.clone(), EPS, 42, (1e-5, 1e-4))?;
    backward_against_oracle::<f16>(run, &run.rng(43).normal_array(&shape), weights.clone(), EPS, 43, (1e-3, 1e-2))?;
    backward_against_oracle::<bf16>(run, &run.rng(44).normal_array(&shape), weights, EPS, 44, (1e-2, 3e-2))?;
    Ok(())
}

fn frozen_weight(run: &Run) -> Outcome {
    const EPS: f32 = 0.1;
    let hidden = 6;
    let (mut norm, weight) = weighted(run, hidden, EPS, 61, None)?;
    norm.clear_grad();
    norm.set_requires_grad(false);
    let x: ArrayD<f32> = run.rng(62).normal_array(&[3, hidden]);
    let grad_out: ArrayD<f32> = run.rng(63).normal_array(&[3, hidden]);
    let dx = call(&text::code("backward(x, grad_out)"), norm.backward(&x, &grad_out))?;
    super::shape::same_as_input("backward(x, grad_out)", dx.shape(), x.shape())?;
    if let Some(grad) = norm.weight().grad {
        return Err(Failure::new(text::frozen_weight_got_gradient(&format!("{grad}")))
            .with_mistake(Some("frozen-weight-gets-gradient")));
    }
    let w: Vec<f64> = weight.value.iter().map(|&v| f64::from(v)).collect();
    let (expected, _) = oracle::backward(&x.mapv(f64::from), &grad_out.mapv(f64::from), &w, f64::from(EPS));
    assert_close(&text::code("dx"), "float32", &dx.mapv(f64::from), &expected, 1e-5, 1e-4)
}

fn leaves_weight(run: &Run) -> Outcome {
    const EPS: f32 = 0.1;
    let (mut norm, weight) = with_weights(run, 6, EPS, zero_and_negative(6))?;
    let mut rng = run.rng(46);
    let x: ArrayD<f32> = rng.normal_array(&[4, 6]);
    let grad_out: ArrayD<f32> = rng.normal_array(&[4, 6]);
    let before = call(&text::code("forward(x)"), norm.forward(&x))?;
    call(&text::code("backward(x, grad_out)"), norm.backward(&x, &grad_out))?;
    let kept = norm.weight().value;
    let same = |a: &Array1<f32>, b: &Array1<f32>| {
        a.len() == b.len() && a.iter().zip(b).all(|(p, q)| p.to_bits() == q.to_bits())
    };
    if !same(&kept, &weight.value) {
        return Err(Failure::new(text::weight_changed_by_backward(&format!("{}", weight.value), &format!("{kept}")))
            .with_mistake(Some("backward-updates-weight")));
    }
    let after = call(&text::code("forward(x)"), norm.forward(&x))?;
    let bits_equal = before.shape() == after.shape()
        && before.iter().zip(after.iter()).all(|(p, q)| p.to_bits() == q.to_bits() || (p.is_nan() && q.is_nan()));
    if !bits_equal {
        return Err(Failure::new(text::forward_changed_by_backward()));
    }
    Ok(())
}

/// Half-precision inputs at |x| ≥ 256: x² overflows f16 (65504). The weight's gradient adds one
/// term per row; the first rows' upstream gradient is 2048, so a running sum in f16 starts near
/// 4096, where its values are 4 apart and every later term (about 1) is lost: the sum stalls, as
/// it would after 4096 rows of ones, in a thirty-second of the rows (each row is the learner's own
/// code running unoptimised, on every check). In bf16 the spacing there is 32. The gradient, summed
/// in FP32, is held to FP32's precision, so the lost terms show; dx must be the correctly rounded
/// f64 value almost everywhere.
fn half_backward_large<T: Element>(run: &Run, salt: u64) -> Outcome {
    const ROWS: usize = 128;
    const LARGE_ROWS: usize = 2;
    const HIDDEN: usize = 4;
    const EPS: f32 = 0.1;
    // Another summation order moves an FP32 value by an ulp or two, which crosses a rounding
    // boundary of T now and then: "almost every value", as forward's rounds-once cases.
    const ALLOWED_SHARE: f64 = 0.01;
    let mut rng = run.rng(salt);
    let x = ArrayD::from_shape_fn(IxDyn(&[ROWS, HIDDEN]), |_| T::from_f64(256.0 + 256.0 * rng.uniform()));
    let grad_out = ArrayD::from_shape_fn(IxDyn(&[ROWS, HIDDEN]), |i| {
        let upstream = if i[0] < LARGE_ROWS { 2048.0 } else { 1.0 + 0.25 * rng.normal() };
        T::from_f64(upstream)
    });
    let weights = Array1::from_iter((0..HIDDEN).map(|i| [1.0, -0.5, 2.0, 0.75][i]));
    let (mut norm, weight) = with_weights(run, HIDDEN, EPS, weights)?;
    norm.clear_grad();
    let dx = call(&text::code("backward(x, grad_out)"), norm.backward(&x, &grad_out))?;
    // dx is about r · g ⊙ w ≈ 1/400: an absolute tolerance would hide it.
    unless_frozen(compare_gradients(run, &norm, &weight, (&x, &grad_out), &dx, EPS, (1e-7, 2e-2)))?;
    rounded_once(&x, &grad_out, &weight.value, EPS, &dx, ALLOWED_SHARE)?;
    summed_in_fp32(&norm, &x, &grad_out, &weight.value, EPS)
}

/// The weight's gradient against the f64 oracle at FP32's precision: a hundred FP32 additions
/// are off by about 1e-6 relative; a sum kept in a half type loses whole terms (3% here).
fn summed_in_fp32<T: Element>(
    norm: &RMSNorm,
    x: &ArrayD<T>,
    grad_out: &ArrayD<T>,
    weight: &Array1<f32>,
    eps: f32,
) -> Outcome {
    let Some(dw) = norm.weight().grad else {
        return Ok(());
    };
    let w: Vec<f64> = weight.iter().map(|&v| f64::from(v)).collect();
    let (_, expected) = oracle::backward(&x.mapv(T::to_f64), &grad_out.mapv(T::to_f64), &w, f64::from(eps));
    let expected = ArrayD::from_shape_vec(vec![w.len()], expected).expect("one value per feature");
    assert_close(&text::code("weight.grad"), "float32", &dw.into_dyn().mapv(f64::from), &expected, 1e-4, 1e-4)
}

/// dx against the f64 oracle rounded once to `T`: at most `allowed` of the values one ulp off.
fn rounded_once<T: Element>(
    x: &ArrayD<T>,
    grad_out: &ArrayD<T>,
    weight: &Array1<f32>,
    eps: f32,
    dx: &ArrayD<T>,
    allowed: f64,
) -> Outcome {
    let w: Vec<f64> = weight.iter().map(|&v| f64::from(v)).collect();
    let (exact, _) = oracle::backward(&x.mapv(T::to_f64), &grad_out.mapv(T::to_f64), &w, f64::from(eps));
    let expected = exact.mapv(T::from_f64);
    super::shape::same_as_input("backward(x, grad_out)", dx.shape(), x.shape())?;
    // Where h − n · mean(h ⊙ n) cancels, dx is far smaller than its row and FP32's own rounding
    // of the row's terms (a few 1e-8 of the row's largest value) is several ulp of it: such values
    // count against the share, not the ulp bound.
    let last = Axis(exact.ndim() - 1);
    let mut row_scale = exact.clone();
    for mut row in row_scale.lanes_mut(last) {
        let largest = row.iter().fold(0.0f64, |m, v| m.max(v.abs()));
        row.fill(largest);
    }
    let spacing = Spacing::of::<T>();
    let ulps = |a: T, e: T| (a.to_f64() - e.to_f64()).abs() / spacing.at(e.to_f64());
    let off = dx.iter().zip(expected.iter()).filter(|(a, e)| a.to_f64().to_bits() != e.to_f64().to_bits()).count();
    let worst = dx
        .iter()
        .zip(expected.iter())
        .zip(row_scale.iter())
        .filter(|((a, e), &scale)| (a.to_f64() - e.to_f64()).abs() > 1e-6 * scale || a.to_f64().is_nan())
        .map(|((&a, &e), _)| ulps(a, e))
        .fold(0.0, f64::max);
    if worst <= 1.0 && off as f64 <= allowed * dx.len() as f64 {
        return Ok(());
    }
    let message = text::dx_rounded_more_than_once(T::NAME, off, dx.len(), worst.round() as i64);
    Err(Failure::new(message))
}

fn f16_backward_large(run: &Run) -> Outcome {
    half_backward_large::<f16>(run, 47)
}

fn bf16_backward_large(run: &Run) -> Outcome {
    half_backward_large::<bf16>(run, 48)
}

/// A derived gradient, computed in FP32 as the contract asks, is off the f64 oracle by a few
/// FP32 roundings: about 1e-7 of each row's largest value. Central differences of a forward that
/// is itself FP32-precise cannot get under about 1e-5 (step² against rounding / step), and no
/// fixed step works for rows a hundred times larger and a hundred times smaller than 1.
fn f64_backward_derived(run: &Run) -> Outcome {
    f64_backward_per_row(run, 16, &[1e-2, 1.0, 1e2, 3e-2, 30.0, 0.5], 49, 4e-6)
}

/// A finite-difference "backward" runs the forward twice per feature, about D² operations a row:
/// at D = 32768 that is about 2·10⁹, a minute or more of unoptimised code, far past the time
/// limit (an independent cheat ran out of a raised 120 s limit at that cost: 4 rows of 16384);
/// the derived gradient takes milliseconds (the row costs a correct check about 25 ms).
fn f64_backward_long_rows(run: &Run) -> Outcome {
    // FP32 sums over 32768 terms drift by more than a short row's 4e-6: this case is about cost.
    f64_backward_per_row(run, 32_768, &[3.0], 51, 1e-4)
}

/// f64 backward on rows at `scales`, each row compared with the f64 oracle in units of its own
/// largest reference value, within `row_tolerance` (what a derived gradient computed in FP32
/// reaches on rows that long).
fn f64_backward_per_row(run: &Run, hidden: usize, scales: &[f64], salt: u64, row_tolerance: f64) -> Outcome {
    const EPS: f32 = 1e-12;
    let (mut norm, weight) = weighted(run, hidden, EPS, salt, None)?;
    norm.clear_grad();
    let mut rng = run.rng(salt + 1);
    let mut x: ArrayD<f64> = rng.normal_array(&[scales.len(), hidden]);
    for (mut row, &scale) in x.axis_iter_mut(Axis(0)).zip(scales) {
        row *= scale;
    }
    let grad_out: ArrayD<f64> = rng.normal_array(&[scales.len(), hidden]);
    let dx = call(&text::code("backward(x, grad_out)"), norm.backward(&x, &grad_out))?;
    super::shape::same_as_input("backward(x, grad_out)", dx.shape(), x.shape())?;
    let w: Vec<f64> = weight.value.iter().map(|&v| f64::from(v)).collect();
    let (expected, _) = oracle::backward(&x, &grad_out, &w, f64::from(EPS));
    // Each row in units of its own largest reference value.
    let mut scaled_actual = dx.clone();
    let mut scaled_expected = expected.clone();
    for (mut a, mut e) in scaled_actual.axis_iter_mut(Axis(0)).zip(scaled_expected.axis_iter_mut(Axis(0))) {
        let largest = e.iter().fold(0.0f64, |m, v| m.max(v.abs())).max(f64::MIN_POSITIVE);
        a /= largest;
        e /= largest;
    }
    assert_close(&text::dx_per_row_scale(), "float64", &scaled_actual, &scaled_expected, row_tolerance, 0.0)
}
