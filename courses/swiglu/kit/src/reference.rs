//! The reference maths, written for clarity: the "given" pieces of the exercises.
//!
//! Each exercise stub calls these for the parts the learner is *not* writing in that exercise.
//! Inside a graded program, the piece that answers the exercise's own TODO refuses to run:
//! calling the kit's answer is not an answer. The dtype path is the one `docs/swiglu-api.md`
//! fixes: forward ops in FP32, each result rounded once to `T`; backward in f64.

use ndarray::{Array2, ArrayD, Axis, Ix2, Zip};

use crate::{Float, MlpError, Param, Rng};

use tutor_subject::serve::refuse_if_answer;

/// `x·σ(x) = x / (1 + e^(−x))` in FP32. At large negative x, e^(−x) overflows to +∞ and the
/// quotient is −0, the right limit; e^x / (1 + e^x) would be ∞/∞ = NaN at large positive x.
pub(crate) fn silu_f32(x: f32) -> f32 {
    x / (1.0 + (-x).exp())
}

/// SiLU elementwise: computed in FP32, rounded once to `T`. NaN stays NaN.
pub fn silu<T: Float>(x: &ArrayD<T>) -> ArrayD<T> {
    refuse_if_answer("reference::silu", &[1], &[]);
    x.mapv(|v| T::from_f32(silu_f32(v.to_f32())))
}

/// SiLU's derivative `σ(x)·(1 + x·(1 − σ(x)))`, in f64.
pub fn silu_grad<T: Float>(x: &ArrayD<T>) -> ArrayD<f64> {
    refuse_if_answer("reference::silu_grad", &[5], &[]);
    x.mapv(|v| silu_grad_f64(v.to_f64()))
}

fn silu_grad_f64(x: f64) -> f64 {
    let s = 1.0 / (1.0 + (-x).exp());
    s * (1.0 + x * (1.0 - s))
}

/// LLaMA's FFN width: `int(2·(4·dim)/3)`, then `int(multiplier·h)`, then up to a multiple of
/// `multiple_of` (Meta's `FeedForward.__init__`).
pub fn hidden_size(dim: usize, multiple_of: usize, ffn_dim_multiplier: Option<f64>) -> Result<usize, MlpError> {
    refuse_if_answer("reference::hidden_size", &[3], &[]);
    if dim == 0 {
        return Err(MlpError::ZeroSize { what: "dim".into() });
    }
    if multiple_of == 0 {
        return Err(MlpError::ZeroSize { what: "multiple_of".into() });
    }
    let mut hidden = 2 * (4 * dim) / 3;
    if let Some(multiplier) = ffn_dim_multiplier {
        if !multiplier.is_finite() || multiplier <= 0.0 {
            return Err(MlpError::BadMultiplier(multiplier));
        }
        hidden = (multiplier * hidden as f64) as usize;
    }
    Ok(hidden.div_ceil(multiple_of) * multiple_of)
}

/// A trainable `[out, in]` weight drawn from `U(−1/√in, 1/√in)` (PyTorch's default for
/// `nn.Linear`, its `kaiming_uniform_(a=√5)`), from `Rng::new(seed)`.
pub fn linear_weight(in_features: usize, out_features: usize, seed: u64) -> Result<Param, MlpError> {
    refuse_if_answer("reference::linear_weight", &[2], &[]);
    check_sizes(in_features, out_features)?;
    let bound = 1.0 / (in_features as f32).sqrt();
    let mut rng = Rng::new(seed);
    Ok(Param::trainable(Array2::from_shape_fn((out_features, in_features), |_| rng.uniform(-bound, bound))))
}

/// Rejects a zero `in_features` or `out_features`.
pub fn check_sizes(in_features: usize, out_features: usize) -> Result<(), MlpError> {
    if in_features == 0 {
        return Err(MlpError::ZeroSize { what: "in_features".into() });
    }
    if out_features == 0 {
        return Err(MlpError::ZeroSize { what: "out_features".into() });
    }
    Ok(())
}

/// Rejects a 0-d input and one whose last axis is not `in_features` long.
pub fn check_features<T>(x: &ArrayD<T>, in_features: usize) -> Result<(), MlpError> {
    match x.shape().last() {
        None => Err(MlpError::NoAxis),
        Some(&found) if found != in_features => Err(MlpError::FeatureMismatch { expected: in_features, found }),
        Some(_) => Ok(()),
    }
}

/// `y = x·Wᵀ` over the last axis: the weight as `T` sees it (each element rounded to `T`),
/// products accumulated in FP32, each output rounded once to `T`.
pub fn linear<T: Float>(x: &ArrayD<T>, weight: &Param) -> Result<ArrayD<T>, MlpError> {
    refuse_if_answer("reference::linear", &[2], &[]);
    project(x, &weight.value)
}

fn project<T: Float>(x: &ArrayD<T>, weight: &Array2<f32>) -> Result<ArrayD<T>, MlpError> {
    check_features(x, weight.ncols())?;
    Ok(tutor_subject::linear::project(x, weight).expect("the last axis is in_features long"))
}

