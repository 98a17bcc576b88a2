//! Calls made to probe a property of the learner's code after the cases (does a row stay
//! independent, is the output scale-invariant …), where what matters is what kind of answer came
//! back: a value, an error, a panic (and its message), or no answer at all (the graded program
//! ended, the time ran out), which says nothing about any property. [`RowWise`] asks the questions
//! every map applied row by row answers one way (a normalisation, a softmax …).

use std::panic::{catch_unwind, AssertUnwindSafe};

use ndarray::{ArrayD, Axis, IxDyn};

use crate::compare::is_close;
use crate::data::Rng;
use crate::fault::Fault;
use crate::outcome::unwind_message;

/// What a probe's call gave.
#[derive(Debug, Clone, PartialEq)]
pub enum Called<V> {
    /// An answer.
    Value(V),
    /// An `Err` the learner's code returned.
    Error,
    /// A panic of the learner's code, with its message.
    Panic(String),
    /// No answer: the program ended or ran out of time.
    Unanswered,
}

impl<V> Called<V> {
    /// The answer, if there was one.
    pub fn value(&self) -> Option<&V> {
        match self {
            Called::Value(v) => Some(v),
            _ => None,
        }
    }
}

/// Runs `call` (calls into the learner's code) and says what kind of answer came back.
pub fn probe<V, E>(call: impl FnOnce() -> Result<V, E>) -> Called<V> {
    match catch_unwind(AssertUnwindSafe(call)) {
        Ok(Ok(v)) => Called::Value(v),
        Ok(Err(_)) => Called::Error,
        Err(payload) => match payload.downcast_ref::<Fault>() {
            Some(Fault::Panicked { .. }) | None => Called::Panic(unwind_message(payload)),
            Some(_) => Called::Unanswered,
        },
    }
}

/// Whether two arrays have one shape and every element passes `is_close` (NaN equal to NaN).
pub fn all_close(a: &ArrayD<f64>, b: &ArrayD<f64>, atol: f64, rtol: f64) -> bool {
    a.shape() == b.shape() && a.iter().zip(b.iter()).all(|(&x, &y)| is_close(x, y, atol, rtol))
}

/// A map applied row by row, along the last axis of f32 arrays, as the learner wrote it, against
/// the right one; inputs are drawn (normal, shifted by 0.25) from `rng(salt)`.
pub struct RowWise<'a> {
    /// The learner's map, each call on a fresh state.
    pub learner: &'a dyn Fn(&ArrayD<f32>) -> Called<ArrayD<f64>>,
    /// The right map.
    pub right: &'a dyn Fn(&ArrayD<f32>) -> ArrayD<f64>,
    /// The generator for a salt.
    pub rng: &'a dyn Fn(u64) -> Rng,
}

