//! 05-backward's mistakes: wrong forms of silu′ and slips in the chain rule.

use crate::oracle::{self, Slip};

/// A wrong silu′: its mistake, its way of writing it, and the slope it computes.
pub type WrongSlope = (&'static str, &'static str, fn(f64) -> f64);

/// silu′ as the backward mistakes write it: (mistake, way of writing it, the slope). The forms
/// that overflow are NaN where an exponential is inf (the quotient rule's `x·e^(−x)` overflows a
/// little earlier, below about −703.2) and right elsewhere.
pub const WRONG_SLOPES: [WrongSlope; 4] = [
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
];

/// A backward's slip in the chain rule itself: (mistake, way of writing it, silu′, slip).
pub type ChainRuleSlip = (&'static str, &'static str, fn(f64) -> f64, Slip);

/// The backward's slips in the chain rule itself.
pub const CHAIN_RULE_SLIPS: [ChainRuleSlip; 3] = [
    ("backward-silu-grad-dropped", "dg-is-dp-times-u", |_| 1.0, Slip::None),
    ("backward-dx-missing-up", "gate-path-only", oracle::silu_grad, Slip::DxWithoutUp),
    ("backward-own-multiplicands", "du-dp-u-dg-dp-a", oracle::silu_grad, Slip::OwnMultiplicands),
];

