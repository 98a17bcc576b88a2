//! 01-silu's mistakes as candidate outputs (GELU and its erf are also the block's).

use ndarray::ArrayD;
use tutor_grade::candidate;
use tutor_kit::Float;

use crate::cases::Candidate;

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
    ]
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