impl RowWise<'_> {
    /// An input of `shape`.
    pub fn data(&self, shape: &[usize], salt: u64) -> ArrayD<f32> {
        let mut rng = (self.rng)(salt);
        let values = (0..shape.iter().product()).map(|_| rng.normal() as f32 + 0.25).collect();
        ArrayD::from_shape_vec(IxDyn(shape), values).expect("shape and length agree")
    }

    /// Whether the learner's map is right on `x` (`None`: no answer, which says nothing).
    fn right_on(&self, x: &ArrayD<f32>) -> Option<bool> {
        match (self.learner)(x) {
            Called::Unanswered => None,
            called => Some(called.value().is_some_and(|y| all_close(y, &(self.right)(x), 1e-6, 1e-4))),
        }
    }

    /// The learner's output on `x`, only when it has `x`'s shape: the properties are about
    /// values, and a wrong shape is the cases' finding.
    pub fn shaped(&self, x: &ArrayD<f32>) -> Option<ArrayD<f64>> {
        (self.learner)(x).value().filter(|y| y.shape() == x.shape()).cloned()
    }

    /// The learner's outputs on an input of `shape` and on it transformed element by element.
    pub fn pair(&self, shape: &[usize], salt: u64, transform: fn(f32) -> f32) -> Option<(ArrayD<f64>, ArrayD<f64>)> {
        let x = self.data(shape, salt);
        Some((self.shaped(&x)?, self.shaped(&x.mapv(transform))?))
    }

    /// The reduced axis not put back: `[..., D] / [...]` fails to broadcast (ndarray: "incompatible
    /// shapes") on a batch, while one row, whose statistic is 0-d, comes out right.
    pub fn reduced_axis_dropped(&self) -> bool {
        let panics =
            matches!((self.learner)(&self.data(&[3, 5], 1)), Called::Panic(m) if m.contains("ncompatible shape"));
        panics && self.right_on(&self.data(&[5], 2)) == Some(true)
    }

    /// Right on a 3-D input, far off (or refused) on a 1-D, 2-D or 4-D one. Far off, not merely
    /// outside the tolerance: a formula slightly wrong everywhere (eps left out of one term)
    /// misses the tolerance on one row and meets it on another, whatever the rank.
    pub fn rank_assumed(&self) -> bool {
        let shapes: [&[usize]; 3] = [&[4], &[3, 4], &[2, 2, 3, 4]];
        self.right_on(&self.data(&[2, 3, 4], 3)) == Some(true)
            && shapes.iter().zip(4..).any(|(shape, salt)| self.far_off_on(&self.data(shape, salt)) == Some(true))
    }

    /// Whether the learner's map is far from right on `x` (`None`: no answer): refused, panicked,
    /// of another shape, or off by more than a hundred times the tolerance of [`Self::right_on`].
    fn far_off_on(&self, x: &ArrayD<f32>) -> Option<bool> {
        match (self.learner)(x) {
            Called::Unanswered => None,
            called => Some(!called.value().is_some_and(|y| all_close(y, &(self.right)(x), 1e-4, 1e-2))),
        }
    }

    /// A NaN in row 1 does not make all of row 1 NaN, though the other rows stay finite and
    /// right: only a map right everywhere else is said to mishandle the NaN (a map that does not
    /// normalise at all also leaves a NaN alone, and that is not its mistake).
    pub fn nan_leaves_its_row(&self) -> bool {
        let mut x = self.data(&[3, 4], 7);
        x[[1, 2]] = f32::NAN;
        let Some(y) = self.shaped(&x) else { return false };
        let right = (self.right)(&x);
        let row = |a: &ArrayD<f64>, i: usize| a.index_axis(Axis(0), i).to_owned().into_dyn();
        let others_right = [0, 2].iter().all(|&i| all_close(&row(&y, i), &row(&right, i), 1e-6, 1e-4));
        !row(&y, 1).iter().all(|v| v.is_nan()) && others_right
    }

    /// Changing row 0 changes rows 1 and 2 too.
    pub fn rows_mixed(&self) -> bool {
        let x = self.data(&[3, 4], 8);
        let mut changed = x.clone();
        changed.index_axis_mut(Axis(0), 0).mapv_inplace(|v| v * 10.0 + 1.0);
        let (Some(a), Some(b)) = (self.shaped(&x), self.shaped(&changed)) else { return false };
        let rest = |y: &ArrayD<f64>| y.slice_axis(Axis(0), (1..).into()).to_owned();
        !all_close(&rest(&a), &rest(&b), 1e-6, 1e-5)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_probe_tells_an_answer_an_error_a_panic_and_no_answer_apart() {
        crate::outcome::install_quiet_panic_hook();
        assert_eq!(probe(|| Ok::<_, ()>(3)), Called::Value(3));
        assert_eq!(probe(|| Err::<u8, _>(())), Called::Error);
        assert_eq!(
            probe(|| -> Result<u8, ()> { panic!("incompatible shapes") }),
            Called::Panic("incompatible shapes".into())
        );
        let ended = probe(|| -> Result<u8, ()> {
            std::panic::panic_any(Fault::TimedOut { limit_secs: 1.0, during_this_case: true })
        });
        assert_eq!((ended.value(), &ended), (None, &Called::Unanswered));
        let a = ndarray::arr1(&[1.0, f64::NAN]).into_dyn();
        assert!(all_close(&a, &a, 0.0, 0.0) && !all_close(&a, &ndarray::arr1(&[1.1, f64::NAN]).into_dyn(), 0.0, 0.05));
    }

    /// Each row divided by its sum of squares, right; and ways of getting it wrong.
    fn by_rows(x: &ArrayD<f32>, stats: impl Fn(&ArrayD<f64>) -> ArrayD<f64>) -> ArrayD<f64> {
        let x = x.mapv(f64::from);
        if x.ndim() == 0 {
            return x;
        }
        &x / &stats(&x)
    }

    fn keep(x: &ArrayD<f64>) -> ArrayD<f64> {
        let last = Axis(x.ndim() - 1);
        x.mapv(|v| v * v).sum_axis(last).insert_axis(last)
    }

    fn asks(learner: &dyn Fn(&ArrayD<f32>) -> Called<ArrayD<f64>>) -> [bool; 4] {
        let right = |x: &ArrayD<f32>| by_rows(x, keep);
        let rows = RowWise { learner, right: &right, rng: &Rng::new };
        [rows.reduced_axis_dropped(), rows.rank_assumed(), rows.nan_leaves_its_row(), rows.rows_mixed()]
    }

    #[test]
    fn each_row_wise_property_is_asked_of_the_learners_map() {
        crate::outcome::install_quiet_panic_hook();
        assert_eq!(asks(&|x| Called::Value(by_rows(x, keep))), [false; 4], "the right map breaks nothing");
        let dropped = |x: &ArrayD<f32>| match x.ndim() {
            1 => Called::Value(by_rows(x, keep)),
            _ => Called::Panic("ndarray: could not broadcast: incompatible shapes".into()),
        };
        assert_eq!(asks(&dropped), [true, false, false, false]);
        let three = |x: &ArrayD<f32>| if x.ndim() == 3 { Called::Value(by_rows(x, keep)) } else { Called::Error };
        assert_eq!(asks(&three), [false, true, false, false]);
        let nan_dropped = |x: &ArrayD<f32>| Called::Value(by_rows(&x.mapv(|v| if v.is_nan() { 0.0 } else { v }), keep));
        assert_eq!(asks(&nan_dropped), [false, false, true, false]);
        // A map that does not normalise leaves a NaN alone too; that is not its mistake.
        let untouched = |x: &ArrayD<f32>| Called::Value(x.mapv(f64::from));
        assert!(!asks(&untouched)[2], "no normalisation is not a NaN mishandled");
        let whole = |x: &ArrayD<f32>| Called::Value(by_rows(x, |x| x.mapv(|v| v * v).sum() * x.mapv(|_| 1.0)));
        assert!(asks(&whole)[3], "statistics over the whole tensor mix the rows");
    }
}
