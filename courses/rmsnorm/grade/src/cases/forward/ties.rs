//! Exact ties in the conversion of forward's output to f16 and bf16: round half to even. With
//! eps = 0 and rows of ±c (c a power of two), the normalised values are exactly ±1 in any correct
//! FP32 program, so the output before the cast is the weight itself, chosen halfway between two
//! neighbouring values of the half type. Rounding to nearest even is then the only right answer,
//! bit for bit; truncation and ties away from zero (`(bits + 0x8000) & 0xFFFF0000`) miss. Half of
//! the weights are subnormal in the half type, where a conversion that flushes to zero misses.

use half::{bf16, f16};
use ndarray::{Array1, ArrayD, IxDyn};
use tutor_kit::Element;

use super::{forward_and_reference, observe_bits};
use crate::cases::{assert_close, cases, with_weights, Case, Outcome, Run, Spacing};
use crate::text;

pub fn cases() -> Vec<Case> {
    cases! { crate::cases::DTYPE_GRADIENT;
        "f16-ties-to-even",
            "f16 输出中恰好一半的值舍入到偶数，次正规数不被清零（eps = 0，归一化结果恰为 ±1，权重在两个 f16 值正中间，一半小于 f16 的最小正规数）",
            "f16 output: exact ties round to even, subnormals are not flushed (eps = 0, normalised values exactly ±1, weights halfway between two f16 values, half of them below f16's smallest normal)" => ties::<f16>;
        "bf16-ties-to-even",
            "bf16 输出中恰好一半的值舍入到偶数，次正规数不被清零（eps = 0，归一化结果恰为 ±1，权重在两个 bf16 值正中间，一半小于 bf16 的最小正规数）",
            "bf16 output: exact ties round to even, subnormals are not flushed (eps = 0, normalised values exactly ±1, weights halfway between two bf16 values, half of them below bf16's smallest normal)" => ties::<bf16>;
    }
}

/// Weights of normal magnitude, then as many in `T`'s subnormal range.
const NORMAL: usize = 8;
const HIDDEN: usize = 2 * NORMAL;

/// Weights halfway between neighbouring values of `T`, odd and even multiples of its ulp alike, at
/// several magnitudes; then subnormal ones (below `T`'s smallest normal value, where a conversion
/// that flushes to zero loses them): halfway between two subnormals, on one, just below the
/// smallest normal.
fn tie_weights<T: Element>() -> Array1<f32> {
    let spacing = Spacing::of::<T>();
    let ulp_of_one = spacing.at(1.0) as f32;
    let normal = (0..NORMAL).map(|j| {
        let magnitude = [1.0f32, 2.0, 0.5, 4.0][j % 4];
        let steps = (2 * (j / 2) + 1) as f32;
        let sign = if j % 3 == 1 { -1.0 } else { 1.0 };
        sign * magnitude * (1.0 + steps * ulp_of_one / 2.0)
    });
    let step = spacing.at(0.0);
    let min_normal = spacing.min_normal();
    let subnormal = [0.5, 1.5, 2.5, 7.0, 12.5, -3.5, -1.0].into_iter().map(move |steps: f64| (steps * step) as f32);
    let largest_subnormal = (min_normal - step) as f32;
    Array1::from_iter(normal.chain(subnormal).chain(std::iter::once(largest_subnormal)))
}

fn ties<T: Element>(run: &Run) -> Outcome {
    const EPS: f32 = 0.0;
    let (norm, weight) = with_weights(run, HIDDEN, EPS, tie_weights::<T>())?;
    let rows = [1.0f32, -2.0, 0.5, 4.0];
    let values: Vec<f32> =
        rows.iter().flat_map(|&c| (0..HIDDEN).map(move |j| if j % 2 == 0 { c } else { -c })).collect();
    let x = ArrayD::from_shape_vec(IxDyn(&[rows.len(), HIDDEN]), values.into_iter().map(T::from_f32).collect())
        .expect("rows × hidden");
    let (actual, expected) = forward_and_reference(&norm, &weight, &x, EPS)?;
    observe_bits(run, &x, EPS, &weight, &actual, 1.0);
    // Bit for bit: every value here is exact until the one rounding asked about.
    assert_close(&text::code("forward(x)"), T::NAME, &actual.mapv(T::to_f64), &expected.mapv(T::to_f64), 0.0, 0.0)
}
