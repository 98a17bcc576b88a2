//! Outputs past f16's range: weight elements up to 57344 times normalised values above 1 (a row
//! whose few large elements make |n| ≈ 1.4) give outputs beyond 65504, f16's largest value. f32,
//! f64 and bf16 keep them; in f16 the one rounding to nearest makes anything past 65519.99 ±inf.
//! The weights are exact in f16 and bf16, so that a forward that casts the weight to T first (the
//! tutorial's own) is as right here as anywhere. A forward that saturates its FP32 result at
//! ±65504 "so that f16 cannot overflow" fails here, and only here.

use half::{bf16, f16};
use ndarray::{array, ArrayD, Axis};
use tutor_kit::Element;

use super::{forward_matches, BF16, F16, F32};
use crate::cases::{cases, with_weights, Case, Outcome, Run};

pub fn cases() -> Vec<Case> {
    cases! { crate::cases::DTYPE_GRADIENT;
        "forward-past-f16-range",
            "输出超过 65504（权重元素达 57344，归一化值约 1.4）：f32、f64 与 bf16 保留这些大值，f16 中超过 65519.99 的值为 ±inf",
            "outputs past 65504 (weight elements up to 57344, normalised values about 1.4): f32, f64 and bf16 keep them, and in f16 anything past 65519.99 is ±inf" => past_f16_range;
    }
}

const EPS: f32 = 1e-6;

/// Every dtype, each observed (a file may saturate one of them only); the first failure is shown.
fn past_f16_range(run: &Run) -> Outcome {
    large::<f32>(run, F32).and(large::<f64>(run, F32)).and(large::<bf16>(run, BF16)).and(large::<f16>(run, F16))
}

fn large<T: Element>(run: &Run, tolerance: (f64, f64)) -> Outcome {
    // Large elements of both signs, exact in f16 and bf16 (7·2¹³, 3·2¹⁴, 5·2¹³, 7·2¹²), beside
    // ordinary ones.
    let weights = array![57344.0f32, -57344.0, 49152.0, -40960.0, 1.5, -0.75, 28672.0, 2.0];
    let (norm, weight) = with_weights(run, weights.len(), EPS, weights)?;
    let mut x: ArrayD<T> = run.rng(41).normal_array(&[3, weight.len()]);
    // One row whose normalised values are ±1.395 where the weights are largest (mean square
    // (4·9 + 4·0.25) / 8): 57344 and 49152 times it are past the range whatever the draw.
    let row = [3.0f32, -3.0, 3.0, -3.0, 0.5, 0.5, 0.5, -0.5];
    for (v, &r) in x.index_axis_mut(Axis(0), 0).iter_mut().zip(&row) {
        *v = T::from_f32(r);
    }
    forward_matches(run, &norm, &weight, &x, EPS, tolerance)
}
