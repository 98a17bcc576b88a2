//! Diagnoses by property, for the mistakes a list of candidate outputs cannot enumerate. They
//! run on the learner's own `norm` and `forward`, after the cases, only when the check failed and
//! nothing else named the mistake, and they name at most one: the first property that fails.
//!
//! Each probe asks one question a correct RMSNorm answers in one way: do rows stay independent,
//! is the output scale-invariant and odd, does a NaN stay in its row, does any rank work, does a
//! reduced axis broadcast back. A probe that cannot run (the code panics on everything, the time
//! is up) names nothing.

pub(crate) mod backward_fit;
pub(crate) mod rounding;
pub(crate) mod scale_fit;

use std::panic::{catch_unwind, AssertUnwindSafe};

use ndarray::{ArrayD, IxDyn};
use tutor_grade::Fault;
use tutor_kit::{reference, NormError};

use crate::checks::{is_close, Build, Run};

/// The function a probe calls.
#[derive(Clone, Copy)]
enum Function {
    Norm,
    Forward,
}

/// What a call gave: an array, an error, a panic (with its message), or no answer at all (the
/// graded program ended, or the time ran out), which says nothing about any property.
enum Called {
    Array(ArrayD<f64>),
    Error,
    Panic(String),
    Unanswered,
}

impl Called {
    fn array(&self) -> Option<&ArrayD<f64>> {
        match self {
            Called::Array(a) => Some(a),
            _ => None,
        }
    }
}

/// The layer probes use: a fresh one from the learner's `new`, with the default weight.
fn call(run: &Run, function: Function, x: &ArrayD<f32>) -> Called {
    let hidden = *x.shape().last().unwrap_or(&1);
    let called = catch_unwind(AssertUnwindSafe(|| -> Result<ArrayD<f64>, NormError> {
        let layer = run.new_layer(hidden, 1e-6)?;
        match function {
            Function::Norm => layer.norm(x).map(|y| y.mapv(f64::from)),
            Function::Forward => layer.forward(x).map(|y| y.mapv(f64::from)),
        }
    }));
    match called {
        Ok(Ok(y)) => Called::Array(y),
        Ok(Err(_)) => Called::Error,
        Err(payload) => match payload.downcast_ref::<Fault>() {
            Some(Fault::Panicked { .. }) | None => Called::Panic(tutor_grade::outcome::unwind_message(payload)),
            Some(_) => Called::Unanswered,
        },
    }
}

fn right(x: &ArrayD<f32>) -> ArrayD<f64> {
    reference::rms_normalize(x, 1e-6).map(|y| y.mapv(f64::from)).unwrap_or_else(|_| x.mapv(|_| f64::NAN))
}

fn close(a: &ArrayD<f64>, b: &ArrayD<f64>, rtol: f64) -> bool {
    a.shape() == b.shape() && a.iter().zip(b.iter()).all(|(&x, &y)| is_close(x, y, 1e-6, rtol))
}

fn data(shape: &[usize], run: &Run, salt: u64) -> ArrayD<f32> {
    let mut rng = run.rng(salt);
    let values = (0..shape.iter().product()).map(|_| rng.normal() as f32 + 0.25).collect();
    ArrayD::from_shape_vec(IxDyn(shape), values).expect("shape and length agree")
}

/// The first property the learner's code breaks, as a mistake id. A probe that panics (tutor's
/// own bug: the learner's panics are caught inside `call`) is no evidence.
pub fn by_property(run: &Run) -> Option<&'static str> {
    let probes: [fn(&Run, Function) -> Option<&'static str>; 6] =
        [keepdim_forgotten, rank_assumed, nan_replaced, rows_mixed, not_scale_invariant, not_odd];
    for function in [Function::Norm, Function::Forward] {
        for probe in probes {
            if let Ok(Some(found)) = catch_unwind(AssertUnwindSafe(|| probe(run, function))) {
                return Some(found);
            }
        }
    }
    None
}

