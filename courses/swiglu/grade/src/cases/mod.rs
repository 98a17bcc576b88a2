//! The graded contracts, one per exercise (tutor_grade's case runner runs them, each in
//! isolation), and what they share: tolerances, comparison with named candidates, calls.

mod backward;
mod block;
mod hidden;
pub mod linear;
mod silu;

use ndarray::ArrayD;
use tutor_grade::{assert_close, is_close, Case, Failure, Outcome, Run};
use tutor_kit::{Float, MlpError};

use crate::subject::Subject;
use crate::text;

/// Every case, in the order they run and are shown.
pub fn all() -> Vec<Case> {
    let mut all = silu::cases();
    all.extend(linear::cases());
    all.extend(hidden::cases());
    all.extend(block::cases());
    all.extend(backward::cases());
    all
}

/// The learner's code behind the run's channel, through the course's declared calls.
pub fn learner<'c>(run: &Run<'c>) -> Subject<'c> {
    Subject::new(run.channel)
}

/// `torch.testing.assert_close`'s default tolerances (atol, rtol) for `T`.
pub fn tolerance<T: Float>() -> (f64, f64) {
    match T::NAME {
        "float16" => (1e-5, 1e-3),
        "bfloat16" => (1e-5, 1.6e-2),
        "float64" => (1e-7, 1e-7),
        _ => (1e-5, 1.3e-6),
    }
}

/// A mistaken answer's output, to be compared only when the right one failed.
pub type Candidate = (&'static str, ArrayD<f64>);

/// Compares `actual` with `expected` under (atol, rtol); on a failure, names the first candidate
/// mistake whose output `actual` matches everywhere (exact evidence, or no name).
pub fn compare(
    what: &str,
    dtype: &str,
    actual: &ArrayD<f64>,
    expected: &ArrayD<f64>,
    (atol, rtol): (f64, f64),
    candidates: impl FnOnce() -> Vec<Candidate>,
) -> Outcome {
    assert_close(&text::code(what), dtype, actual, expected, atol, rtol).map_err(|failure| {
        let named = candidates().into_iter().find(|(_, c)| {
            c.shape() == actual.shape() && actual.iter().zip(c).all(|(&a, &c)| is_close(a, c, atol, rtol))
        });
        failure.with_mistake(named.map(|(id, _)| id))
    })
}

/// Unwraps a call that must succeed.
pub fn ok<V>(what: &str, result: Result<V, MlpError>) -> Result<V, Failure> {
    result.map_err(|e| Failure::new(text::call_failed(what, &e.text())))
}

/// Requires a call to fail.
pub fn err<V>(what: &str, result: Result<V, MlpError>) -> Outcome {
    match result {
        Ok(_) => Err(Failure::new(text::expected_error(what))),
        Err(_) => Ok(()),
    }
}

/// Widens a `T` array to f64.
pub fn wide<T: Float>(x: &ArrayD<T>) -> ArrayD<f64> {
    x.mapv(|v| v.to_f64())
}
