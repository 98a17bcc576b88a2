//! Element-wise comparison with the semantics and report of `torch.testing.assert_close`:
//! `|actual − expected| ≤ atol + rtol·|expected|`, NaN equal to NaN, infinities equal only to
//! themselves.

use ndarray::ArrayD;

use crate::outcome::Failure;
use crate::report::{Mismatch, NonFinite};
use crate::text::{self, Bi};

/// `torch.testing.assert_close`'s default tolerances (atol, rtol) for `T`.
pub fn torch_tolerance<T: tutor_subject::Float>() -> (f64, f64) {
    match T::NAME {
        "float16" => (1e-5, 1e-3),
        "bfloat16" => (1e-5, 1.6e-2),
        "float64" => (1e-7, 1e-7),
        _ => (1e-5, 1.3e-6),
    }
}

/// Tensors up to this many elements are carried whole, to be shown side by side.
const SHOWN_WHOLE: usize = 64;

/// [`assert_close`] of `what` (a code span, `dtype` its element type), its failure saying which
/// output of which dtype differs (a long output shows no table, where the dtype would otherwise be
/// read).
pub fn close(
    what: &str,
    dtype: &str,
    actual: &ArrayD<f64>,
    expected: &ArrayD<f64>,
    (atol, rtol): (f64, f64),
) -> Result<(), Failure> {
    assert_close(&text::code(what), dtype, actual, expected, atol, rtol).map_err(|mut failure| {
        if failure.mismatch.is_some() {
            failure.message = text::output_differs(what, dtype);
        }
        failure
    })
}

/// Compares `actual` with `expected`; on a difference returns a failure with the full mismatch
/// statistics (count, greatest absolute and relative difference and where, the tolerance).
pub fn assert_close(
    what: &Bi,
    dtype: &str,
    actual: &ArrayD<f64>,
    expected: &ArrayD<f64>,
    atol: f64,
    rtol: f64,
) -> Result<(), Failure> {
    if actual.shape() != expected.shape() {
        return Err(Failure::new(text::wrong_shape(what, expected.shape(), actual.shape())));
    }
    let shape = actual.shape().to_vec();
    let mut mismatch = Mismatch {
        what: what.clone(),
        dtype: dtype.to_string(),
        shape: shape.clone(),
        total: actual.len(),
        atol,
        rtol,
        ..Mismatch::default()
    };
    // As torch.testing: only mismatched elements count (matched ones count as 0), and a NaN
    // difference is the greatest (torch.max propagates it).
    let mut worst_abs = (0.0f64, 0usize);
    let mut worst_rel = (0.0f64, 0usize);
    let greater = |candidate: f64, worst: f64| !worst.is_nan() && (candidate.is_nan() || candidate > worst);
    for (flat, (&a, &e)) in actual.iter().zip(expected.iter()).enumerate() {
        if is_close(a, e, atol, rtol) {
            continue;
        }
        if !a.is_finite() && e.is_finite() && mismatch.non_finite.is_none() {
            let at = unravel(flat, &shape);
            mismatch.non_finite = Some(NonFinite { at, actual: a, expected: e, input: None });
        }
        mismatch.mismatched += 1;
        let abs = (a - e).abs();
        let rel = abs / e.abs();
        if greater(abs, worst_abs.0) {
            worst_abs = (abs, flat);
        }
        if greater(rel, worst_rel.0) {
            worst_rel = (rel, flat);
        }
    }
    if mismatch.mismatched == 0 {
        return Ok(());
    }
    mismatch.max_abs = worst_abs.0;
    mismatch.max_abs_at = unravel(worst_abs.1, &shape);
    mismatch.max_rel = worst_rel.0;
    mismatch.max_rel_at = unravel(worst_rel.1, &shape);
    if actual.len() <= SHOWN_WHOLE {
        mismatch.expected = expected.iter().copied().collect();
        mismatch.actual = actual.iter().copied().collect();
    }
    Err(Failure { message: text::differs(what), mismatch: Some(Box::new(mismatch)), mistake: None })
}

/// The first thing a comparison of a shape-keeping call checks, before any value is compared or
/// any element indexed: `Ok` when `output` has the shape of `input`, otherwise the failure that
/// says so for `call` (a rank lower, a flattened or an empty array).
pub fn same_as_input(call: &str, output: &[usize], input: &[usize]) -> Result<(), Failure> {
    if output == input {
        return Ok(());
    }
    Err(Failure::new(text::returned_shape(call, output, input)))
}

