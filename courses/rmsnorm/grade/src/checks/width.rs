//! Backward at a model's width: one row of 65536 features, the last case of all. A derived
//! backward makes a few passes over the row, as PyTorch's does, and takes milliseconds.
//! Differentiating element by element (central differences, or the complex step, which is exact
//! to f64's rounding and so gets past the 1e-12 of `f64-backward-derived`) runs the forward once
//! per feature, and building the D×D Jacobian holds D² values: either costs D² = 4·10⁹ here, and
//! does not finish within the check's time (or its memory). Last, because a run whose time is up
//! ends every case after it.

use std::panic::{catch_unwind, resume_unwind, AssertUnwindSafe};

use ndarray::ArrayD;
use tutor_grade::Fault;

use super::dtype::weighted;
use super::{assert_close, call, cases, Case, Failure, Outcome, Run};
use crate::{oracle, text};
use tutor_kit::Float;

pub fn cases() -> Vec<Case> {
    cases! { super::DTYPE_GRADIENT;
        "backward-at-model-width",
            "模型宽度下的 backward（一行 65536 个特征，f32）：对这一行只扫几遍，在时限内完成",
            "backward at a model's width (one row of 65536 features, f32): a few passes over the row, done in time" => at_model_width;
    }
}

/// Features in the row: a large model's hidden size is 4096 to 16384; this is past them so that
/// D² work (4·10⁹ steps) is out of reach of any time limit a check is given, while a derived
/// backward stays a matter of milliseconds even unoptimised.
const WIDTH: usize = 1 << 16;

/// The f16 backward tolerance: the values are not the point here (other cases hold them to their
/// dtype's precision), only that they are the gradient and not a shortcut taken on wide rows. A
/// sum over 65536 terms in FP32 is well within it.
const LOOSE: (f64, f64) = (1e-3, 1e-2);

fn at_model_width(run: &Run) -> Outcome {
    const EPS: f32 = 1e-5;
    const SALT: u64 = 1200;
    let outcome = catch_unwind(AssertUnwindSafe(|| -> Outcome {
        let (mut norm, weight) = weighted(run, WIDTH, EPS, SALT, None)?;
        norm.clear_grad();
        let mut rng = run.rng(SALT + 1);
        let x: ArrayD<f32> = rng.normal_array(&[1, WIDTH]);
        let grad_out: ArrayD<f32> = rng.normal_array(&[1, WIDTH]);
        let dx = call(&text::code("backward(x, grad_out)"), norm.backward(&x, &grad_out))?;
        // Compared directly, with nothing observed for naming: the other cases name what the
        // numbers say, and fitting mistakes to 65536 values would cost a failing check time.
        let w: Vec<f64> = weight.value.iter().map(|&v| f64::from(v)).collect();
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
    }));
    match outcome {
        Ok(outcome) => outcome,
        Err(payload) => match payload.downcast_ref::<Fault>() {
            Some(Fault::TimedOut { during_this_case: true, limit_secs }) => {
                Err(Failure::new(text::too_slow_at_width(WIDTH, *limit_secs))
                    .with_mistake(Some("backward-quadratic-in-width")))
            }
            _ => resume_unwind(payload),
        },
    }
}
