//! Diagnoses by property, for the mistakes a list of candidate outputs cannot enumerate. They
//! run on the learner's own `norm` and `forward`, after the cases, only when the check failed and
//! nothing else named the mistake, and they name at most one: the first property that fails.
//!
//! Each probe asks one question a correct RMSNorm answers in one way: do rows stay independent,
//! does the output follow the input, is it scale-invariant and odd, does a NaN stay in its row, does any rank work, does a
//! reduced axis broadcast back. A probe that cannot run (the code panics on everything, the time
//! is up) names nothing.

pub(crate) mod backward_fit;
pub(crate) mod scale_fit;

use std::panic::{catch_unwind, AssertUnwindSafe};

use ndarray::ArrayD;
use tutor_grade::probe::{all_close, probe, Called, RowWise};
use tutor_kit::{reference, NormError};

use crate::checks::{Build, Run};
use crate::subject::RMSNorm;

/// A function of the learner's layer a probe calls (`norm`, `forward`), widened to f64.
type Apply = fn(&RMSNorm, &ArrayD<f32>) -> Result<ArrayD<f64>, NormError>;

/// The learner's function on `x`, on a fresh layer from the learner's `new` (default weight).
fn call(run: &Run, apply: Apply, x: &ArrayD<f32>) -> Called<ArrayD<f64>> {
    probe(|| apply(&run.new_layer(*x.shape().last().unwrap_or(&1), 1e-6)?, x))
}

/// One layer asked twice, on two inputs of one shape whose right outputs differ: the first answer
/// is right and the second is the first again, bit for bit. The code keeps a result between
/// calls.
fn kept_between_calls(run: &Run, apply: Apply) -> bool {
    let mut rng = run.rng(12);
    // A shape no case uses: a result kept for every layer (a static) has none for it yet.
    const SHAPE: [usize; 3] = [1, 13, 4];
    let (first, second): (ArrayD<f32>, ArrayD<f32>) = (rng.normal_array(&SHAPE), rng.normal_array(&SHAPE));
    let answers = probe(|| {
        let layer = run.new_layer(4, 1e-6)?;
        Ok::<_, NormError>((apply(&layer, &first)?, apply(&layer, &second)?))
    });
    // The first answer right: a constant output (zeros, say) is not a result kept.
    let expected = right(&first);
    matches!(answers, Called::Value((a, b)) if a == b && all_close(&a, &expected, 1e-6, 1e-3))
        && expected != right(&second)
}

fn right(x: &ArrayD<f32>) -> ArrayD<f64> {
    reference::rms_normalize(x, 1e-6).map(|y| y.mapv(f64::from)).unwrap_or_else(|_| x.mapv(|_| f64::NAN))
}

/// A property a right answer keeps, and the mistake that breaks it.
type Property = (&'static str, fn(&RowWise) -> bool);

/// The first property the learner's code breaks, as a mistake id: the row-wise ones, then
/// `norm(10·x) = norm(x)` (eps negligible) and `norm(−x) = −norm(x)`; of `norm`, then `forward`,
/// then the row-wise ones of `backward`. A probe that panics (tutor's
/// own bug: the learner's panics are caught inside `call`) is no evidence.
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
    let functions: [Apply; 2] =
        [|layer, x| Ok(layer.norm(x)?.mapv(f64::from)), |layer, x| Ok(layer.forward(x)?.mapv(f64::from))];
    for function in functions {
        if kept_between_calls(run, function) {
            return Some("output-kept-between-calls");
        }
        let learner = |x: &ArrayD<f32>| call(run, function, x);
        let rows = RowWise { learner: &learner, right: &right, rng: &|salt| run.rng(salt) };
        if let Some(mistake) = first_broken(&properties, &rows) {
            return Some(mistake);
        }
    }
    // The row-wise questions again, of backward's dx (scale and sign are forward's properties:
    // dx keeps neither). A backward whose statistics mix rows or assume a rank makes the same
    // mistake forward would, and has the same name.
    let learner = |x: &ArrayD<f32>| {
        probe(|| {
            let mut layer = run.new_layer(*x.shape().last().unwrap_or(&1), 1e-6)?;
            Ok::<_, NormError>(layer.backward(x, &upstream(x.shape()))?.mapv(f64::from))
        })
    };
    let rows = RowWise { learner: &learner, right: &right_dx, rng: &|salt| run.rng(salt) };
    first_broken(&properties[..4], &rows)
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
