//! Diagnoses by property, for the mistakes a list of candidate outputs cannot enumerate. They
//! run on the learner's own `norm`, `forward` and `backward`, after the cases, only when the check
//! failed, and they name at most one mistake.
//!
//! First, before any evidence is read, [`state_kept`]: does an answer depend on what was asked
//! before? Code that keeps a result, statistics or a buffer between calls breaks every comparison
//! by accident, so that is its only name. Then, only when nothing else named the mistake,
//! [`by_property`]: the first property that fails. Each probe asks one question a correct RMSNorm
//! answers in one way: do rows stay independent, is the output scale-invariant and odd, does a
//! NaN stay in its row, does any rank work, does a reduced axis broadcast back. A probe that
//! cannot run (the code panics on everything, the time is up) names nothing.

use std::panic::{catch_unwind, AssertUnwindSafe};

use ndarray::ArrayD;
use tutor_grade::probe::{all_close, probe, Called, RowWise};
use tutor_grade::state::{self, Method};
use tutor_grade::Rng;
use tutor_kit::{reference, NormError};

use tutor_grade::{Course, Run};

use crate::subject::RMSNorm;
use crate::Build;

/// A function of the learner's layer a probe calls (`norm`, `forward`, backward's dx), widened to
/// f64.
type Apply = fn(&mut RMSNorm, &ArrayD<f32>) -> Result<ArrayD<f64>, NormError>;

/// The learner's function on `x`, on a fresh layer from the learner's `new` (default weight).
fn call(run: &Run, apply: Apply, x: &ArrayD<f32>) -> Called<ArrayD<f64>> {
    probe(|| apply(&mut run.new_layer(*x.shape().last().unwrap_or(&1), 1e-6)?, x))
}

/// Whether `function` of a layer answers depending on what was asked before, as the core diagnosis ([`tutor_grade::state`]) probes it: fresh layers
/// of hidden size 4 from the learner's `new` (default weight), inputs `[1, rows, 4]`. A layer whose
/// weight a call changed (an optimiser step in backward) is the cases' finding, not this one.
fn kept_between_calls(run: &Run, name: &'static str, apply: Apply, right: &Right) -> bool {
    let method = Method {
        name,
        fresh: &|| run.new_layer(4, 1e-6),
        call: &|layer: &mut RMSNorm, x: &ArrayD<f32>| apply(layer, x),
        right,
        input: &|rng: &mut Rng, rows| rng.normal_array(&[1, rows, 4]),
        intact: &|layer: &RMSNorm| layer.weight().value.iter().all(|&w| w == 1.0),
    };
    // Through the course's declared stateful methods (none: every RMSNorm method is a function).
    state::state_kept(&[&method], crate::COURSE.stateful(), &|salt| run.rng(salt)).is_some()
}

fn right(x: &ArrayD<f32>) -> ArrayD<f64> {
    reference::rms_normalize(x, 1e-6).map(|y| y.mapv(f64::from)).unwrap_or_else(|_| x.mapv(|_| f64::NAN))
}

/// The right answer of a function the probes call, widened to f64.
type Right = dyn Fn(&ArrayD<f32>) -> ArrayD<f64>;

