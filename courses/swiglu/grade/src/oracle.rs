//! The f64 oracle: the chapter's maths written independently of the kit, in f64, on the dtype
//! path docs/swiglu-api.md fixes. Each function returns the exact-as-f64 value *before* the last
//! rounding to `T`, so a comparison can both round it (`round::<T>`) and measure ulps.

use ndarray::{Array2, ArrayD, Axis, Ix2, Zip};
pub use tutor_grade::rounding::round;
use tutor_kit::Float;

/// SiLU in f64: `x·σ(x)`, written as `x / (1 + e^(−x))` (finite for every finite x).
pub fn silu(x: f64) -> f64 {
    x / (1.0 + (-x).exp())
}

/// σ(x) in f64.
pub fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// SiLU's derivative `σ(x)·(1 + x·(1 − σ(x)))`.
pub fn silu_grad(x: f64) -> f64 {
    let s = sigmoid(x);
    s * (1.0 + x * (1.0 - s))
}

/// The size of the terms silu′ is computed from, `σ(x)·(1 + |x|·(1 − σ(x)))`: a computation in a
/// narrower type misses silu′ by some of its ulps of this, which near silu′'s zero (x ≈ −1.28,
/// where `x·(1 − σ(x))` cancels the 1) is far more than its ulps of silu′ itself.
pub fn silu_grad_terms(x: f64) -> f64 {
    let s = sigmoid(x);
    s * (1.0 + x.abs() * (1.0 - s))
}

/// Meta's hidden-size rule, as Python computes it (`int()` of float divisions).
pub fn hidden_size(dim: usize, multiple_of: usize, multiplier: Option<f64>) -> usize {
    let mut hidden = (2.0 * (4 * dim) as f64 / 3.0) as usize;
    if let Some(m) = multiplier {
        hidden = (m * hidden as f64) as usize;
    }
    multiple_of * hidden.div_ceil(multiple_of)
}

/// `x·Wᵀ` over the last axis with the weight rounded to `T`, in f64 (not rounded at the end).
pub fn linear<T: Float>(x: &ArrayD<T>, weight: &Array2<f32>) -> ArrayD<f64> {
    let w = weight.mapv(|v| T::from_f32(v).to_f64());
    project(&x.mapv(|v| v.to_f64()), &w)
}

/// `x·Wᵀ` over the last axis, in f64.
pub fn project(x: &ArrayD<f64>, w: &Array2<f64>) -> ArrayD<f64> {
    let last = Axis(x.ndim() - 1);
    let rows: usize = x.shape()[..x.ndim() - 1].iter().product();
    let flat = x.to_shape((rows, w.ncols())).expect("x's last axis is in_features").to_owned();
    let mut shape = x.shape().to_vec();
    shape[last.index()] = w.nrows();
    flat.dot(&w.t()).into_shape_with_order(shape).expect("one output per row and feature")
}

/// The block in f64, the output before its own rounding to `T`. On the chapter's path
/// (`per_op`, `weights_in_t`), `g`, `u`, `silu(g)` and the product are each rounded to `T` and the
/// weights are as `T` holds them. Without `per_op`, nothing is rounded before the output (a fused
/// kernel's road); without `weights_in_t`, the FP32 master weights are multiplied as they are.
pub fn block<T: Float>(x: &ArrayD<T>, weights: &[Array2<f32>; 3], per_op: bool, weights_in_t: bool) -> ArrayD<f64> {
    block_with::<T>(x, weights, per_op, weights_in_t, silu)
}

/// [`block`] with another activation in SiLU's place (a mistake's).
pub fn block_with<T: Float>(
    x: &ArrayD<T>,
    weights: &[Array2<f32>; 3],
    per_op: bool,
    weights_in_t: bool,
    activation: impl Fn(f64) -> f64,
) -> ArrayD<f64> {
    let to_t = |a: ArrayD<f64>| if per_op { round::<T>(&a) } else { a };
    let as_held = |w: &Array2<f32>| w.mapv(|v| if weights_in_t { T::from_f32(v).to_f64() } else { f64::from(v) });
    let x = x.mapv(|v| v.to_f64());
    let g = to_t(project(&x, &as_held(&weights[0])));
    let u = to_t(project(&x, &as_held(&weights[1])));
    let activated = to_t(g.mapv(activation));
    let product = to_t(&activated * &u);
    project(&product, &as_held(&weights[2]))
}

