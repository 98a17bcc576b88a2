//! Backward at a model's width: one row of 8192 features (LLaMA 2 70B's and LLaMA 3 70B's hidden
//! size), the call given one second. A derived backward makes a few passes over the row, as
//! PyTorch's does, and takes milliseconds, even unoptimised. Differentiating element by element
//! (central differences, or the complex step or dual numbers, which are exact to f64's rounding
//! and so get past the 1e-12 of `f64-backward-derived`) runs the forward once per feature:
//! D² ≈ 6.7·10⁷ steps, several seconds. The limit is per call, so the cases after it still run; last all the
//! same, so that a run whose own time is up ends no other case.

use std::panic::{catch_unwind, resume_unwind, AssertUnwindSafe};
use std::time::Duration;

use ndarray::ArrayD;
use tutor_grade::Fault;
use tutor_kit::Float;

use crate::cases::{assert_close, call, cases, Case, Failure, Outcome, Run};
use crate::Build;
use crate::{oracle, text};

pub fn cases() -> Vec<Case> {
    cases! { crate::cases::DTYPE_GRADIENT;
        "backward-at-model-width",
            "模型宽度下的 backward（一行 8192 个特征，f32）：对这一行只扫几遍，1 秒内完成",
            "backward at a model's width (one row of 8192 features, f32): a few passes over the row, within 1 s" => at_model_width;
    }
}

/// Features in the row.
pub const WIDTH: usize = 1 << 13;

/// How long the backward may take: hundreds of times what a derived one needs (about 4 ms
/// unoptimised), a third or less of what element-by-element differentiation needs (dual numbers
/// about 4 s, the complex step more, central differences of forward far more, measured on the
/// 2-core machines this project is built on).
pub const CALL_LIMIT: Duration = Duration::from_secs(1);

/// The f16 backward tolerance: the values are not the point here (other cases hold them to their
/// dtype's precision), only that they are the gradient and not a shortcut taken on wide rows. A
/// sum over 8192 terms in FP32 is well within it.
const LOOSE: (f64, f64) = (1e-3, 1e-2);

fn at_model_width(run: &Run) -> Outcome {
    const EPS: f32 = 1e-5;
    const SALT: u64 = 1200;
    // Uniform inputs and the fresh layer's own weight: the values are the other cases' business,
    // and this case should cost a right answer as little as it can.
    let mut rng = run.rng(SALT);
    let x: ArrayD<f32> = ArrayD::from_shape_fn(vec![1, WIDTH], |_| rng.uniform() as f32 * 4.0 - 2.0);
    let grad_out: ArrayD<f32> = ArrayD::from_shape_fn(vec![1, WIDTH], |_| rng.uniform() as f32 * 2.0 - 1.0);
    let mut norm = run.build(WIDTH, EPS)?;
    let weight: Vec<f64> = norm.weight().value.iter().map(|&v| f64::from(v)).collect();
    run.channel.limit_calls(Some(CALL_LIMIT));
    let answered = catch_unwind(AssertUnwindSafe(|| norm.backward(&x, &grad_out)));
    run.channel.limit_calls(None);
    let dx = match answered {
        Ok(result) => call(&text::code("backward(x, grad_out)"), result)?,
        Err(payload) => match payload.downcast_ref::<Fault>() {
            Some(Fault::TimedOut { during_this_case: true, limit_secs }) => {
                // A wrong formula can be slow too (a row's sum taken again for every element):
                // the cost is named only when nothing names the formula.
                run.name_if_nothing_else("backward-quadratic-in-width");
                return Err(Failure::new(text::too_slow_at_width(WIDTH, *limit_secs)));
            }
            _ => resume_unwind(payload),
        },
    };
    // dx alone, against the layer's own weight, compared directly, with nothing observed for
    // naming: the weight's gradient and what the numbers say are the other cases' to check and
    // name, and so is a weight that is not one value per feature.
    if weight.len() != WIDTH {
        return Ok(());
    }
    let (dx_expected, _) = oracle::backward(&x.mapv(f64::from), &grad_out.mapv(f64::from), &weight, f64::from(EPS));
    let (atol, rtol) = LOOSE;
    assert_close(&text::code("backward(x, grad_out)"), f32::NAME, &dx.mapv(f64::from), &dx_expected, atol, rtol)
}
