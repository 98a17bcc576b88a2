//! Known wrong answers. When a comparison fails, the checks compute what each classic mistake
//! would have produced on the same input; if the learner's output matches one, the failure
//! names it (and the hint that addresses it).

use ndarray::{ArrayD, Axis};

use crate::checks::is_close;
use tutor_kit::{reference, Float, Param};

/// A classic mistake and the hint that addresses it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Mistake {
    /// Stable id, carried in the report.
    pub id: &'static str,
    /// The exercise whose hints address it.
    pub exercise: &'static str,
    /// The hint level that addresses it.
    pub hint: u32,
}

/// Every mistake the checks can name. Titles live in [`crate::text::mistake_title`].
pub const ALL: &[Mistake] = &[
    Mistake { id: "layernorm", exercise: "02-norm", hint: 2 },
    Mistake { id: "wrong-axis", exercise: "02-norm", hint: 2 },
    Mistake { id: "whole-tensor", exercise: "02-norm", hint: 2 },
    Mistake { id: "eps-outside-sqrt", exercise: "02-norm", hint: 3 },
    Mistake { id: "no-eps", exercise: "02-norm", hint: 3 },
    Mistake { id: "half-precision-statistics", exercise: "02-norm", hint: 1 },
    Mistake { id: "sum-not-mean", exercise: "02-norm", hint: 2 },
    Mistake { id: "weight-ignored", exercise: "03-forward", hint: 2 },
    Mistake { id: "scalar-weight", exercise: "03-forward", hint: 2 },
    Mistake { id: "double-rounding", exercise: "03-forward", hint: 3 },
    Mistake { id: "zero-weight", exercise: "01-weight", hint: 2 },
    Mistake { id: "random-weight", exercise: "01-weight", hint: 2 },
    Mistake { id: "frozen-weight", exercise: "01-weight", hint: 3 },
];

/// Looks a mistake up by id.
pub fn find(id: &str) -> Option<&'static Mistake> {
    ALL.iter().find(|m| m.id == id)
}

/// A wrong answer: the mistake's id and what it produces.
pub type Candidate<V> = (&'static str, ArrayD<V>);

/// What `norm(x)` gives under each statistics mistake. A mistake may appear more than once
/// (the same error written two common ways sums in different orders).
pub fn wrong_norms<T: Float>(x: &ArrayD<T>, eps: f32) -> Vec<Candidate<f32>> {
    if x.ndim() == 0 {
        return Vec::new();
    }
    let x32 = x.mapv(T::to_f32);
    let last = Axis(x.ndim() - 1);
    let mut out = Vec::new();
    out.push((
        "layernorm",
        per_row(&x32, last, |row| {
            let d = row.len() as f32;
            let mean = row.iter().sum::<f32>() / d;
            let var = row.iter().map(|v| (v - mean) * (v - mean)).sum::<f32>() / d;
            let scale = 1.0 / (var + eps).sqrt();
            row.iter().map(|v| (v - mean) * scale).collect()
        }),
    ));
    if x.shape()[0] > 0 {
        let first = Axis(0);
        let n = x32.len_of(first) as f32;
        let ms = (x32.mapv(|v| v * v).sum_axis(first) / n).insert_axis(first);
        out.push(("wrong-axis", &x32 / &(ms + eps).mapv(f32::sqrt)));
    }
    if !x32.is_empty() {
        let ms = x32.iter().map(|v| v * v).sum::<f32>() / x32.len() as f32;
        out.push(("whole-tensor", x32.mapv(|v| v / (ms + eps).sqrt())));
    }
    out.push(("eps-outside-sqrt", scale_rows(&x32, last, |ms, _| 1.0 / (ms.sqrt() + eps))));
    out.push(("no-eps", scale_rows(&x32, last, |ms, _| 1.0 / ms.sqrt())));
    out.push(("sum-not-mean", scale_rows(&x32, last, |ms, d| 1.0 / (ms * d + eps).sqrt())));
    // Low-precision statistics, the ways people write them: squares in T; squares rounded to T
    // and summed in T one by one; everything in T through ndarray's sum.
    let squares_in_t = x.mapv(|v| (v * v).to_f32());
    out.push((
        "half-precision-statistics",
        divide_by_rms(&x32, &(squares_in_t.sum_axis(last) / x32.len_of(last) as f32), last, eps),
    ));
    let sequential_t_sum = per_lane_mean(&x32, last, |row| {
        let sum = row.iter().fold(T::zero(), |acc, v| acc + T::from_f32(v * v));
        sum.to_f32()
    });
    out.push(("half-precision-statistics", divide_by_rms(&x32, &sequential_t_sum, last, eps)));
    let all_in_t = x.mapv(|v| v * v).sum_axis(last).mapv(T::to_f32) / x32.len_of(last) as f32;
    out.push(("half-precision-statistics", divide_by_rms(&x32, &all_in_t, last, eps)));
    out
}

/// What `forward(x)` gives under each mistake: every statistics mistake carried through a
/// correct scale-and-cast, and the scaling mistakes on a correct normalisation.
pub fn wrong_forwards<T: Float>(x: &ArrayD<T>, eps: f32, weight: &Param) -> Vec<Candidate<T>> {
    let mut out: Vec<Candidate<T>> = wrong_norms(x, eps)
        .into_iter()
        .filter_map(|(id, n)| reference::scale_and_cast(&n, weight).ok().map(|y| (id, y)))
        .collect();
    let Ok(normalized) = reference::rms_normalize(x, eps) else {
        return out;
    };
    out.push(("weight-ignored", normalized.mapv(T::from_f32)));
    if let Some(&first) = weight.value.first() {
        out.push(("scalar-weight", normalized.mapv(|v| T::from_f32(v * first))));
    }
    if normalized.ndim() > 0 && normalized.shape().last() == Some(&weight.len()) {
        let weight_t = weight.value.mapv(T::from_f32);
        let mut twice = normalized.mapv(T::from_f32);
        for mut row in twice.lanes_mut(Axis(normalized.ndim() - 1)) {
            row.zip_mut_with(&weight_t, |v, &w| *v = *v * w);
        }
        out.push(("double-rounding", twice));
    }
    out
}

/// The candidate the actual output matches most closely, if any. A candidate counts when it is
/// itself wrong at the case's tolerance, the actual output lies within ten times that tolerance of
/// it (the learner may sum in another order than the kit), and the actual output is closer to it
/// than to the right answer.
pub fn identify<V: Float>(
    actual: &ArrayD<f64>,
    expected: &ArrayD<f64>,
    candidates: Vec<Candidate<V>>,
    atol: f64,
    rtol: f64,
) -> Option<&'static str> {
    let within = |a: &ArrayD<f64>, b: &ArrayD<f64>, scale: f64| {
        a.shape() == b.shape() && a.iter().zip(b.iter()).all(|(&x, &y)| is_close(x, y, atol * scale, rtol * scale))
    };
    let distance_to_expected = distance(actual, expected);
    candidates
        .into_iter()
        .map(|(id, c)| (id, c.mapv(V::to_f64)))
        .filter(|(_, c)| !within(c, expected, 1.0) && within(actual, c, 10.0))
        .map(|(id, c)| (id, distance(actual, &c)))
        .filter(|&(_, d)| d < distance_to_expected)
        .min_by(|a, b| a.1.total_cmp(&b.1))
        .map(|(id, _)| id)
}