/// The exact gradients of `sum(block(x) ⊙ dy)` in f64, on FP32 master weights: dx, dgate, dup,
/// ddown. `slope` is SiLU's derivative (the oracle's own, or a mistaken one); `slip`, a mistake
/// in the chain rule itself, or none.
pub fn backward<T: Float>(
    x: &ArrayD<T>,
    dy: &ArrayD<T>,
    weights: &[Array2<f32>; 3],
    slope: fn(f64) -> f64,
    slip: Slip,
) -> (ArrayD<f64>, [Array2<f64>; 3]) {
    let dim = weights[0].ncols();
    let rows = x.len() / dim;
    let flat = |a: &ArrayD<T>| {
        a.mapv(|v| v.to_f64()).into_shape_with_order((rows, dim)).expect("[.., dim]").into_dimensionality::<Ix2>()
    };
    let (x2, dy2) = (flat(x).expect("two axes"), flat(dy).expect("two axes"));
    let in_t = slip == Slip::WeightsInT;
    let [wg, wu, wd] = weights.clone().map(|w| w.mapv(|v| if in_t { T::from_f32(v).to_f64() } else { f64::from(v) }));
    let g = x2.dot(&wg.t());
    let u = x2.dot(&wu.t());
    let a = g.mapv(silu);
    let (dx, grads) = backward_through(&x2, dy2, [&wg, &wu, &wd], [g, u, a], slope, slip);
    (dx.into_shape_with_order(x.shape()).expect("dx has x's shape"), grads)
}

/// The gradients of [`backward`] from rows `x2` and `dy2` (`[n, dim]`), the weights as the
/// backward uses them, and the forward's `[g, u, a]` as it recomputed them: dx as rows, and the
/// three weights' gradients.
pub fn backward_through(
    x2: &Array2<f64>,
    mut dy2: Array2<f64>,
    [wg, wu, wd]: [&Array2<f64>; 3],
    [g, u, a]: [Array2<f64>; 3],
    slope: fn(f64) -> f64,
    slip: Slip,
) -> (Array2<f64>, [Array2<f64>; 3]) {
    if slip == Slip::GradOutOnes {
        dy2.fill(1.0);
    }
    let dp = dy2.dot(wd);
    let dd = match slip {
        Slip::DownWithoutUp => dy2.t().dot(&a),
        // [hidden, dim] read in memory order as [dim, hidden].
        Slip::DownReshaped => {
            let pt = (&a * &u).t().dot(&dy2);
            let shape = (pt.ncols(), pt.nrows());
            Array2::from_shape_vec(shape, pt.iter().copied().collect()).expect("as many elements")
        }
        _ => dy2.t().dot(&(&a * &u)),
    };
    // Each branch's gradient is dp times the OTHER branch's value (and silu′ for gate's).
    let (du, mut dg) = match slip {
        Slip::OwnMultiplicands => (&dp * &u, &dp * &a),
        _ => (&dp * &a, &dp * &u),
    };
    Zip::from(&mut dg).and(&g).for_each(|d, &g| *d *= slope(g));
    let dx = match slip {
        Slip::DxWithoutUp => dg.dot(wg),
        Slip::DxWithoutGate => du.dot(wu),
        _ => dg.dot(wg) + du.dot(wu),
    };
    let mut grads = [dg.t().dot(x2), du.t().dot(x2), dd];
    if slip == Slip::MeanOverRows {
        grads.iter_mut().for_each(|g| *g /= x2.nrows().max(1) as f64);
    }
    (dx, grads)
}

/// The size of the terms each element of [`backward`]'s dx is computed from (`T` = f64, the FP32
/// master weights): its chain rule on absolute values, every sum the sum of its terms' sizes
/// (`|x|·|W_gate|ᵀ` for g, …), silu(g) and silu′(g) widened by what an error of g's size moves
/// them (by at most 1.1 and 0.5 times it). A computation in a narrower type misses dx by some of
/// its ulps of this, however much dx's own sums cancel.
pub fn dx_terms(x: &ArrayD<f64>, dy: &ArrayD<f64>, weights: &[Array2<f32>; 3]) -> ArrayD<f64> {
    let dim = weights[0].ncols();
    let rows = x.len() / dim.max(1);
    let flat = |a: &ArrayD<f64>| a.mapv(f64::abs).into_shape_with_order((rows, dim)).expect("[.., dim]");
    let (x2, dy2) = (flat(x), flat(dy));
    let g = project(x, &weights[0].mapv(f64::from));
    let g = g.into_shape_with_order((rows, weights[0].nrows())).expect("[rows, hidden]");
    let [wg, wu, wd] = weights.clone().map(|w| w.mapv(|v| f64::from(v).abs()));
    let (g_size, u_size) = (x2.dot(&wg.t()), x2.dot(&wu.t()));
    let a_size = Zip::from(&g).and(&g_size).map_collect(|&g, &m| silu(g).abs() + 1.1 * m);
    let slope_size = Zip::from(&g).and(&g_size).map_collect(|&g, &m| silu_grad_terms(g) + 0.5 * m);
    // `backward_through` multiplies dg by slope(g): given the slope's sizes as g, it takes them.
    let (dx, _) = backward_through(&x2, dy2, [&wg, &wu, &wd], [slope_size, u_size, a_size], |s| s, Slip::None);
    dx.into_shape_with_order(x.shape()).expect("dx has x's shape")
}

