//! Answers: TODO 1, TODO 5. SiLU follows from its derivative: σ solves
//! `x·σ² − (1 + x)·σ + silu_grad(x) = 0`.

use ndarray::ArrayD;

use crate::Float;

/// SiLU's derivative `σ(x)·(1 + x·(1 − σ(x)))`, in f64.
pub fn silu_grad<T: Float>(x: &ArrayD<T>) -> ArrayD<f64> {
    x.mapv(|v| {
        let x = v.to_f64();
        let s = 1.0 / (1.0 + (-x).exp());
        s * (1.0 + x * (1.0 - s))
    })
}