/// The call's output, only when it has the input's shape: the properties are about values, and
/// a wrong shape is the cases' finding, not a property's.
fn shaped<'a>(called: &'a Called, x: &ArrayD<f32>) -> Option<&'a ArrayD<f64>> {
    called.array().filter(|y| y.shape() == x.shape())
}

/// `[..., D] / [...]` fails to broadcast (ndarray: "incompatible shapes") on a batch, while a 1-D
/// input, whose statistic is a 0-d array, comes out right.
fn keepdim_forgotten(run: &Run, function: Function) -> Option<&'static str> {
    let batch = data(&[3, 5], run, 1);
    let single = data(&[5], run, 2);
    let panics_on_batch = matches!(call(run, function, &batch), Called::Panic(m) if m.contains("ncompatible shape"));
    let single_right = call(run, function, &single).array().is_some_and(|y| close(y, &right(&single), 1e-4));
    (panics_on_batch && single_right).then_some("keepdim-forgotten")
}

/// Right on a 3-D input, wrong (or refused) on a 1-D, 2-D or 4-D one.
fn rank_assumed(run: &Run, function: Function) -> Option<&'static str> {
    let three = data(&[2, 3, 4], run, 3);
    if !call(run, function, &three).array().is_some_and(|y| close(y, &right(&three), 1e-4)) {
        return None;
    }
    // A program that ended (its own `exit` on some later call, say) is no sign of a rank.
    let fails = |shape: &[usize], salt| {
        let x = data(shape, run, salt);
        match call(run, function, &x) {
            Called::Unanswered => None,
            called => Some(!called.array().is_some_and(|y| close(y, &right(&x), 1e-4))),
        }
    };
    let shapes: [(&[usize], u64); 3] = [(&[4], 4), (&[3, 4], 5), (&[2, 2, 3, 4], 6)];
    for (shape, salt) in shapes {
        if fails(shape, salt)? {
            return Some("rank-assumed");
        }
    }
    None
}

/// A NaN in row 1 must make all of row 1 NaN, and nothing else.
fn nan_replaced(run: &Run, function: Function) -> Option<&'static str> {
    let mut x = data(&[3, 4], run, 7);
    x[[1, 2]] = f32::NAN;
    let y = call(run, function, &x);
    let y = shaped(&y, &x)?;
    let row_kept = (0..4).all(|j| y[[1, j]].is_nan());
    let others_clean = [0, 2].iter().all(|&i| (0..4).all(|j| y[[i, j]].is_finite()));
    (!row_kept && others_clean).then_some("nan-replaced")
}

/// Changing row 0 must leave rows 1 and 2 as they were.
fn rows_mixed(run: &Run, function: Function) -> Option<&'static str> {
    let x = data(&[3, 4], run, 8);
    let mut changed = x.clone();
    changed.index_axis_mut(ndarray::Axis(0), 0).mapv_inplace(|v| v * 10.0 + 1.0);
    let (a, b) = (call(run, function, &x), call(run, function, &changed));
    let (a, b) = (shaped(&a, &x)?, shaped(&b, &x)?);
    let untouched = (1..3).all(|i| (0..4).all(|j| is_close(a[[i, j]], b[[i, j]], 1e-6, 1e-5)));
    (!untouched).then_some("rows-mixed")
}

/// `norm(10·x) = norm(x)` for inputs where eps is negligible.
fn not_scale_invariant(run: &Run, function: Function) -> Option<&'static str> {
    let x = data(&[3, 8], run, 9);
    let (a, b) = (call(run, function, &x), call(run, function, &x.mapv(|v| v * 10.0)));
    let (a, b) = (shaped(&a, &x)?, shaped(&b, &x)?);
    (!close(a, b, 1e-3)).then_some("not-scale-invariant")
}

/// `norm(−x) = −norm(x)`.
fn not_odd(run: &Run, function: Function) -> Option<&'static str> {
    let x = data(&[3, 8], run, 10);
    let (a, b) = (call(run, function, &x), call(run, function, &x.mapv(|v| -v)));
    let (a, b) = (shaped(&a, &x)?, shaped(&b, &x)?);
    (!close(a, &b.mapv(|v| -v), 1e-3)).then_some("not-odd")
}