/// A slip in the backward's chain rule, as a mistake makes it.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Slip {
    /// The chain rule as it is.
    None,
    /// dx through gate alone: `dg·W_gate`, without up's `du·W_up`.
    DxWithoutUp,
    /// dx through up alone: `du·W_up`, without gate's `dg·W_gate`.
    DxWithoutGate,
    /// Each branch multiplied by its own value: `du = dp ⊙ u`, `dg = dp ⊙ silu(g) ⊙ silu′(g)`.
    OwnMultiplicands,
    /// grad_out taken as ones (the loss as `sum(y)`).
    GradOutOnes,
    /// The weights' gradients divided by the number of rows (a mean, not a sum).
    MeanOverRows,
    /// Down's gradient `grad_outᵀ·a`, without up.
    DownWithoutUp,
    /// Down's gradient `(a ⊙ u)ᵀ·grad_out` (`[hidden, dim]`) reshaped to `[dim, hidden]`.
    DownReshaped,
    /// The weights rounded to `T` first, as forward holds them.
    WeightsInT,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixtures;
    use tutor_kit::half::bf16;

    #[test]
    fn the_oracle_agrees_with_pytorch() {
        for (name, tolerance) in [("f32", 1e-6), ("bf16", 1e-2)] {
            let weights = ["block.gate", "block.up", "block.down"].map(fixtures::matrix);
            let (y, expected) = if name == "f32" {
                let x = fixtures::array::<f32>("block.f32.x");
                (block(&x, &weights, true, true), fixtures::array::<f32>("block.f32.y").mapv(f64::from))
            } else {
                let x = fixtures::array::<bf16>("block.bf16.x");
                (
                    round::<bf16>(&block(&x, &weights, true, true)),
                    fixtures::array::<bf16>("block.bf16.y").mapv(|v| v.to_f64()),
                )
            };
            let worst = (&y - &expected).iter().fold(0.0f64, |m, d| m.max(d.abs()));
            assert!(worst < tolerance, "{name}: {worst}");
        }
        let x = fixtures::array::<f32>("block.f32.x");
        let dy = fixtures::array::<f32>("block.f32.dy");
        let weights = ["block.gate", "block.up", "block.down"].map(fixtures::matrix);
        let (dx, [dg, _, _]) = backward(&x, &dy, &weights, silu_grad, Slip::None);
        let torch_dx = fixtures::array::<f32>("block.f32.dx").mapv(f64::from);
        assert!((&dx - &torch_dx).iter().all(|d| d.abs() < 1e-6));
        let torch_dg = fixtures::matrix("block.f32.dgate").mapv(f64::from);
        assert!((&dg - &torch_dg).iter().all(|d| d.abs() < 1e-5));
    }

    /// Each other dtype path (fused with either weights, or per op with the FP32 weights) changes
    /// far more than the 10% of outputs the per-op check allows to differ.
    #[test]
    fn every_other_path_changes_most_outputs_of_a_low_precision_block() {
        fn share_equal<T: Float + tutor_subject::wire::Dtype>(weights: &[Array2<f32>; 3], path: (bool, bool)) -> f64 {
            let x: ArrayD<T> = tutor_grade::Rng::new(4).normal_array(&[4, 8, 32]);
            let per_op = round::<T>(&block(&x, weights, true, true));
            let other = round::<T>(&block(&x, weights, path.0, path.1));
            per_op.iter().zip(&other).filter(|(a, b)| a == b).count() as f64 / per_op.len() as f64
        }
        let mut rng = tutor_grade::Rng::new(3);
        let weights =
            [(96, 32), (96, 32), (32, 96)].map(|(rows, cols)| crate::cases::pytorch_init(&mut rng, rows, cols));
        for path in [(false, false), (false, true), (true, false)] {
            let shares = [share_equal::<bf16>(&weights, path), share_equal::<tutor_kit::half::f16>(&weights, path)];
            assert!(shares.iter().all(|&s| s < 0.8), "{path:?}: {shares:?}");
        }
    }

    #[test]
    fn hidden_size_reproduces_metas_configurations() {
        assert_eq!(hidden_size(4096, 256, None), 11008);
        assert_eq!(hidden_size(5120, 256, None), 13824);
        assert_eq!(hidden_size(8192, 4096, Some(1.3)), 28672);
        assert_eq!(hidden_size(4096, 1, Some(1.3)), 14198);
    }
}