/// The block `down(silu(gate(x)) ⊙ up(x))`, every op rounded once to `T`.
pub fn feed_forward<T: Float>(x: &ArrayD<T>, gate: &Param, up: &Param, down: &Param) -> Result<ArrayD<T>, MlpError> {
    // While silu (TODO 1) or a Linear (TODO 2) is graded, the block could answer for it: a column
    // of ones appended to x makes `up` a constant, and `silu(gate)` or `gate` comes out.
    refuse_if_answer("reference::feed_forward", &[4], &[1, 2]);
    check_block(gate, up, down)?;
    let g = project(x, &gate.value)?;
    let u = project(x, &up.value)?;
    let product = Zip::from(&g)
        .and(&u)
        .map_collect(|&g, &u| T::from_f32(T::from_f32(silu_f32(g.to_f32())).to_f32() * u.to_f32()));
    project(&product, &down.value)
}

/// Gate and up must have one shape `[hidden, dim]`, and down `[dim, hidden]`.
fn check_block(gate: &Param, up: &Param, down: &Param) -> Result<(), MlpError> {
    if up.value.shape() != gate.value.shape() {
        return Err(MlpError::ShapeMismatch {
            expected: gate.value.shape().to_vec(),
            found: up.value.shape().to_vec(),
        });
    }
    let transposed = [gate.value.ncols(), gate.value.nrows()];
    if down.value.shape() != transposed {
        return Err(MlpError::ShapeMismatch { expected: transposed.to_vec(), found: down.value.shape().to_vec() });
    }
    Ok(())
}

/// Gradient of `sum(feed_forward(x) ⊙ grad_out)`, in f64 from the `T` inputs and the FP32 master
/// weights: returns dx rounded once to `T`, and accumulates each weight's gradient (rounded to
/// FP32) into its `grad`.
pub fn backward<T: Float>(
    x: &ArrayD<T>,
    grad_out: &ArrayD<T>,
    gate: &mut Param,
    up: &mut Param,
    down: &mut Param,
) -> Result<ArrayD<T>, MlpError> {
    // Its `down` gradient is `grad_outᵀ · (silu(g) ⊙ u)`: with a one-hot grad_out, the block's
    // product row, from which silu (TODO 1), a Linear (TODO 2) or the forward (TODO 4) follow.
    refuse_if_answer("reference::backward", &[5], &[1, 2, 4]);
    check_block(gate, up, down)?;
    check_features(x, gate.value.ncols())?;
    if grad_out.shape() != x.shape() {
        return Err(MlpError::ShapeMismatch { expected: x.shape().to_vec(), found: grad_out.shape().to_vec() });
    }
    let x64 = rows_f64(x);
    let upstream = rows_f64(grad_out);
    let [wg, wu, wd] = [&*gate, &*up, &*down].map(|p| p.value.mapv(f64::from));
    let g = x64.dot(&wg.t());
    let u = x64.dot(&wu.t());
    let a = g.mapv(|v| v / (1.0 + (-v).exp()));
    let dp = upstream.dot(&wd);
    let d_down = upstream.t().dot(&(&a * &u));
    let du = &dp * &a;
    let dg = &dp * &u * g.mapv(silu_grad_f64);
    let d_gate = dg.t().dot(&x64);
    let d_up = du.t().dot(&x64);
    let dx = dg.dot(&wg) + du.dot(&wu);
    gate.accumulate_grad(&d_gate.mapv(|v| v as f32))?;
    up.accumulate_grad(&d_up.mapv(|v| v as f32))?;
    down.accumulate_grad(&d_down.mapv(|v| v as f32))?;
    Ok(ArrayD::from_shape_vec(x.shape(), dx.iter().map(|&v| T::from_f64(v)).collect()).expect("dx has x's shape"))
}

/// `x` as f64 rows `[rows, last]`.
fn rows_f64<T: Float>(x: &ArrayD<T>) -> Array2<f64> {
    let last = x.len_of(Axis(x.ndim() - 1));
    let rows = x.shape()[..x.ndim() - 1].iter().product();
    Array2::from_shape_vec((rows, last), x.iter().map(|v| v.to_f64()).collect())
        .expect("rows × last is x's element count")
        .into_dimensionality::<Ix2>()
        .expect("two axes")
}

#[cfg(test)]
mod tests {
    use super::*;
    use half::bf16;
    use ndarray::IxDyn;

    // The grading crate checks these pieces against PyTorch and the f64 oracle through every
    // stub; here only what a stub cannot show: FP32 sums for bf16, and a gradient accumulated.
    #[test]
    fn linear_accumulates_in_fp32_for_bf16() {
        // 512 products of 1·1 in bf16 would stall at 256 (the spacing there is 2).
        let w = Param::trainable(Array2::ones((1, 512)));
        let x = ArrayD::from_elem(IxDyn(&[512]), bf16::ONE);
        assert_eq!(linear(&x, &w).unwrap()[[0]].to_f32(), 512.0);
    }

    #[test]
    fn backward_accumulates() {
        let mut weights = [(3, 4, 1), (3, 4, 2), (4, 3, 3)].map(|(i, o, s)| linear_weight(i, o, s).unwrap());
        let x = ArrayD::from_shape_vec(IxDyn(&[2, 3]), vec![0.5f64, -1.0, 2.0, 1.5, 0.25, -0.75]).unwrap();
        let ones = ArrayD::from_elem(IxDyn(&[2, 3]), 1.0f64);
        let [g, u, d] = &mut weights;
        backward(&x, &ones, g, u, d).unwrap();
        let first = g.grad.clone().unwrap();
        backward(&x, &ones, g, u, d).unwrap();
        assert_eq!(g.grad.as_ref(), Some(&(&first * 2.0)));
    }
}
