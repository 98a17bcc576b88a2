//! Exercise 04's cases (TODO 4): dx and the weight's gradient against the f64 oracle on ordinary
//! and edge inputs, the gradient of the learner's own forward; the precision cases and the
//! model's width in the modules below.

mod precision;
mod weight_rounding;
pub mod width;

use half::f16;
use ndarray::{Array1, ArrayD, IxDyn};
use tutor_kit::{Element, Param};

use super::{assert_close, call, cases, edge_inputs, grading, weighted, Case, Failure, Outcome, Run};
use crate::evidence::Observation;
use crate::mistakes::{backward_fit, backward_formulas};
use crate::subject::RMSNorm;
use crate::{oracle, text};
use tutor_grade::data::tensor;

/// Exercise 04's cases: the gradients on ordinary and edge inputs, then the precision cases and
/// the model's width.
pub fn cases() -> Vec<Case> {
    let mut cases = grading(
        &[4],
        cases! { super::DTYPE_GRADIENT;
            "backward-edge-inputs",
                "backward 处理同样的边界输入（以及 eps = 0 时的全零行：NaN），dx 与 weight 梯度与 f64 参考一致；最后一维不对、或 grad_out 与 x 形状不同时返回 Err",
                "backward on the same edge inputs (and a zero row at eps = 0: NaN): dx and the weight gradient match an f64 reference; a wrong last axis, or a grad_out not of x's shape, is an Err" => backward_edge_inputs;
            "backward-matches-f64",
                "backward 的 dx 与 weight 梯度与 f64 参考一致",
                "backward's dx and weight gradient match an f64 reference" => backward_matches_f64;
            "f16-backward",
                "f16 输入的 backward：dx 同形且数值正确",
                "backward on f16 input: dx has x's shape and the right values" => f16_backward;
            "forward-gradient-check",
                "对你的 forward::<f64> 做中心差分，与 backward 一致",
                "central differences of your forward::<f64> agree with backward" => forward_gradient_check;
        },
    );
    cases.extend(grading(&[4], precision::cases()));
    // Last: a run whose time runs out here ends no other case.
    cases.extend(grading(&[4], width::cases()));
    cases
}

/// The eps of the backward edge cases: far from the default, so that it matters on the tiny row.
const EDGE_EPS: f32 = 1e-12;

fn backward_edge_inputs(run: &Run) -> Outcome {
    for (i, x) in edge_inputs(run).into_iter().enumerate() {
        let grad_out: ArrayD<f32> = run.rng(19 + i as u64).normal_array(x.shape());
        // Not the default eps: a backward with its own constant differs on the tiny row.
        let (mut norm, weight) = weighted(run, 4, EDGE_EPS, 18, None)?;
        norm.clear_grad();
        let dx = call(&text::code("backward(x, grad_out)"), norm.backward(&x, &grad_out))?;
        compare_gradients(run, &norm, &weight, (&x, &grad_out), &dx, EDGE_EPS, (1e-5, 1e-4))?;
    }
    // A zero row at eps = 0: r = 1/0 and n = 0 · ∞, so its dx and the weight's gradient are NaN,
    // as PyTorch's are. A guard that returns 0 there passes every case with eps > 0.
    let x = tensor(&[3, 4], &[0.5, -1.5, 2.0, 0.25, 0.0, 0.0, 0.0, 0.0, 3.0, 1.0, -2.0, 0.5]);
    let grad_out: ArrayD<f32> = run.rng(25).normal_array(x.shape());
    let (mut norm, weight) = weighted(run, 4, 0.0, 18, None)?;
    norm.clear_grad();
    let dx = call(&text::code("backward(x, grad_out)"), norm.backward(&x, &grad_out))?;
    compare_gradients(run, &norm, &weight, (&x, &grad_out), &dx, 0.0, (1e-5, 1e-4))?;
    let (mut norm, _) = weighted(run, 4, 1e-6, 18, None)?;
    let wrong_width = ArrayD::<f32>::zeros(IxDyn(&[2, 5]));
    if norm.backward(&wrong_width, &wrong_width).is_ok() {
        return Err(Failure::new(text::expected_error(&text::call_on_wrong_width(
            "backward(x, grad_out)",
            &[2, 5],
            4,
        ))));
    }
    // A grad_out of another shape: as many values in another order (rows zipped with rows pair
    // them silently), and another number of rows.
    for (x_shape, grad_shape) in [([2usize, 3, 4], [3usize, 2, 4]), ([3, 1, 4], [2, 1, 4])] {
        let x: ArrayD<f32> = run.rng(20).normal_array(&x_shape);
        let grad_out: ArrayD<f32> = run.rng(21).normal_array(&grad_shape);
        if norm.backward(&x, &grad_out).is_ok() {
            let what = text::backward_on_other_grad_shape(&x_shape, &grad_shape);
            return Err(Failure::new(text::expected_error(&what)).with_mistake(Some("grad-shape-unchecked")));
        }
    }
    Ok(())
}

