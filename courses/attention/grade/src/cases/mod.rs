//! The graded contracts, one file per exercise (tutor_grade's case runner runs them, each in
//! isolation), and what they share: tolerances, comparison with named candidates, errors.

mod attention;
mod backward;
mod cache;
mod gqa;
mod rope;
mod softmax;

use ndarray::ArrayD;
use tutor_grade::rounding::Spacing;
use tutor_grade::{assert_close, grading, Case, Outcome, Run};
use tutor_kit::Float;

use crate::mistakes::Candidate;
use crate::subject::Subject;
use crate::text;

/// Every case, in the order they run and are shown, each grading its exercise's TODO.
pub fn all() -> Vec<Case> {
    [
        grading(&[1], rope::cases()),
        grading(&[2], softmax::cases()),
        grading(&[3], attention::cases()),
        grading(&[4], gqa::cases()),
        grading(&[5], cache::cases()),
        grading(&[6], backward::cases()),
    ]
    .concat()
}

/// The learner's code behind the run's channel.
pub fn learner<'c>(run: &Run<'c>) -> Subject<'c> {
    Subject::new(run.channel)
}

/// Widens a `T` array to f64.
pub use crate::oracle::wide;
/// `assert_close`'s tolerance for `T`.
pub use tutor_grade::compare::torch_tolerance as tolerance;

/// Compares under (atol, rtol) and records what the comparison says about the known mistakes
/// (`candidates`, worked out only if some case fails).
pub fn compare<'c>(
    run: &Run<'c>,
    what: &str,
    dtype: &str,
    actual: &ArrayD<f64>,
    expected: &ArrayD<f64>,
    (atol, rtol): (f64, f64),
    candidates: impl FnOnce() -> Vec<Candidate> + 'c,
) -> Outcome {
    run.observe_close(actual, expected, (atol, rtol), candidates);
    assert_close(&text::code(what), dtype, actual, expected, atol, rtol).map_err(|mut failure| {
        if failure.mismatch.is_some() {
            failure.message = text::differs(what, dtype);
        }
        failure
    })
}

/// A call's value, or the documented error.
pub use tutor_grade::expect::{err, ok};

/// The largest finite value of `T`: below twice the largest power of two it holds, by one step.
pub fn t_max<T: Float>() -> f64 {
    let mut p = 1.0f64;
    while T::from_f64(2.0 * p).to_f64().is_finite() {
        p *= 2.0;
    }
    p + (p - Spacing::of::<T>().at(p))
}
