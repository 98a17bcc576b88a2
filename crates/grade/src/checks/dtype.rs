//! Dtype / gradient contract: scale by the weight, restore the input dtype, and gradients that
//! belong to the function being graded (TODO 3).

use half::{bf16, f16};
use ndarray::ArrayD;

use super::{assert_close, call, Case, Failure, Outcome, Run};
use crate::report::Contract;
use crate::{mistakes, oracle, text};
use tutor_kit::{reference, Element, Layer, Param};

pub fn cases() -> Vec<Case> {
    let case = |id, run| Case { contract: Contract::DtypeGradient, id, run };
    vec![
        case("f32-weighted-forward", f32_weighted_forward),
        case("f16-forward", f16_forward),
        case("bf16-forward", bf16_forward),
        case("f16-rounds-once", f16_rounds_once),
        case("backward-matches-f64", backward_matches_f64),
        case("f16-backward", f16_backward),
        case("forward-gradient-check", forward_gradient_check),
    ]
}

/// Builds a subject with non-unit weights, so that a forgotten or scalar weight shows.
/// Returns the layer and the weight it now holds.
fn weighted<'a>(run: &'a Run, hidden: usize, eps: f32, salt: u64) -> Result<(Box<dyn Layer + 'a>, Param), Failure> {
    let mut norm = run.build(hidden, eps)?;
    norm.set_weight(run.rng(salt).weights(hidden));
    let weight = norm.weight();
    Ok((norm, weight))
}

/// The learner's forward on seeded input of `shape`, against the explicit FP32 reference
/// rounded once to `T`.
fn forward_matches_reference<T: Element>(run: &Run, shape: &[usize], seed: u64, atol: f64, rtol: f64) -> Outcome {
    let hidden = *shape.last().expect("test shapes have a last axis");
    let (norm, weight) = weighted(run, hidden, 1e-6, seed)?;
    let x: ArrayD<T> = run.rng(seed + 100).normal_array(shape);
    let actual = call("forward(x)", norm.forward(&x))?.mapv(T::to_f64);
    let expected = reference::forward(&x, 1e-6, &weight).expect("test inputs are valid").mapv(T::to_f64);
    assert_close("forward(x)", T::NAME, &actual, &expected, atol, rtol).map_err(|failure| {
        let candidates = mistakes::wrong_forwards(&x, 1e-6, &weight);
        failure.with_mistake(mistakes::identify(&actual, &expected, candidates, atol, rtol))
    })
}

fn f32_weighted_forward(run: &Run) -> Outcome {
    forward_matches_reference::<f32>(run, &[2, 3, 4], 11, 1e-6, 1e-5)
}

fn f16_forward(run: &Run) -> Outcome {
    forward_matches_reference::<f16>(run, &[2, 3, 4], 12, 1e-4, 1e-3)
}

fn bf16_forward(run: &Run) -> Outcome {
    // One bf16 rounding alone moves a value by up to 2^-8 ≈ 3.9e-3 relative.
    forward_matches_reference::<bf16>(run, &[2, 3, 4], 13, 1e-5, 1.6e-2)
}

/// One rounding from FP32 to f16 at the very end lands on the correctly rounded value almost
/// everywhere (a different summation order moves the FP32 value by an ulp or two, which crosses
/// an f16 rounding boundary about once in two thousand values). Rounding the normalised value
/// first and multiplying in f16 misses on a large share of the elements.
fn f16_rounds_once(run: &Run) -> Outcome {
    const SHAPE: [usize; 2] = [64, 64];
    const ALLOWED_SHARE: f64 = 0.01;
    let (norm, weight) = weighted(run, SHAPE[1], 1e-6, 14)?;
    let x: ArrayD<f16> = run.rng(114).normal_array(&SHAPE);
    let actual = call("forward(x)", norm.forward(&x))?;
    let expected = reference::forward(&x, 1e-6, &weight).expect("test inputs are valid");
    let Err(mut failure) =
        assert_close("forward(x)", "float16", &actual.mapv(f16::to_f64), &expected.mapv(f16::to_f64), 0.0, 0.0)
    else {
        return Ok(());
    };
    let ulps = |a: f16, b: f16| (i32::from(a.to_bits() as i16) - i32::from(b.to_bits() as i16)).abs();
    let worst_ulps = actual.iter().zip(expected.iter()).map(|(&a, &e)| ulps(a, e)).max().unwrap_or(0);
    let (mismatched, total) = failure.mismatch.as_ref().map_or((0, 0), |m| (m.mismatched, m.total));
    if worst_ulps <= 1 && (mismatched as f64) <= ALLOWED_SHARE * total as f64 {
        return Ok(());
    }
    failure.message = text::rounded_more_than_once(mismatched, total, worst_ulps);
    // Rounding twice is this case's mistake when the output is the twice-rounded one almost
    // everywhere (exact comparison: a tolerance would blur it into the right answer).
    let twice =
        mistakes::wrong_forwards(&x, 1e-6, &weight).into_iter().find(|(id, _)| *id == "double-rounding");
    if let Some((id, twice)) = twice {
        let same = actual.iter().zip(twice.iter()).filter(|(a, b)| a.to_bits() == b.to_bits()).count();
        if same as f64 >= (1.0 - ALLOWED_SHARE) * total as f64 {
            failure.mistake = Some(id.to_string());
        }
    }
    Err(failure)
}