/// dx and the weight's gradient (accumulated from a cleared state) against the f64 oracle.
pub(super) fn compare_gradients<T: Element>(
    run: &Run,
    norm: &RMSNorm,
    weight: &Param,
    (x, grad_out): (&ArrayD<T>, &ArrayD<T>),
    dx: &ArrayD<T>,
    eps: f32,
    (atol, rtol): (f64, f64),
) -> Outcome {
    let w: Vec<f64> = weight.value.iter().map(|&v| f64::from(v)).collect();
    let (x64, g64) = (x.mapv(T::to_f64), grad_out.mapv(T::to_f64));
    let (dx_expected, dw_expected) = oracle::backward(&x64, &g64, &w, f64::from(eps));
    super::shape::same_as_input("backward(x, grad_out)", dx.shape(), x.shape())?;
    let dx = dx.mapv(T::to_f64);
    let after = norm.weight();
    let dw_expected = ArrayD::from_shape_vec(vec![w.len()], dw_expected).expect("one value per feature");
    // What the gradients say about known backward mistakes: dx and dweight observed apart.
    let case = run.case();
    let (dx_seen, dx_right, dw_right, x_t) = (dx.clone(), dx_expected.clone(), dw_expected.clone(), x.clone());
    let dw_seen = after.grad.as_ref().map(|dw| dw.clone().into_dyn().mapv(f64::from));
    run.observe(move || {
        // What the numbers themselves say, fitted to the case's precision, and formulas.
        let eps64 = f64::from(eps);
        let mut dx_candidates = backward_fit::dx_candidates(&x64, &g64, &w, eps64, &dx_seen, rtol / 10.0);
        dx_candidates.extend(backward_formulas::r_candidates(&x64, &g64, &w, eps64));
        dx_candidates.extend(backward_formulas::statistics_in(&x_t, &g64, &w, eps64));
        // Each formula as a program in T returns it: rounded to T (past f16's range, infinite).
        let dx_candidates = dx_candidates.into_iter().map(|c| c.map(|v| T::from_f64(v).to_f64())).collect();
        let dw_candidates = backward_formulas::dweight_candidates(&x64, &g64, &w, eps64);
        let mut observed = vec![Observation::by_tolerance(case, &dx_seen, &dx_right, dx_candidates, atol, rtol)];
        if let Some(dw) = dw_seen {
            observed.push(Observation::by_tolerance(case, &dw, &dw_right, dw_candidates, atol, rtol));
        }
        observed
    });
    assert_close(&text::code("dx"), T::NAME, &dx, &dx_expected, atol, rtol)?;
    let Some(dw) = after.grad.clone() else {
        // An empty batch accumulates too: zeros, a sum over no rows.
        let failure = no_gradient(&after);
        let skipped = x.is_empty() && after.requires_grad;
        return Err(if skipped { failure.with_mistake(Some("empty-batch-no-gradient")) } else { failure });
    };
    assert_close(&text::code("weight.grad"), "float32", &dw.into_dyn().mapv(f64::from), &dw_expected, atol, rtol)
}