/// Whether one element passes: `|actual − expected| ≤ atol + rtol·|expected|`, NaN equal to
/// NaN, an infinity equal to itself only.
pub fn is_close(actual: f64, expected: f64, atol: f64, rtol: f64) -> bool {
    if actual.is_nan() || expected.is_nan() {
        return actual.is_nan() && expected.is_nan();
    }
    if actual.is_infinite() || expected.is_infinite() {
        return actual == expected;
    }
    (actual - expected).abs() <= atol + rtol * expected.abs()
}

/// Turns a row-major flat index into a multi-index.
pub fn unravel(mut flat: usize, shape: &[usize]) -> Vec<usize> {
    let mut index = vec![0; shape.len()];
    for (slot, &len) in index.iter_mut().zip(shape).rev() {
        if len > 0 {
            *slot = flat % len;
            flat /= len;
        }
    }
    index
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::{array, IxDyn};

    #[test]
    fn reports_count_worst_element_and_index() {
        let expected = array![[1.0, 2.0], [3.0, 4.0]].into_dyn();
        let actual = array![[1.0, 2.5], [3.0, f64::NAN]].into_dyn();
        let failure = assert_close(&text::code("y"), "float32", &actual, &expected, 1e-6, 1e-5).unwrap_err();
        let m = failure.mismatch.unwrap();
        assert_eq!((m.mismatched, m.total), (2, 4));
        assert_eq!(m.max_abs_at, vec![1, 1]);
        assert!(m.max_abs.is_nan(), "a NaN difference is the greatest, as torch.testing says");
        assert_eq!(m.actual.len(), 4);
    }

    #[test]
    fn only_mismatched_elements_make_the_greatest_differences() {
        // The first element is off by 1e-3 but within rtol; the second by 1e-4 and outside atol.
        let expected = array![1000.0, 0.0, 2.0].into_dyn();
        let actual = array![1000.001, 1e-4, 2.0].into_dyn();
        let m =
            assert_close(&text::code("y"), "float32", &actual, &expected, 1e-5, 1.3e-6).unwrap_err().mismatch.unwrap();
        assert_eq!((m.mismatched, m.max_abs_at.clone(), m.max_rel_at.clone()), (1, vec![1], vec![1]));
        assert!((m.max_abs - 1e-4).abs() < 1e-12 && m.max_rel.is_infinite(), "{} {}", m.max_abs, m.max_rel);
        // An infinity where a finite value belongs: infinite absolute difference, NaN relative one
        // against an infinite expected value (inf / inf), as torch computes them.
        let expected = array![f64::INFINITY, 1.0].into_dyn();
        let actual = array![1.0, f64::INFINITY].into_dyn();
        let m =
            assert_close(&text::code("y"), "float32", &actual, &expected, 1e-5, 1.3e-6).unwrap_err().mismatch.unwrap();
        assert!(m.max_abs.is_infinite() && m.max_abs_at == vec![0], "{:?}", m.max_abs_at);
        assert!(m.max_rel.is_nan() && m.max_rel_at == vec![0], "{} {:?}", m.max_rel, m.max_rel_at);
    }

    #[test]
    fn tolerance_is_absolute_plus_relative_and_nan_matches_nan() {
        let expected = array![100.0, f64::NAN, f64::INFINITY].into_dyn();
        let within = array![100.0 + 1e-3 - 1e-9, f64::NAN, f64::INFINITY].into_dyn();
        assert!(assert_close(&text::code("y"), "float32", &within, &expected, 0.0, 1e-5).is_ok());
        let outside = array![100.0 + 2e-3, f64::NAN, f64::INFINITY].into_dyn();
        assert!(assert_close(&text::code("y"), "float32", &outside, &expected, 0.0, 1e-5).is_err());
        let wrong_inf = array![100.0, f64::NAN, f64::NEG_INFINITY].into_dyn();
        assert!(assert_close(&text::code("y"), "float32", &wrong_inf, &expected, 0.0, 1e-5).is_err());
    }

    #[test]
    fn a_shape_difference_is_its_own_failure() {
        let a = ArrayD::<f64>::zeros(IxDyn(&[2, 2]));
        let b = ArrayD::<f64>::zeros(IxDyn(&[4]));
        let failure = assert_close(&text::code("y"), "float32", &a, &b, 0.0, 0.0).unwrap_err();
        assert!(failure.mismatch.is_none());
        assert!(failure.message.en.contains("[2, 2]"), "{}", failure.message.en);
        assert_eq!(unravel(5, &[2, 3]), vec![1, 2]);
        assert!(same_as_input("f(x)", &[2, 3], &[2, 3]).is_ok());
        let flattened = same_as_input("f(x)", &[6], &[2, 3]).unwrap_err();
        assert!(flattened.message.en.contains("returned shape [6] for input [2, 3]"), "{}", flattened.message.en);
    }
}
