//! 05-backward's mistakes: wrong forms of silu′ and slips in the chain rule.

use ndarray::{Array2, ArrayD};
use tutor_kit::{reference, Float, Param};

use crate::oracle::{self, Slip};

/// A wrong silu′: its mistake, its way of writing it, and the slope it computes.
pub type WrongSlope = (&'static str, &'static str, fn(f64) -> f64);

/// silu′ as the backward mistakes write it: (mistake, way of writing it, the slope). The forms
/// that overflow are NaN where an exponential is inf (the quotient rule's `x·e^(−x)` overflows a
/// little earlier, below about −703.2) and right elsewhere.
pub const WRONG_SLOPES: [WrongSlope; 14] = [
    ("backward-silu-grad-missing-term", "sigmoid-alone", oracle::sigmoid),
    ("backward-silu-grad-overflow", "exp-minus-x-inf", |x| {
        if (-x).exp().is_finite() {
            oracle::silu_grad(x)
        } else {
            f64::NAN
        }
    }),
    ("backward-silu-grad-overflow", "quotient-rule", |x| {
        let e = (-x).exp();
        (1.0 + e + x * e) / ((1.0 + e) * (1.0 + e))
    }),
    ("backward-silu-grad-overflow", "exp-x-inf", |x| if x.exp().is_finite() { oracle::silu_grad(x) } else { f64::NAN }),
    ("backward-silu-grad-sign-slip", "minus-x-term", |x| {
        let s = oracle::sigmoid(x);
        s * (1.0 - x * (1.0 - s))
    }),
    ("backward-silu-grad-tail-lost", "one-minus", |x| through(x, 1.0 - 1.0 / (1.0 + x.exp()))),
    ("backward-silu-grad-tail-lost", "tanh", |x| through(x, 0.5 * (1.0 + (0.5 * x).tanh()))),
    ("backward-silu-grad-other-term", "x-sigma-prime", |x| {
        let s = oracle::sigmoid(x);
        x * s * (1.0 - s)
    }),
    ("backward-silu-grad-other-term", "sigma-prime", |x| {
        let s = oracle::sigmoid(x);
        s * (1.0 - s)
    }),
    ("backward-silu-not-its-derivative", "silu", oracle::silu),
    // Cut off to 0 below a round threshold ("negligible there").
    ("backward-silu-grad-tail-lost", "zero-below-20", |x| if x < -20.0 { 0.0 } else { oracle::silu_grad(x) }),
    ("backward-silu-grad-tail-lost", "zero-below-30", |x| if x < -30.0 { 0.0 } else { oracle::silu_grad(x) }),
    ("backward-silu-grad-tail-lost", "zero-below-40", |x| if x < -40.0 { 0.0 } else { oracle::silu_grad(x) }),
    ("backward-silu-grad-tail-lost", "zero-below-50", |x| if x < -50.0 { 0.0 } else { oracle::silu_grad(x) }),
];

/// silu′ at `x` from a σ(x) computed some other way.
fn through(x: f64, s: f64) -> f64 {
    s * (1.0 + x * (1.0 - s))
}

/// A backward's slip in the chain rule itself: (mistake, way of writing it, silu′, slip).
pub type ChainRuleSlip = (&'static str, &'static str, fn(f64) -> f64, Slip);

/// The backward's slips in the chain rule itself.
pub const CHAIN_RULE_SLIPS: [ChainRuleSlip; 9] = [
    ("backward-silu-grad-dropped", "dg-is-dp-times-u", |_| 1.0, Slip::None),
    ("backward-dx-missing-up", "gate-path-only", oracle::silu_grad, Slip::DxWithoutUp),
    ("backward-dx-missing-up", "up-path-only", oracle::silu_grad, Slip::DxWithoutGate),
    ("backward-own-multiplicands", "du-dp-u-dg-dp-a", oracle::silu_grad, Slip::OwnMultiplicands),
    ("backward-grad-out-ignored", "ones", oracle::silu_grad, Slip::GradOutOnes),
    ("backward-mean-over-rows", "divided-by-rows", oracle::silu_grad, Slip::MeanOverRows),
    ("backward-down-grad-wrong", "without-up", oracle::silu_grad, Slip::DownWithoutUp),
    ("backward-down-grad-wrong", "reshaped", oracle::silu_grad, Slip::DownReshaped),
    ("backward-rounded-like-forward", "weights-in-t", oracle::silu_grad, Slip::WeightsInT),
];

/// The backward of code that recomputes the forward with the given pieces (`self.gate.forward`,
/// `silu`: weights rounded to `T`, FP32 sums, each op rounded to `T`) and differentiates the
/// rest in f64 on the FP32 master weights: dx as rows and the three weights' gradients.
pub fn through_given_forward<T: Float>(
    x: &ArrayD<T>,
    dy: &ArrayD<T>,
    weights: &[Array2<f32>; 3],
) -> (ArrayD<f64>, [Array2<f64>; 3]) {
    let dim = weights[0].ncols();
    let rows = x.len() / dim.max(1);
    let flat = |a: ArrayD<f64>, cols: usize| a.into_shape_with_order((rows, cols)).expect("[rows, cols]");
    let params = weights.clone().map(Param::trainable);
    let given = |p: &Param| reference::linear(x, p).map(|y| y.mapv(|v| v.to_f64()));
    let (Ok(g), Ok(u)) = (given(&params[0]), given(&params[1])) else {
        return (ArrayD::zeros(x.shape()), [0, 1, 2].map(|_| Array2::zeros((0, 0))));
    };
    let a = reference::silu(&g.mapv(T::from_f64)).mapv(|v| v.to_f64());
    let hidden = weights[0].nrows();
    let [wg, wu, wd] = weights.clone().map(|w| w.mapv(f64::from));
    let x2 = flat(x.mapv(|v| v.to_f64()), dim);
    let forward = [flat(g, hidden), flat(u, hidden), flat(a, hidden)];
    let dy2 = flat(dy.mapv(|v| v.to_f64()), dim);
    let (dx, grads) = oracle::backward_through(&x2, dy2, [&wg, &wu, &wd], forward, oracle::silu_grad, Slip::None);
    (dx.into_shape_with_order(x.shape()).expect("dx has x's shape"), grads)
}
