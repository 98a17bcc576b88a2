//! A forward that keeps the weight it first saw (in a `static`, say) and applies it to every layer
//! after. Within one graded program that first weight is usually ones (the first forward a check
//! asks for is on a fresh layer), so the cases see a weight ignored; only a program's first call
//! tells the two apart. So this asks a fresh program: one layer with weights `a`, then another
//! with weights `b`, the same input. Right for `a` and, for `b`, the answer `a` gave: the weight
//! was kept between calls.

use ndarray::{Array1, ArrayD};
use tutor_grade::probe::{all_close, probe, Called};
use tutor_kit::{reference, NormError, Param};

use tutor_grade::Run;

use crate::Build;

/// Whether the learner's forward answers a second layer with the first layer's weight.
pub fn weight_kept(run: &Run) -> bool {
    const HIDDEN: usize = 6;
    let mut rng = run.rng(1300);
    let x: ArrayD<f32> = rng.normal_array(&[3, HIDDEN]);
    let first: Array1<f32> = Array1::from_iter((0..HIDDEN).map(|j| 0.5 + j as f32 * 0.25));
    let second: Array1<f32> = first.mapv(|w| -2.0 * w);
    // A program of its own, so that this is its first forward.
    run.channel.discard();
    let answers = probe(|| {
        let mut a = run.new_layer(HIDDEN, 1e-6)?;
        a.set_weight(first.clone());
        let with_first = a.forward(&x)?.mapv(f64::from);
        let mut b = run.new_layer(HIDDEN, 1e-6)?;
        b.set_weight(second.clone());
        let with_second = b.forward(&x)?.mapv(f64::from);
        Ok::<_, NormError>((with_first, with_second))
    });
    let Called::Value((with_first, with_second)) = answers else {
        return false;
    };
    let (Some(right_first), Some(right_second)) = (weighted(&x, &first), weighted(&x, &second)) else {
        return false;
    };
    let close = |a: &ArrayD<f64>, b: &ArrayD<f64>| all_close(a, b, 1e-6, 1e-4);
    close(&with_first, &right_first) && !close(&with_second, &right_second) && close(&with_second, &right_first)
}

/// The right forward of `x` with weights `weight` (eps 1e-6), widened.
fn weighted(x: &ArrayD<f32>, weight: &Array1<f32>) -> Option<ArrayD<f64>> {
    let y = reference::forward(x, 1e-6, &Param::trainable(weight.clone())).ok()?;
    Some(y.mapv(f64::from))
}
