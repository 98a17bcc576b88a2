//! What a wrong normalisation is, read from its numbers: every RMSNorm variant people write
//! divides each row by some statistic, so the learner's output, row by row, is the input times one
//! number s. That number is recovered by least squares (and the family is read only when every
//! row is such a multiple, to the dtype's precision). Then `s = (S + e)^(-1/2)` (or
//! `1/(sqrt(S) + e)`) is solved for e with each candidate statistic S: the mean square, the sum,
//! the D − 1 mean, the variance (mean subtracted), the mean of |x|, the mean square of `x ⊙ w`. A
//! statistic is the learner's when one e fits every row; e itself then says where eps went: the
//! layer's eps (right), none, eps², eps / D (also eps added to the sum), outside the root, or a
//! constant of the learner's own. A name goes out as a candidate built from that formula, for
//! [`crate::evidence`] to weigh against every other comparison.

use ndarray::{ArrayD, Axis};

use crate::mistakes::Candidate;

/// Candidate statistics of one row (and the input it scales).
#[derive(Clone, Copy, PartialEq, Debug)]
enum Statistic {
    MeanSquare,
    Sum,
    Bessel,
    Variance,
    MeanAbs,
    WeightedMeanSquare,
}

impl Statistic {
    const ALL: [Statistic; 6] = [
        Statistic::MeanSquare,
        Statistic::Sum,
        Statistic::Bessel,
        Statistic::Variance,
        Statistic::MeanAbs,
        Statistic::WeightedMeanSquare,
    ];

    fn of(self, row: &[f64], weight: &[f64]) -> f64 {
        let d = row.len() as f64;
        let square_sum: f64 = row.iter().map(|v| v * v).sum();
        match self {
            Statistic::MeanSquare => square_sum / d,
            Statistic::Sum => square_sum,
            Statistic::Bessel => square_sum / (d - 1.0),
            Statistic::Variance => {
                let mean = row.iter().sum::<f64>() / d;
                row.iter().map(|v| (v - mean) * (v - mean)).sum::<f64>() / d
            }
            Statistic::MeanAbs => row.iter().map(|v| v.abs()).sum::<f64>() / d,
            Statistic::WeightedMeanSquare => row.iter().zip(weight).map(|(v, w)| (v * w).powi(2)).sum::<f64>() / d,
        }
    }

    /// The mistake a wrong statistic is.
    fn mistake(self) -> Option<&'static str> {
        match self {
            Statistic::MeanSquare => None,
            Statistic::Sum => Some("sum-not-mean"),
            Statistic::Bessel => Some("d-minus-one"),
            Statistic::Variance => Some("layernorm"),
            Statistic::MeanAbs => Some("abs-not-square"),
            Statistic::WeightedMeanSquare => Some("weight-before-normalise"),
        }
    }
}

/// Where eps went: inside the root (`(S + e)^(-1/2)`) or outside (`1/(sqrt(S) + e)`).
#[derive(Clone, Copy, PartialEq)]
enum Placement {
    Inside,
    Outside,
}

impl Placement {
    fn scale(self, statistic: f64, e: f64) -> f64 {
        match self {
            Placement::Inside => 1.0 / (statistic + e).sqrt(),
            Placement::Outside => 1.0 / (statistic.sqrt() + e),
        }
    }

    /// The e that gives `s`, and how far it can be off when s is off by `precision` (relative).
    fn implied(self, statistic: f64, s: f64, precision: f64) -> (f64, f64) {
        match self {
            Placement::Inside => (1.0 / (s * s) - statistic, 2.0 * precision / (s * s)),
            Placement::Outside => (1.0 / s - statistic.sqrt(), precision / s),
        }
    }
}

/// The learner's output as one scale per row of `base` (x, or x ⊙ w for forward), or `None` when
/// some row is not a multiple of its input to `precision`.
fn row_scales(base: &[Vec<f64>], output: &[Vec<f64>], precision: f64) -> Option<Vec<Option<f64>>> {
    base.iter()
        .zip(output)
        .map(|(b, y)| {
            let bb: f64 = b.iter().map(|v| v * v).sum();
            let yy: f64 = y.iter().map(|v| v * v).sum();
            if !y.iter().all(|v| v.is_finite()) || !b.iter().all(|v| v.is_finite()) {
                return Some(None);
            }
            if bb == 0.0 {
                return Some(None);
            }
            let s = b.iter().zip(y).map(|(b, y)| b * y).sum::<f64>() / bb;
            let residual: f64 = b.iter().zip(y).map(|(b, y)| (y - s * b).powi(2)).sum();
            (residual <= precision * precision * yy.max(f64::MIN_POSITIVE)).then_some(if s > 0.0 {
                Some(s)
            } else {
                None
            })
        })
        .collect()
}

