//! Dtype / gradient contract: scale by the weight, restore the input dtype, and gradients that
//! belong to the function being graded (TODO 3).

use half::{bf16, f16};
use ndarray::ArrayD;

use super::data::Rng;
use super::{assert_close, build, call, Build, Case, Element, Failure, Layer, Outcome};
use crate::report::Contract;
use crate::{mistakes, oracle, reference, text};

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
fn weighted(subject: Build, hidden: usize, eps: f32, seed: u64) -> Result<Box<dyn Layer>, Failure> {
    let mut norm = build(subject, hidden, eps)?;
    norm.weight_mut().value = Rng::new(seed).weights(hidden);
    Ok(norm)
}

/// The learner's forward on seeded input of `shape`, against the explicit FP32 reference
/// rounded once to `T`.
fn forward_matches_reference<T: Element>(subject: Build, shape: &[usize], seed: u64, atol: f64, rtol: f64) -> Outcome {
    let hidden = *shape.last().expect("test shapes have a last axis");
    let norm = weighted(subject, hidden, 1e-6, seed)?;
    let x: ArrayD<T> = Rng::new(seed + 100).normal_array(shape);
    let actual = call("forward(x)", norm.forward(&x))?.mapv(T::to_f64);
    let expected = call("the reference forward with your weight", reference::forward(&x, norm.eps(), norm.weight()))?
        .mapv(T::to_f64);
    assert_close("forward(x)", T::NAME, &actual, &expected, atol, rtol).map_err(|failure| {
        let candidates = mistakes::wrong_forwards(&x, norm.eps(), norm.weight());
        failure.with_mistake(mistakes::identify(&actual, &expected, candidates, atol, rtol))
    })
}

fn f32_weighted_forward(subject: Build) -> Outcome {
    forward_matches_reference::<f32>(subject, &[2, 3, 4], 11, 1e-6, 1e-5)
}

fn f16_forward(subject: Build) -> Outcome {
    forward_matches_reference::<f16>(subject, &[2, 3, 4], 12, 1e-4, 1e-3)
}

fn bf16_forward(subject: Build) -> Outcome {
    // One bf16 rounding alone moves a value by up to 2^-8 ≈ 3.9e-3 relative.
    forward_matches_reference::<bf16>(subject, &[2, 3, 4], 13, 1e-5, 1.6e-2)
}

/// One rounding from FP32 to f16 at the very end lands on the correctly rounded value almost
/// everywhere (a different summation order moves the FP32 value by an ulp or two, which crosses
/// an f16 rounding boundary about once in two thousand values). Rounding the normalised value
/// first and multiplying in f16 misses on a large share of the elements.
fn f16_rounds_once(subject: Build) -> Outcome {
    const SHAPE: [usize; 2] = [64, 64];
    const ALLOWED_SHARE: f64 = 0.01;
    let norm = weighted(subject, SHAPE[1], 1e-6, 14)?;
    let x: ArrayD<f16> = Rng::new(114).normal_array(&SHAPE);
    let actual = call("forward(x)", norm.forward(&x))?;
    let expected = call("the reference forward with your weight", reference::forward(&x, norm.eps(), norm.weight()))?;
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
        mistakes::wrong_forwards(&x, norm.eps(), norm.weight()).into_iter().find(|(id, _)| *id == "double-rounding");
    if let Some((id, twice)) = twice {
        let same = actual.iter().zip(twice.iter()).filter(|(a, b)| a.to_bits() == b.to_bits()).count();
        if same as f64 >= (1.0 - ALLOWED_SHARE) * total as f64 {
            failure.mistake = Some(id.to_string());
        }
    }
    Err(failure)
}

/// Runs the learner's backward and compares dx and the weight gradient with the f64 oracle.
fn backward_matches_oracle<T: Element>(subject: Build, shape: &[usize], seed: u64, atol: f64, rtol: f64) -> Outcome {
    let hidden = *shape.last().expect("test shapes have a last axis");
    let mut norm = weighted(subject, hidden, 1e-5, seed)?;
    norm.weight_mut().clear_grad();
    let mut rng = Rng::new(seed + 200);
    let x: ArrayD<T> = rng.normal_array(shape);
    let grad_out: ArrayD<T> = rng.normal_array(shape);
    let dx = call("backward(x, grad_out)", norm.backward(&x, &grad_out))?;
    let weight: Vec<f64> = norm.weight().value.iter().map(|&w| f64::from(w)).collect();
    let (dx_expected, dw_expected) =
        oracle::backward(&x.mapv(T::to_f64), &grad_out.mapv(T::to_f64), &weight, f64::from(norm.eps()));
    assert_close("dx", T::NAME, &dx.mapv(T::to_f64), &dx_expected, atol, rtol)?;
    let Some(dw) = norm.weight().grad.clone() else {
        return Err(no_gradient(norm.weight()));
    };
    let dw_expected = ArrayD::from_shape_vec(vec![hidden], dw_expected).expect("one value per feature");
    assert_close("weight.grad", "float32", &dw.into_dyn().mapv(f64::from), &dw_expected, atol, rtol)
}

fn backward_matches_f64(subject: Build) -> Outcome {
    backward_matches_oracle::<f32>(subject, &[3, 5], 21, 1e-5, 1e-4)
}

fn f16_backward(subject: Build) -> Outcome {
    backward_matches_oracle::<f16>(subject, &[2, 3, 4], 22, 1e-3, 1e-2)
}

/// Central differences of the learner's own `forward::<f64>` against `backward`: the gradient
/// graded is the gradient of the function the learner wrote, weight included.
fn forward_gradient_check(subject: Build) -> Outcome {
    const H: f64 = 3e-3;
    const ATOL: f64 = 2e-3;
    const RTOL: f64 = 1e-2;
    let shape = [2, 4];
    let mut norm = weighted(subject, 4, 1e-5, 31)?;
    norm.weight_mut().clear_grad();
    let mut rng = Rng::new(231);
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
        let original = norm.weight().value[j];
        // The weight is FP32: divide by the step actually taken, not the one asked for.
        let (w_up, w_down) = (original + H as f32, original - H as f32);
        norm.weight_mut().value[j] = w_up;
        let up = loss(&*norm, &x)?;
        norm.weight_mut().value[j] = w_down;
        let down = loss(&*norm, &x)?;
        norm.weight_mut().value[j] = original;
        *slot = (up - down) / f64::from(w_up - w_down);
    }

    // When the gradients disagree, the forward itself is usually the culprit: name its mistake.
    let forward_mistake = |norm: &dyn Layer| {
        let actual = norm.forward(&x).ok()?;
        let expected = reference::forward(&x, norm.eps(), norm.weight()).ok()?;
        let candidates = mistakes::wrong_forwards(&x, norm.eps(), norm.weight());
        mistakes::identify(&actual, &expected, candidates, 1e-6, 1e-5)
    };
    let mistake = forward_mistake(&*norm);
    let dx = call("backward(x, grad_out)", norm.backward(&x, &grad_out))?;
    assert_close("dx (backward vs. central differences of forward)", "float64", &dx, &dx_numeric, ATOL, RTOL)
        .map_err(|f| f.with_mistake(mistake))?;
    let Some(dw) = norm.weight().grad.clone() else {
        return Err(no_gradient(norm.weight()));
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
fn no_gradient(weight: &crate::Param) -> Failure {
    if weight.requires_grad {
        Failure::new(text::no_weight_gradient())
    } else {
        super::parameter::frozen()
    }
}