/// The greatest element-wise difference, NaN matching NaN and counting as infinitely far from a number.
fn distance(a: &ArrayD<f64>, b: &ArrayD<f64>) -> f64 {
    a.iter()
        .zip(b.iter())
        .map(|(&x, &y)| match (x.is_nan(), y.is_nan()) {
            (true, true) => 0.0,
            (false, false) if x == y => 0.0,
            (false, false) => (x - y).abs(),
            _ => f64::INFINITY,
        })
        .fold(0.0, f64::max)
}

fn per_row(x: &ArrayD<f32>, axis: Axis, f: impl Fn(&[f32]) -> Vec<f32>) -> ArrayD<f32> {
    let mut out = x.clone();
    for mut row in out.lanes_mut(axis) {
        let values: Vec<f32> = row.iter().copied().collect();
        for (slot, v) in row.iter_mut().zip(f(&values)) {
            *slot = v;
        }
    }
    out
}

/// Scales each row by `scale(mean_square, D)`.
fn scale_rows(x: &ArrayD<f32>, axis: Axis, scale: impl Fn(f32, f32) -> f32) -> ArrayD<f32> {
    per_row(x, axis, |row| {
        let d = row.len() as f32;
        let ms = row.iter().map(|v| v * v).sum::<f32>() / d;
        let s = scale(ms, d);
        row.iter().map(|v| v * s).collect()
    })
}

fn per_lane_mean(x: &ArrayD<f32>, axis: Axis, sum: impl Fn(&[f32]) -> f32) -> ArrayD<f32> {
    let d = x.len_of(axis) as f32;
    let values: Vec<f32> =
        x.lanes(axis).into_iter().map(|row| sum(&row.iter().copied().collect::<Vec<_>>()) / d).collect();
    let mut shape = x.shape().to_vec();
    shape.remove(axis.index());
    ArrayD::from_shape_vec(shape, values).expect("one mean per lane")
}

fn divide_by_rms(x: &ArrayD<f32>, mean_square: &ArrayD<f32>, axis: Axis, eps: f32) -> ArrayD<f32> {
    x / &(mean_square.clone().insert_axis(axis) + eps).mapv(f32::sqrt)
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::IxDyn;

    fn tensor(shape: &[usize], values: &[f32]) -> ArrayD<f32> {
        ArrayD::from_shape_vec(IxDyn(shape), values.to_vec()).unwrap()
    }

    #[test]
    fn names_eps_outside_the_root_on_the_small_input() {
        let x = tensor(&[1, 4], &[1e-3, -1e-3, 1e-3, -1e-3]);
        let expected = reference::rms_normalize(&x, 1e-6).unwrap().mapv(f64::from);
        let wrong = x.mapv(|v| f64::from(v / (1e-3 + 1e-6)));
        assert_eq!(identify(&wrong, &expected, wrong_norms(&x, 1e-6), 1e-6, 1e-5), Some("eps-outside-sqrt"));
        assert_eq!(
            identify(&expected, &expected, wrong_norms(&x, 1e-6), 1e-6, 1e-5),
            None,
            "the right answer names nothing"
        );
    }

    #[test]
    fn every_mistake_id_used_has_an_entry_and_a_title() {
        let x = tensor(&[2, 2], &[1.0, 2.0, 3.0, 4.0]);
        let weight = Param::trainable(ndarray::Array1::from(vec![0.5, 2.0]));
        for (id, _) in wrong_forwards(&x, 1e-6, &weight) {
            assert!(find(id).is_some(), "{id}");
        }
        for m in ALL {
            assert_ne!(crate::text::mistake_title(m.id).en, m.id, "{} has no title", m.id);
        }
    }
}
