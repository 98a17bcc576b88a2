//! The graded contracts, one file per exercise (tutor_grade's case runner runs them, each in
//! isolation), and what they share: tolerances, comparison with named candidates, errors.

mod attention;
mod backward;
mod cache;
mod gqa;
mod rope;
mod softmax;

use tutor_grade::rounding::Spacing;
use tutor_grade::{grading, Case, Run};
use tutor_kit::Float;

use crate::subject::Subject;

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
