//! 01-silu's mistakes as candidate outputs (GELU and its erf are also the block's).

use ndarray::ArrayD;
use tutor_grade::candidate;
use tutor_kit::Float;

use super::Candidate;

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
        candidate("silu-sign-slip", "mirror", on(|v| v / (1.0 + v.exp()))),
        candidate("silu-sigmoid-cancels", "one-minus", on(|v| v * (1.0 - 1.0 / (1.0 + v.exp())))),
        candidate("silu-sigmoid-cancels", "tanh", on(|v| v * (0.5 * (1.0 + (0.5 * v).tanh())))),
        candidate("silu-arith-in-t", "ops-in-t", x.mapv(in_t)),
    ]
}

/// SiLU in `T`'s own arithmetic, as `half` does it (each op in FP32, rounded to `T`): `e^(−x)`
/// rounded, `1 + e` rounded, the quotient rounded.
fn in_t<T: Float>(v: T) -> f64 {
    let e = T::from_f32((-v.to_f32()).exp());
    let denominator = T::from_f32(1.0 + e.to_f32());
    T::from_f32(v.to_f32() / denominator.to_f32()).to_f64()
}

/// `expected` with the learner's own values where the input is NaN or ±inf: the answer of code
/// right on every finite input that gives the special values a value of its own.
pub fn special_values<T: Float>(x: &ArrayD<T>, expected: &ArrayD<f64>, actual: &ArrayD<f64>) -> Candidate {
    let mut output = expected.clone();
    if actual.shape() == expected.shape() {
        ndarray::Zip::from(&mut output).and(x).and(actual).for_each(|out, v, &seen| {
            if !v.to_f64().is_finite() {
                *out = seen;
            }
        });
    }
    candidate("silu-special-values", "own-values", output)
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
pub(super) fn erf(x: f64) -> f64 {
    let t = 1.0 / (1.0 + 0.327_591_1 * x.abs());
    let poly =
        t * (0.254_829_592 + t * (-0.284_496_736 + t * (1.421_413_741 + t * (-1.453_152_027 + t * 1.061_405_429))));
    let magnitude = 1.0 - poly * (-x * x).exp();
    magnitude.copysign(x)
}