/// Runs the learner's backward and compares dx and the weight gradient with the f64 oracle.
fn backward_matches_oracle<T: Element>(run: &Run, shape: &[usize], seed: u64, atol: f64, rtol: f64) -> Outcome {
    let hidden = *shape.last().expect("test shapes have a last axis");
    let (mut norm, weight) = weighted(run, hidden, 1e-5, seed)?;
    norm.clear_grad();
    let mut rng = run.rng(seed + 200);
    let x: ArrayD<T> = rng.normal_array(shape);
    let grad_out: ArrayD<T> = rng.normal_array(shape);
    let dx = call("backward(x, grad_out)", norm.backward(&x, &grad_out))?;
    let weight: Vec<f64> = weight.value.iter().map(|&w| f64::from(w)).collect();
    let (dx_expected, dw_expected) = oracle::backward(&x.mapv(T::to_f64), &grad_out.mapv(T::to_f64), &weight, 1e-5);
    assert_close("dx", T::NAME, &dx.mapv(T::to_f64), &dx_expected, atol, rtol)?;
    let after = norm.weight();
    let Some(dw) = after.grad.clone() else {
        return Err(no_gradient(&after));
    };
    let dw_expected = ArrayD::from_shape_vec(vec![hidden], dw_expected).expect("one value per feature");
    assert_close("weight.grad", "float32", &dw.into_dyn().mapv(f64::from), &dw_expected, atol, rtol)
}

fn backward_matches_f64(run: &Run) -> Outcome {
    backward_matches_oracle::<f32>(run, &[3, 5], 21, 1e-5, 1e-4)
}

fn f16_backward(run: &Run) -> Outcome {
    backward_matches_oracle::<f16>(run, &[2, 3, 4], 22, 1e-3, 1e-2)
}

/// Central differences of the learner's own `forward::<f64>` against `backward`: the gradient
/// graded is the gradient of the function the learner wrote, weight included.
fn forward_gradient_check(run: &Run) -> Outcome {
    const H: f64 = 3e-3;
    const ATOL: f64 = 2e-3;
    const RTOL: f64 = 1e-2;
    let shape = [2, 4];
    let (mut norm, weight) = weighted(run, 4, 1e-5, 31)?;
    norm.clear_grad();
    let mut rng = run.rng(231);
    let x: ArrayD<f64> = rng.normal_array(&shape);
    let grad_out: ArrayD<f64> = rng.normal_array(&shape);
    let loss = |norm: &dyn Layer, x: &ArrayD<f64>| -> Result<f64, Failure> {
        Ok((call("forward(x)", norm.forward(x))? * &grad_out).sum())
    };

    let mut dx_numeric = ArrayD::zeros(x.raw_dim());
    for (i, slot) in dx_numeric.iter_mut().enumerate() {
        let mut plus = x.clone();
        let mut minus = x.clone();
        plus.as_slice_mut().expect("standard layout")[i] += H;
        minus.as_slice_mut().expect("standard layout")[i] -= H;
        *slot = (loss(&*norm, &plus)? - loss(&*norm, &minus)?) / (2.0 * H);
    }
    let mut dw_numeric = ArrayD::zeros(vec![4]);
    for (j, slot) in dw_numeric.iter_mut().enumerate() {
        let original = weight.value[j];
        // The weight is FP32: divide by the step actually taken, not the one asked for.
        let (w_up, w_down) = (original + H as f32, original - H as f32);
        let mut changed = weight.value.clone();
        changed[j] = w_up;
        norm.set_weight(changed.clone());
        let up = loss(&*norm, &x)?;
        changed[j] = w_down;
        norm.set_weight(changed);
        let down = loss(&*norm, &x)?;
        norm.set_weight(weight.value.clone());
        *slot = (up - down) / f64::from(w_up - w_down);
    }

    // When the gradients disagree, the forward itself is usually the culprit: name its mistake.
    let forward_mistake = |norm: &dyn Layer| {
        let actual = norm.forward(&x).ok()?;
        let expected = reference::forward(&x, 1e-5, &weight).ok()?;
        let candidates = mistakes::wrong_forwards(&x, 1e-5, &weight);
        mistakes::identify(&actual, &expected, candidates, 1e-6, 1e-5)
    };
    let mistake = forward_mistake(&*norm);
    let dx = call("backward(x, grad_out)", norm.backward(&x, &grad_out))?;
    assert_close("dx (backward vs. central differences of forward)", "float64", &dx, &dx_numeric, ATOL, RTOL)
        .map_err(|f| f.with_mistake(mistake))?;
    let after = norm.weight();
    let Some(dw) = after.grad.clone() else {
        return Err(no_gradient(&after));
    };
    assert_close(
        "weight.grad (backward vs. central differences of forward)",
        "float64",
        &dw.into_dyn().mapv(f64::from),
        &dw_numeric,
        ATOL,
        RTOL,
    )
    .map_err(|f| f.with_mistake(mistake))
}

/// No gradient reached the weight: frozen, or dropped by the code.
fn no_gradient(weight: &Param) -> Failure {
    if weight.requires_grad {
        Failure::new(text::no_weight_gradient())
    } else {
        super::parameter::frozen()
    }
}