/// Runs the learner's backward on seeded data and compares with the f64 oracle.
fn backward_matches_oracle<T: Element>(run: &Run, shape: &[usize], salt: u64, tolerance: (f64, f64)) -> Outcome {
    let hidden = *shape.last().expect("test shapes have a last axis");
    let (mut norm, weight) = weighted(run, hidden, BACKWARD_EPS, salt, None)?;
    norm.clear_grad();
    let mut rng = run.rng(salt + 200);
    let x: ArrayD<T> = rng.normal_array(shape);
    let grad_out: ArrayD<T> = rng.normal_array(shape);
    let dx = call(&text::code("backward(x, grad_out)"), norm.backward(&x, &grad_out))?;
    compare_gradients(run, &norm, &weight, (&x, &grad_out), &dx, BACKWARD_EPS, tolerance)
}

/// The eps of the seeded backward cases: large beside mean(x²) ≈ 1, so that it moves every value.
const BACKWARD_EPS: f32 = 0.1;

fn backward_matches_f64(run: &Run) -> Outcome {
    backward_matches_oracle::<f32>(run, &[3, 5], 21, (1e-5, 1e-4))
}

fn f16_backward(run: &Run) -> Outcome {
    backward_matches_oracle::<f16>(run, &[2, 3, 4], 22, (1e-3, 1e-2))
}

/// Central differences of the learner's own `forward::<f64>` against `backward`: the gradient
/// graded is the gradient of the function the learner wrote, weight included.
fn forward_gradient_check(run: &Run) -> Outcome {
    const H: f64 = 3e-3;
    const ATOL: f64 = 2e-3;
    const RTOL: f64 = 1e-2;
    let shape = [2, 4];
    // Not the default eps either (a backward with its own constant is the f64 and edge cases'
    // finding): 1e-5 keeps this case about the gradient of the learner's own forward.
    let (mut norm, weight) = weighted(run, 4, 1e-5, 31, None)?;
    norm.clear_grad();
    let mut rng = run.rng(231);
    let x: ArrayD<f64> = rng.normal_array(&shape);
    let grad_out: ArrayD<f64> = rng.normal_array(&shape);
    let loss = |norm: &RMSNorm, x: &ArrayD<f64>| -> Result<f64, Failure> {
        let y = call(&text::code("forward(x)"), norm.forward(x))?;
        super::shape::same_as_input("forward(x)", y.shape(), x.shape())?;
        Ok((y * &grad_out).sum())
    };

    let mut dx_numeric = ArrayD::zeros(x.raw_dim());
    for (i, slot) in dx_numeric.iter_mut().enumerate() {
        let mut plus = x.clone();
        let mut minus = x.clone();
        plus.as_slice_mut().expect("standard layout")[i] += H;
        minus.as_slice_mut().expect("standard layout")[i] -= H;
        *slot = (loss(&norm, &plus)? - loss(&norm, &minus)?) / (2.0 * H);
    }
    let mut dw_numeric = ArrayD::zeros(vec![4]);
    for (j, slot) in dw_numeric.iter_mut().enumerate() {
        let original = weight.value[j];
        // The weight is FP32: divide by the step actually taken, not the one asked for.
        let (w_up, w_down) = (original + H as f32, original - H as f32);
        let mut changed: Array1<f32> = weight.value.clone();
        changed[j] = w_up;
        norm.set_weight(changed.clone());
        let up = loss(&norm, &x)?;
        changed[j] = w_down;
        norm.set_weight(changed);
        let down = loss(&norm, &x)?;
        norm.set_weight(weight.value.clone());
        *slot = (up - down) / f64::from(w_up - w_down);
    }

    let dx = call(&text::code("backward(x, grad_out)"), norm.backward(&x, &grad_out))?;
    super::shape::same_as_input("backward(x, grad_out)", dx.shape(), x.shape())?;
    assert_close(&text::against_central_differences("dx"), "float64", &dx, &dx_numeric, ATOL, RTOL)?;
    let after = norm.weight();
    let Some(dw) = after.grad.clone() else {
        return Err(no_gradient(&after));
    };
    assert_close(
        &text::against_central_differences("weight.grad"),
        "float64",
        &dw.into_dyn().mapv(f64::from),
        &dw_numeric,
        ATOL,
        RTOL,
    )
}

/// No gradient reached the weight: frozen, or dropped by the code.
pub(super) fn no_gradient(weight: &Param) -> Failure {
    if weight.requires_grad {
        Failure::new(text::no_weight_gradient())
    } else {
        super::weight::frozen()
    }
}
