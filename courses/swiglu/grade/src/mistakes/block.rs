//! 04-forward's mistakes as candidate outputs: the block with a part swapped, another activation
//! on the gate, another shape of the product, or another dtype path.

use ndarray::{Array2, ArrayD, Zip};
use tutor_grade::candidate;
use tutor_kit::Float;

use super::Candidate;
use super::{gelu_erf, gelu_tanh};
use crate::oracle::{self, project, round};

/// The block's mistaken versions on `x`, rounded to `T`.
pub fn block_candidates<T: Float>(x: &ArrayD<T>, weights: &[Array2<f32>; 3]) -> Vec<Candidate> {
    let [gate, up, down] = weights.clone();
    let on =
        |weights: &[Array2<f32>; 3], per_op, weights_in_t| round::<T>(&oracle::block(x, weights, per_op, weights_in_t));
    let with = |activation: fn(f64) -> f64| round::<T>(&oracle::block_with(x, weights, true, true, activation));
    let parts = Parts::new(x, weights);
    vec![
        candidate("block-gate-up-swapped", "silu-on-up", on(&[up, gate.clone(), down.clone()], true, true)),
        candidate("block-gate-used-twice", "gate-as-up", on(&[gate.clone(), gate, down], true, true)),
        candidate("block-rounds-once", "fused-fp32-weights", on(weights, false, false)),
        candidate("block-rounds-once", "fused-weights-in-t", on(weights, false, true)),
        candidate("linear-weight-not-rounded", "per-op-fp32-weights", on(weights, true, false)),
        // Another activation written into the block itself (the given silu is right).
        candidate("block-relu-gate", "block-max", with(|g| g.max(0.0))),
        candidate("block-sigmoid-gate", "block-sigmoid", with(oracle::sigmoid)),
        candidate("block-no-activation", "bilinear", with(|g| g)),
        candidate("block-gelu-gate", "block-erf", with(gelu_erf)),
        candidate("block-gelu-gate", "block-tanh", with(gelu_tanh)),
        candidate("silu-sigmoid-rounded", "block-sigmoid-in-t", with(|g| g * T::from_f64(oracle::sigmoid(g)).to_f64())),
        candidate(
            "block-silu-on-product",
            "silu-after",
            parts.down(&parts.t(&parts.t(&(&parts.g * &parts.u)).mapv(oracle::silu))),
        ),
        candidate("block-down-missing", "product", parts.t(&(&parts.t(&parts.g.mapv(oracle::silu)) * &parts.u))),
        candidate(
            "block-sum-not-product",
            "plus",
            parts.down(&parts.t(&(&parts.t(&parts.g.mapv(oracle::silu)) + &parts.u))),
        ),
        candidate("block-residual-inside", "plus-x", parts.plus_x(&on(weights, true, true))),
        candidate(
            "block-rounding-skipped",
            "silu-unrounded",
            parts.down(&parts.t(&(&parts.g.mapv(oracle::silu) * &parts.u))),
        ),
        candidate(
            "block-rounding-skipped",
            "product-unrounded",
            parts.down(&(&parts.t(&parts.g.mapv(oracle::silu)) * &parts.u)),
        ),
        candidate(
            "block-rounding-skipped",
            "projections-unrounded",
            parts.down(&parts.t(&(&parts.t(&parts.g_exact.mapv(oracle::silu)) * &parts.u_exact))),
        ),
    ]
}

/// The block's projections on `x` on the chapter's path (weights as `T` holds them), rounded to
/// `T` and not, for mistakes that change what follows them.
struct Parts<'a, T> {
    x: &'a ArrayD<T>,
    g: ArrayD<f64>,
    u: ArrayD<f64>,
    g_exact: ArrayD<f64>,
    u_exact: ArrayD<f64>,
    down: Array2<f64>,
}

impl<'a, T: Float> Parts<'a, T> {
    fn new(x: &'a ArrayD<T>, weights: &[Array2<f32>; 3]) -> Self {
        let [g_exact, u_exact] = [&weights[0], &weights[1]].map(|w| oracle::linear(x, w));
        Parts {
            x,
            g: round::<T>(&g_exact),
            u: round::<T>(&u_exact),
            g_exact,
            u_exact,
            down: weights[2].mapv(|v| T::from_f32(v).to_f64()),
        }
    }

    /// Rounded to `T`.
    fn t(&self, a: &ArrayD<f64>) -> ArrayD<f64> {
        round::<T>(a)
    }

    /// The down projection of `p`, rounded to `T`.
    fn down(&self, p: &ArrayD<f64>) -> ArrayD<f64> {
        round::<T>(&project(p, &self.down))
    }

    /// `y + x` added in FP32 and rounded to `T`, as `T::from_f32(y.to_f32() + x.to_f32())`.
    fn plus_x(&self, y: &ArrayD<f64>) -> ArrayD<f64> {
        let mut out = y.clone();
        Zip::from(&mut out).and(self.x).for_each(|y, x| *y = T::from_f32(*y as f32 + x.to_f32()).to_f64());
        out
    }
}
