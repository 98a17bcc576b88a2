//! Backward at a model's width: one row of 16384 features (LLaMA 3 405B's hidden size), each call
//! given two seconds. A derived backward makes a few passes over the row, as PyTorch's does, and
//! takes milliseconds, even unoptimised. Differentiating element by element (central
//! differences, or the complex step or dual numbers, which are exact to f64's rounding and so get
//! past the 1e-12 of `f64-backward-derived`) runs the forward once per feature: D² ≈ 2.7·10⁸
//! steps, tens of seconds. The limit is per call, so the cases after it still run; last all the
//! same, so that a run whose own time is up ends no other case.

use std::panic::{catch_unwind, resume_unwind, AssertUnwindSafe};
use std::time::Duration;

use ndarray::{Array1, ArrayD};
use tutor_grade::Fault;
use tutor_kit::Float;

use super::{assert_close, call, cases, Build, Case, Failure, Outcome, Run};
use crate::{oracle, text};

pub fn cases() -> Vec<Case> {
    cases! { super::DTYPE_GRADIENT;
        "backward-at-model-width",
            "模型宽度下的 backward（一行 16384 个特征，f32）：对这一行只扫几遍，2 秒内完成",
            "backward at a model's width (one row of 16384 features, f32): a few passes over the row, within 2 s" => at_model_width;
    }
}

/// Features in the row.
pub const WIDTH: usize = 1 << 14;

/// How long the backward may take: hundreds of times what a derived one needs on a loaded
/// machine, a fraction of what element-by-element differentiation needs on a fast one.
pub const CALL_LIMIT: Duration = Duration::from_secs(2);

/// The f16 backward tolerance: the values are not the point here (other cases hold them to their
/// dtype's precision), only that they are the gradient and not a shortcut taken on wide rows. A
/// sum over 16384 terms in FP32 is well within it.
const LOOSE: (f64, f64) = (1e-3, 1e-2);

fn at_model_width(run: &Run) -> Outcome {
    const EPS: f32 = 1e-5;
    const SALT: u64 = 1200;
    let mut rng = run.rng(SALT);
    let weights: Array1<f32> = rng.weights(WIDTH);
    let x: ArrayD<f32> = rng.normal_array(&[1, WIDTH]);
    let grad_out: ArrayD<f32> = rng.normal_array(&[1, WIDTH]);
    let w: Vec<f64> = weights.iter().map(|&v| f64::from(v)).collect();
    let mut norm = run.build(WIDTH, EPS)?;
    norm.set_weight(weights);
    norm.clear_grad();
    run.channel.limit_calls(Some(CALL_LIMIT));
    let answered = catch_unwind(AssertUnwindSafe(|| norm.backward(&x, &grad_out)));
    run.channel.limit_calls(None);
    let dx = match answered {
        Ok(result) => call(&text::code("backward(x, grad_out)"), result)?,
        Err(payload) => match payload.downcast_ref::<Fault>() {
            Some(Fault::TimedOut { during_this_case: true, limit_secs }) => {
                let failure = Failure::new(text::too_slow_at_width(WIDTH, *limit_secs));
                return Err(failure.with_mistake(Some("backward-quadratic-in-width")));
            }
            _ => resume_unwind(payload),
        },
    };
    // Compared directly, with nothing observed for naming: the other cases name what the numbers
    // say.
    let (dx_expected, dw_expected) =
        oracle::backward(&x.mapv(f64::from), &grad_out.mapv(f64::from), &w, f64::from(EPS));
    let (atol, rtol) = LOOSE;
    assert_close(&text::code("backward(x, grad_out)"), f32::NAME, &dx.mapv(f64::from), &dx_expected, atol, rtol)?;
    // A weight left without a gradient is the parameter cases' finding.
    match norm.weight().grad {
        Some(dw) => {
            let dw_expected = ArrayD::from_shape_vec(vec![WIDTH], dw_expected).expect("one value per feature");
            assert_close(
                &text::code("weight.grad"),
                f32::NAME,
                &dw.into_dyn().mapv(f64::from),
                &dw_expected,
                atol,
                rtol,
            )
        }
        None => Ok(()),
    }
}