/// A property a right answer keeps, and the mistake that breaks it.
type Property = (&'static str, fn(&RowWise) -> bool);

/// The first property the learner's code breaks, as a mistake id: the row-wise ones, then
/// `norm(10·x) = norm(x)` (eps negligible) and `norm(−x) = −norm(x)`; of `norm`, then `forward`,
/// then the row-wise ones of backward's dx. A probe that panics (tutor's own bug: the learner's
/// panics are caught inside `call`) is no evidence.
pub fn by_property(run: &Run) -> Option<&'static str> {
    let properties: [Property; 6] = [
        ("keepdim-forgotten", |rows| rows.reduced_axis_dropped()),
        ("rank-assumed", |rows| rows.rank_assumed()),
        ("nan-replaced", |rows| rows.nan_leaves_its_row()),
        ("rows-mixed", |rows| rows.rows_mixed()),
        ("not-scale-invariant", |rows| {
            rows.pair(&[3, 8], 9, |v| v * 10.0).is_some_and(|(a, b)| !all_close(&a, &b, 1e-6, 1e-3))
        }),
        ("not-odd", |rows| rows.pair(&[3, 8], 10, |v| -v).is_some_and(|(a, b)| !all_close(&a, &-b, 1e-6, 1e-3))),
    ];
    let rights: [&Right; 3] = [&right, &right, &right_dx];
    for (index, (function, right)) in FUNCTIONS.into_iter().zip(rights).enumerate() {
        let learner = |x: &ArrayD<f32>| call(run, function, x);
        let rows = RowWise { learner: &learner, right, rng: &|salt| run.rng(salt) };
        // Backward's dx keeps neither scale nor sign (those are forward's properties): only the
        // row-wise questions are asked of it. A backward whose statistics mix rows or assume a
        // rank makes the same mistake forward would, and has the same name.
        let asked = if index == 2 { &properties[..4] } else { &properties[..] };
        if let Some(mistake) = first_broken(asked, &rows) {
            return Some(mistake);
        }
    }
    None
}

/// The learner's `norm`, `forward` and backward's dx, as the probes call them.
const FUNCTIONS: [Apply; 3] = [
    |layer, x| Ok(layer.norm(x)?.mapv(f64::from)),
    |layer, x| Ok(layer.forward(x)?.mapv(f64::from)),
    |layer, x| Ok(layer.backward(x, &upstream(x.shape()))?.mapv(f64::from)),
];

/// The names of [`FUNCTIONS`], as the protocol declares them.
const NAMES: [&str; 3] = ["RMSNorm.norm", "RMSNorm.forward", "RMSNorm.backward"];

/// `state-kept-between-calls` when `norm`, `forward` or backward's dx answers depending on what
/// was asked before, or forward applies the weight of an earlier layer. Such code breaks every
/// comparison and property by accident, so this is asked first, before any evidence is read.
pub fn state_kept(run: &Run) -> Option<&'static str> {
    let rights: [&Right; 3] = [&right, &right, &right_dx];
    let kept = NAMES.into_iter().zip(FUNCTIONS).zip(rights).any(|((name, function), right)| {
        catch_unwind(AssertUnwindSafe(|| kept_between_calls(run, name, function, right))).unwrap_or(false)
    }) || catch_unwind(AssertUnwindSafe(|| super::weight_kept::weight_kept(run))).unwrap_or(false);
    kept.then_some(state::MISTAKE)
}

/// The first of `properties` the learner's map `rows` breaks.
fn first_broken(properties: &[Property], rows: &RowWise) -> Option<&'static str> {
    let broken = |property: &Property| catch_unwind(AssertUnwindSafe(|| (property.1)(rows))).unwrap_or(false);
    properties.iter().find(|property| broken(property)).map(|property| property.0)
}

/// An upstream gradient for an input of `shape`, fixed by position (so that changing one row
/// of x changes nothing else): values from 0.5 to 1.5.
fn upstream(shape: &[usize]) -> ArrayD<f32> {
    ArrayD::from_shape_fn(shape, |i: ndarray::IxDyn| {
        0.5 + (ndarray::Dimension::slice(&i).iter().sum::<usize>() % 5) as f32 * 0.25
    })
}

/// The right dx for `x` and [`upstream`], with the default weight (ones) and eps 1e-6.
fn right_dx(x: &ArrayD<f32>) -> ArrayD<f64> {
    let ones = vec![1.0; *x.shape().last().unwrap_or(&1)];
    crate::oracle::backward(&x.mapv(f64::from), &upstream(x.shape()).mapv(f64::from), &ones, 1e-6).0
}