/// The interval of e that every row allows (the rows' `[e − δ, e + δ]` overlap), if any.
fn common_e(implied: &[(f64, f64)]) -> Option<(f64, f64)> {
    let low = implied.iter().map(|(e, d)| e - d).fold(f64::NEG_INFINITY, f64::max);
    let high = implied.iter().map(|(e, d)| e + d).fold(f64::INFINITY, f64::min);
    (low <= high && high >= 0.0).then_some((low.max(0.0), high))
}

/// Gemma's `n ⊙ (1 + w)` (a weight stored as an offset from one), as a candidate forward output.
pub fn weight_candidates(x: &ArrayD<f64>, weight: &[f64], eps: f64) -> Vec<Candidate<f64>> {
    if x.ndim() == 0 || x.shape().last() != Some(&weight.len()) {
        return Vec::new();
    }
    let last = Axis(x.ndim() - 1);
    let mut y = x.clone();
    for mut row in y.lanes_mut(last) {
        let s = Placement::Inside.scale(Statistic::MeanSquare.of(&row.to_vec(), weight), eps);
        row.iter_mut().zip(weight).for_each(|(v, w)| *v *= s * (1.0 + w));
    }
    vec![Candidate { mistake: "gemma-one-plus-weight", variant: "offset", output: y }]
}

/// Constants people write for eps: a fitted e is read as one of these or not at all.
const USUAL_CONSTANTS: [f64; 8] = [1e-3, 1e-4, 1e-5, 1e-6, 1e-7, 1e-8, 1e-10, 1e-12];

/// Every named statistic, as a candidate output: `x` is the input (f64), `weight` the layer's
/// weight, `output` the learner's result (read for a hard-coded eps), `with_weight` whether the
/// output carries the weight (forward). Each wrong formula is offered on every comparison, so that
/// [`crate::evidence`] can hold it against all of them; the constant a hard-coded eps has is
/// recovered from the learner's own per-row scale.
pub fn candidates(
    x: &ArrayD<f64>,
    weight: &[f64],
    eps: f64,
    output: &ArrayD<f64>,
    with_weight: bool,
    precision: f64,
) -> Vec<Candidate<f64>> {
    if x.ndim() == 0 || x.shape().last() != Some(&weight.len()) || x.is_empty() {
        return Vec::new();
    }
    let last = Axis(x.ndim() - 1);
    let d = weight.len() as f64;
    let rows: Vec<Vec<f64>> = x.lanes(last).into_iter().map(|l| l.to_vec()).collect();
    let factor = |j: usize| if with_weight { weight[j] } else { 1.0 };
    let base: Vec<Vec<f64>> = rows.iter().map(|r| r.iter().enumerate().map(|(j, v)| v * factor(j)).collect()).collect();
    let formula = |statistic: Statistic, placement: Placement, e: f64| {
        let values = rows.iter().zip(&base).flat_map(|(row, b)| {
            let s = placement.scale(statistic.of(row, weight), e);
            b.iter().map(move |v| v * s).collect::<Vec<_>>()
        });
        ArrayD::from_shape_vec(x.shape().to_vec(), values.collect()).expect("one value per element")
    };
    let mut out = Vec::new();
    // Each way of writing a mistake is its own variant: evidence rules each out on its own.
    let mut offer = |mistake: &'static str, variant: &'static str, statistic, placement, e| {
        out.push(Candidate { mistake, variant, output: formula(statistic, placement, e) });
    };
    for (mistake, e) in [("no-eps", 0.0), ("eps-squared", eps * eps), ("eps-over-d", eps / d)] {
        if e != eps {
            offer(mistake, "scale-fit", Statistic::MeanSquare, Placement::Inside, e);
        }
    }
    if eps > 0.0 {
        offer("eps-outside-sqrt", "scale-fit", Statistic::MeanSquare, Placement::Outside, eps);
    }
    for statistic in Statistic::ALL {
        if let Some(mistake) = statistic.mistake() {
            if statistic == Statistic::WeightedMeanSquare && !with_weight {
                continue;
            }
            offer(mistake, "scale-fit-with-eps", statistic, Placement::Inside, eps);
            offer(mistake, "scale-fit-without-eps", statistic, Placement::Inside, 0.0);
        }
    }
    if let Some(constant) = hard_coded_eps(&rows, &base, weight, output, precision) {
        if (constant - eps).abs() > 0.02 * eps {
            offer("eps-ignored", "scale-fit", Statistic::MeanSquare, Placement::Inside, constant);
        }
    }
    out
}

