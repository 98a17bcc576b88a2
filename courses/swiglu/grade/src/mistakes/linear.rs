//! 02-linear's mistakes as candidate outputs.

use ndarray::{Array2, ArrayD, Axis};
use tutor_grade::candidate;
use tutor_kit::Float;

use super::Candidate;
use crate::oracle;

/// Linear's mistaken versions, rounded to `T`: products or sums in `T`; the FP32 weight unrounded;
/// the weight untransposed (square weights only); and, in FP32 or f64, `expected` shifted by the
/// first row's error in every row (a bias: the same vector added to every row).
pub fn linear_candidates<T: Float>(
    x: &ArrayD<T>,
    weight: &Array2<f32>,
    expected: &ArrayD<f64>,
    actual: &ArrayD<f64>,
) -> Vec<Candidate> {
    let x64 = x.mapv(T::to_f64);
    let mut out = vec![
        candidate("linear-low-precision-sum", "sum-in-t", products_in_t(x, weight, true)),
        candidate("linear-low-precision-sum", "products-in-t", products_in_t(x, weight, false)),
        candidate(
            "linear-weight-not-rounded",
            "fp32-weight",
            oracle::round::<T>(&oracle::project(&x64, &weight.mapv(f64::from))),
        ),
    ];
    if weight.is_square() {
        out.push(candidate(
            "linear-untransposed",
            "x-times-w",
            oracle::round::<T>(&oracle::linear(x, &weight.t().to_owned())),
        ));
    }
    // A bias read from the first row carries that row's rounding errors: in f16 or bf16 they
    // exceed the tolerance of a small output, and the fit would contradict a real bias.
    let resolves_fp32 = T::from_f32(1.0 + f32::EPSILON).to_f32() != 1.0;
    if let Some(bias) = same_shift(expected, actual).filter(|_| resolves_fp32) {
        out.push(candidate("linear-bias", "row-shift", oracle::round::<T>(&bias)));
    }
    out
}

/// `x·Wᵀ` with every product rounded to `T`, then added in `T` one at a time (`sum_in_t`), or
/// added exactly and rounded once (products in `T`, their sum in FP32).
fn products_in_t<T: Float>(x: &ArrayD<T>, weight: &Array2<f32>, sum_in_t: bool) -> ArrayD<f64> {
    let last = Axis(x.ndim() - 1);
    let mut shape = x.shape().to_vec();
    shape[last.index()] = weight.nrows();
    let mut y = ArrayD::<f64>::zeros(shape);
    for (row, mut out) in x.lanes(last).into_iter().zip(y.lanes_mut(last)) {
        for (j, w) in weight.outer_iter().enumerate() {
            let products = row.iter().zip(w).map(|(&a, &b)| a * T::from_f32(b));
            out[j] = if sum_in_t {
                products.fold(T::from_f32(0.0), |acc, p| acc + p).to_f64()
            } else {
                T::from_f64(products.map(T::to_f64).sum()).to_f64()
            };
        }
    }
    y
}

/// `expected` plus the difference `actual − expected` of its first row, in every row, when there
/// are several rows and that difference is not zero.
fn same_shift(expected: &ArrayD<f64>, actual: &ArrayD<f64>) -> Option<ArrayD<f64>> {
    if expected.shape() != actual.shape() || expected.ndim() == 0 {
        return None;
    }
    let last = Axis(expected.ndim() - 1);
    let first_shift =
        expected.lanes(last).into_iter().next().zip(actual.lanes(last).into_iter().next()).map(|(e, a)| &a - &e)?;
    let rows = expected.len() / first_shift.len().max(1);
    if rows < 2 || first_shift.iter().all(|v| v.abs() < 1e-6) {
        return None;
    }
    let mut shifted = expected.clone();
    for mut row in shifted.lanes_mut(last) {
        row += &first_shift;
    }
    Some(shifted)
}
