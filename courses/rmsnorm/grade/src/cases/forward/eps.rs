//! forward with the layer's own eps, as lesson 02's `eps-is-used` asks of norm: every other
//! forward case runs at the default 1e-6 (or at 0, for the exact ties), where a forward that
//! writes 1e-6 in (calling the kit's normaliser with it, or its own loops) is right, and where the
//! ties alone would say only that its values are a little small. Here a constant shows plainly.

use ndarray::ArrayD;
use tutor_grade::data::tensor;

use super::{forward_matches, F32};
use crate::cases::{cases, weighted, Case, Outcome, Run};

pub fn cases() -> Vec<Case> {
    cases! { crate::cases::DTYPE_GRADIENT;
        "forward-uses-own-eps",
            "forward 使用本层的 eps（eps = 1e-12 时 [1e-6, -1e-6, …] 归一化为 ±0.7071；eps = 0.1 时结果随之改变）",
            "forward uses the layer's own eps ([1e-6, -1e-6, …] normalises to ±0.7071 at eps = 1e-12; eps = 0.1 shows too)" => forward_uses_own_eps;
    }
}

fn forward_uses_own_eps(run: &Run) -> Outcome {
    // mean(x²) = 1e-12 = eps in the first row: 1e-6/sqrt(2e-12) ≈ 0.7071, where an eps fixed at
    // 1e-6 gives ≈ 1e-3; eps = 0.1 beside mean(x²) ≈ 1 moves every value by about 5 %.
    let tiny = tensor::<f32>(&[2, 4], &[1e-6, -1e-6, 1e-6, -1e-6, 2e-6, 1e-6, -3e-6, 5e-7]);
    let unit: ArrayD<f32> = run.rng(42).normal_array(&[3, 4]);
    // Both compared before the first failure is shown: each is evidence about the mistakes.
    let mut outcome = Ok(());
    for (x, eps, salt) in [(tiny, 1e-12, 43), (unit, 0.1, 44)] {
        let (norm, weight) = weighted(run, 4, eps, salt, None)?;
        outcome = outcome.and(forward_matches(run, &norm, &weight, &x, eps, F32));
    }
    outcome
}