/// The eps the learner's output implies, when every row agrees on one and it is a usual constant.
fn hard_coded_eps(
    rows: &[Vec<f64>],
    base: &[Vec<f64>],
    weight: &[f64],
    output: &ArrayD<f64>,
    precision: f64,
) -> Option<f64> {
    if output.ndim() == 0 || output.len() != rows.iter().map(Vec::len).sum::<usize>() {
        return None;
    }
    let last = Axis(output.ndim() - 1);
    let outputs: Vec<Vec<f64>> = output.lanes(last).into_iter().map(|l| l.to_vec()).collect();
    if outputs.len() != rows.len() {
        return None;
    }
    let scales = row_scales(base, &outputs, precision)?;
    let implied: Vec<(f64, f64)> = rows
        .iter()
        .zip(&scales)
        .filter_map(|(row, s)| {
            s.map(|s| Placement::Inside.implied(Statistic::MeanSquare.of(row, weight), s, 3.0 * precision))
        })
        .collect();
    let (low, high) = common_e(&implied)?;
    // Pinned down to a few percent, and one of the usual constants.
    if !(low > 0.0 && high <= 1.1 * low) {
        return None;
    }
    USUAL_CONSTANTS.into_iter().find(|&c| low <= c * 1.02 && c * 0.98 <= high)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn x() -> ArrayD<f64> {
        let mut rng = tutor_grade::Rng::new(3);
        let mut x: ArrayD<f64> = rng.normal_array(&[4, 6]);
        for (mut row, s) in x.axis_iter_mut(Axis(0)).zip([1.0, 1e-3, 1e-4, 10.0]) {
            row *= s;
        }
        x
    }

    fn named(scale: impl Fn(&[f64]) -> f64) -> Vec<&'static str> {
        let x = x();
        let mut y = x.clone();
        for mut row in y.lanes_mut(Axis(1)) {
            let s = scale(&row.to_vec());
            row *= s;
        }
        let same = |c: &ArrayD<f64>| c.iter().zip(y.iter()).all(|(a, b)| (a - b).abs() <= 1e-9 * b.abs().max(1e-3));
        let all = candidates(&x, &[1.0; 6], 1e-6, &y, false, 1e-6);
        let mut names: Vec<_> = all.into_iter().filter(|c| same(&c.output)).map(|c| c.mistake).collect();
        names.dedup();
        names
    }

    fn ms(row: &[f64]) -> f64 {
        row.iter().map(|v| v * v).sum::<f64>() / row.len() as f64
    }

    #[test]
    fn each_statistic_and_each_place_of_eps_is_read_from_the_scale() {
        assert!(named(|r| 1.0 / (ms(r) + 1e-6).sqrt()).is_empty(), "the right statistic names nothing");
        assert_eq!(named(|r| 1.0 / (ms(r) * 6.0 + 1e-6).sqrt()), ["sum-not-mean"]);
        assert_eq!(named(|r| 1.0 / (ms(r) * 6.0 / 5.0 + 1e-6).sqrt()), ["d-minus-one"]);
        assert_eq!(named(|r| 1.0 / (ms(r).sqrt() + 1e-6)), ["eps-outside-sqrt"]);
        assert_eq!(named(|r| 1.0 / (ms(r) + 1e-12).sqrt()), ["eps-squared"]);
        assert_eq!(named(|r| 1.0 / (ms(r) + 1e-6 / 6.0).sqrt()), ["eps-over-d"]);
        assert_eq!(named(|r| 1.0 / (ms(r) + 1e-5).sqrt()), ["eps-ignored"]);
        assert_eq!(named(|r| 1.0 / (ms(r) + 1e-8).sqrt()), ["eps-ignored"]);
        assert!(named(|r| 1.0 / (ms(r) + 3.7e-7).sqrt()).is_empty(), "an unusual constant is not read as one");
        assert_eq!(named(|r| 1.0 / ms(r).sqrt()), ["no-eps"]);
    }
}
