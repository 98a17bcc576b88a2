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
use std::sync::atomic::{AtomicUsize, Ordering};

use ndarray::{ArrayD, Axis};
use tutor_grade::probe::{all_close, probe, Called, RowWise};
use tutor_kit::{reference, NormError};

use tutor_grade::Run;

use crate::subject::RMSNorm;
use crate::Build;

/// A function of the learner's layer a probe calls (`norm`, `forward`, backward's dx), widened to
/// f64.
type Apply = fn(&mut RMSNorm, &ArrayD<f32>) -> Result<ArrayD<f64>, NormError>;

/// The learner's function on `x`, on a fresh layer from the learner's `new` (default weight).
fn call(run: &Run, apply: Apply, x: &ArrayD<f32>) -> Called<ArrayD<f64>> {
    probe(|| apply(&mut run.new_layer(*x.shape().last().unwrap_or(&1), 1e-6)?, x))
}

/// Whether the answer depends on what was asked before, asked with up to three row counts no
/// case uses (a count a case used may already be in a cache). Each time a process asks, it takes
/// the next counts: a program graded several times in one process (tutor's own tests, which grade
/// a file with four seeds while other files take counts too) has its first counts cached, and a
/// count it has seen is no evidence either way, so there are many.
fn kept_between_calls(run: &Run, apply: Apply, right: &Right) -> bool {
    const UNUSED_ROW_COUNTS: [usize; 36] = [
        13, 37, 41, 43, 47, 53, 59, 61, 67, 71, 73, 79, 83, 89, 97, 101, 103, 107, 109, 113, 127, 131, 137, 139, 149,
        151, 157, 163, 167, 173, 179, 181, 191, 193, 197, 199,
    ];
    static ASKED: AtomicUsize = AtomicUsize::new(0);
    (0..3).any(|_| {
        let next = ASKED.fetch_add(1, Ordering::Relaxed) % UNUSED_ROW_COUNTS.len();
        kept_for(run, apply, right, UNUSED_ROW_COUNTS[next])
    })
}

/// One layer is asked for `first`, then for `second` of the same shape; a fresh layer for
/// `second` with more rows after it, and another for `first` again. A right answer is a function
/// of its input: code whose first answer and whose longer answer are right, but whose answer to
/// `second` after `first` is not (a result, statistics or a buffer kept for the shape or the row
/// count), or that answers the same input twice differently, keeps something between calls. A
/// layer whose weight a call changed (an optimiser step in backward) is the cases' finding, not
/// this one.
fn kept_for(run: &Run, apply: Apply, right: &Right, rows: usize) -> bool {
    let mut rng = run.rng(12 + rows as u64);
    let first: ArrayD<f32> = rng.normal_array(&[1, rows, 4]);
    let second: ArrayD<f32> = rng.normal_array(&[1, rows, 4]);
    let extra: ArrayD<f32> = rng.normal_array(&[1, 6, 4]);
    let Ok(longer) = ndarray::concatenate(Axis(1), &[second.view(), extra.view()]) else {
        return false;
    };
    let answers = probe(|| {
        let mut layer = run.new_layer(4, 1e-6)?;
        let a = apply(&mut layer, &first)?;
        let b = apply(&mut layer, &second)?;
        let weight_kept = layer.weight().value.iter().all(|&w| w == 1.0);
        let c = apply(&mut run.new_layer(4, 1e-6)?, &longer)?;
        let again = apply(&mut run.new_layer(4, 1e-6)?, &first)?;
        Ok::<_, NormError>((a, b, c, again, weight_kept))
    });
    let Called::Value((a, b, c, again, true)) = answers else {
        return false;
    };
    let close = |y: &ArrayD<f64>, x: &ArrayD<f32>| all_close(y, &right(x), 1e-6, 1e-3);
    // The first answer right: a constant output (zeros, say) is not a result kept.
    if !close(&a, &first) || right(&first) == right(&second) {
        return false;
    }
    let head = (c.ndim() == 3 && c.shape()[1] > rows).then(|| c.slice_axis(Axis(1), (..rows).into()).to_owned());
    let same_bits = a.shape() == again.shape() && a.iter().zip(again.iter()).all(|(p, q)| p.to_bits() == q.to_bits());
    let stale = head.is_some_and(|head| close(&head, &second)) && !close(&b, &second);
    stale || !same_bits
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

/// `state-kept-between-calls` when `norm`, `forward` or backward's dx answers depending on what
/// was asked before, or forward applies the weight of an earlier layer. Such code breaks every
/// comparison and property by accident, so this is asked first, before any evidence is read.
pub fn state_kept(run: &Run) -> Option<&'static str> {
    let rights: [&Right; 3] = [&right, &right, &right_dx];
    let kept = FUNCTIONS.into_iter().zip(rights).any(|(function, right)| {
        catch_unwind(AssertUnwindSafe(|| kept_between_calls(run, function, right))).unwrap_or(false)
    }) || catch_unwind(AssertUnwindSafe(|| super::weight_kept::weight_kept(run))).unwrap_or(false);
    kept.then_some("state-kept-between-calls")
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
