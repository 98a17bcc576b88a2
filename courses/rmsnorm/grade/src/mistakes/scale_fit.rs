//! What a wrong normalisation is, read from its numbers: every RMSNorm variant people write
//! divides each row by some statistic, so the learner's output, row by row, is its input times
//! one number s ([`tutor_grade::row_scale`]). For a candidate statistic S (the mean square, the
//! sum, the D − 1 mean, the variance, the mean of |x|, the square of the mean, the mean square of
//! `x ⊙ w`) and a law (`(S + e)^(-1/2)`, `1/(sqrt(S) + e)`, `1/(S + e)` without the root, or eps
//! as a floor, `max(S, e)^(-1/2)`), the formula is offered as a candidate; and what the formula
//! leaves free is solved for from the learner's own scales: an eps of the learner's own (a usual
//! constant), a count other than D. Each goes out as a candidate output, for
//! [`crate::evidence`] to weigh against every other comparison: a name needs every comparison.

use ndarray::ArrayD;
use tutor_grade::row_scale::{implied_parameter, row_scales, rows};

use crate::mistakes::Candidate;

/// Candidate statistics of one row.
#[derive(Clone, Copy, PartialEq, Debug)]
enum Statistic {
    MeanSquare,
    Sum,
    Bessel,
    Variance,
    MeanAbs,
    SquareOfMean,
    WeightedMeanSquare,
}

impl Statistic {
    /// The wrong statistics, each with the mistake it is.
    const WRONG: [(Statistic, &'static str); 6] = [
        (Statistic::Sum, "sum-not-mean"),
        (Statistic::Bessel, "d-minus-one"),
        (Statistic::Variance, "layernorm"),
        (Statistic::MeanAbs, "abs-not-square"),
        (Statistic::SquareOfMean, "square-of-mean"),
        (Statistic::WeightedMeanSquare, "weight-before-normalise"),
    ];

    fn of(self, row: &[f64], weight: &[f64]) -> f64 {
        let d = row.len() as f64;
        let mean = row.iter().sum::<f64>() / d;
        let square_sum: f64 = row.iter().map(|v| v * v).sum();
        match self {
            Statistic::MeanSquare => square_sum / d,
            Statistic::Sum => square_sum,
            Statistic::Bessel => square_sum / (d - 1.0),
            Statistic::Variance => row.iter().map(|v| (v - mean) * (v - mean)).sum::<f64>() / d,
            Statistic::MeanAbs => row.iter().map(|v| v.abs()).sum::<f64>() / d,
            Statistic::SquareOfMean => mean * mean,
            Statistic::WeightedMeanSquare => row.iter().zip(weight).map(|(v, w)| (v * w).powi(2)).sum::<f64>() / d,
        }
    }
}

/// How the scale follows from the statistic S and eps e.
#[derive(Clone, Copy, PartialEq)]
enum Law {
    /// `(S + e)^(-1/2)`: right.
    Inside,
    /// `1/(sqrt(S) + e)`.
    Outside,
    /// `1/(S + e)`: no square root.
    NoRoot,
    /// `max(S, e)^(-1/2)`, as `f32::max` does it: a NaN statistic gives e.
    Floor,
    /// `max(S, e)^(-1/2)` written with a comparison: a NaN statistic stays NaN.
    FloorKeepingNan,
    /// `1/max(sqrt(S), e)`: the root floored (`F.normalize`'s guard), as `f32::max` does it.
    RootFloor,
}

impl Law {
    fn scale(self, statistic: f64, e: f64) -> f64 {
        match self {
            Law::Inside => 1.0 / (statistic + e).sqrt(),
            Law::Outside => 1.0 / (statistic.sqrt() + e),
            Law::NoRoot => 1.0 / (statistic + e),
            Law::Floor => 1.0 / statistic.max(e).sqrt(),
            Law::FloorKeepingNan => 1.0 / (if statistic < e { e } else { statistic }).sqrt(),
            Law::RootFloor => 1.0 / statistic.sqrt().max(e),
        }
    }
}

/// Constants people write for eps: a fitted e is read as one of these or not at all.
const USUAL_CONSTANTS: [f64; 9] = [1e-3, 1e-4, 1e-5, 1e-6, 1e-7, 1e-8, 1e-10, 1e-12, f32::EPSILON as f64];

/// One input's rows, the base each output row is a multiple of, and the layer's numbers.
struct Rows<'a> {
    shape: Vec<usize>,
    rows: Vec<Vec<f64>>,
    base: Vec<Vec<f64>>,
    weight: &'a [f64],
}

impl Rows<'_> {
    /// The output of `base · law(statistic, e)`, row by row.
    fn formula(&self, statistic: Statistic, law: Law, e: f64) -> ArrayD<f64> {
        let values = self.rows.iter().zip(&self.base).flat_map(|(row, b)| {
            let s = law.scale(statistic.of(row, self.weight), e);
            b.iter().map(move |v| v * s)
        });
        ArrayD::from_shape_vec(self.shape.clone(), values.collect()).expect("one value per element")
    }

    /// The statistic of every row.
    fn statistics(&self, statistic: Statistic) -> Vec<f64> {
        self.rows.iter().map(|r| statistic.of(r, self.weight)).collect()
    }
}

/// Every named formula, as a candidate output: `x` is the input (f64), `weight` the layer's
/// weight, `output` the learner's result (read for what a formula leaves free), `with_weight`
/// whether the output carries the weight (forward), `precision` the output's relative precision.
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
    let rows = rows(x);
    let factor = |j: usize| if with_weight { weight[j] } else { 1.0 };
    let base = rows.iter().map(|r| r.iter().enumerate().map(|(j, v)| v * factor(j)).collect()).collect();
    let rows = Rows { shape: x.shape().to_vec(), rows, base, weight };
    let d = weight.len() as f64;
    let mut out = Vec::new();
    // Each way of writing a mistake is its own variant: evidence rules each out on its own.
    let mut offer = |mistake: &'static str, variant: &'static str, statistic, law, e| {
        out.push(Candidate { mistake, variant, output: rows.formula(statistic, law, e) });
    };
    for (mistake, e) in [("no-eps", 0.0), ("eps-squared", eps * eps), ("eps-over-d", eps / d)] {
        if e != eps {
            offer(mistake, "scale-fit", Statistic::MeanSquare, Law::Inside, e);
        }
    }
    for (variant, e) in [("scale-fit-with-eps", eps), ("scale-fit-without-eps", 0.0)] {
        offer("no-sqrt", variant, Statistic::MeanSquare, Law::NoRoot, e);
        for (statistic, mistake) in Statistic::WRONG {
            if statistic != Statistic::WeightedMeanSquare || with_weight {
                offer(mistake, variant, statistic, Law::Inside, e);
            }
        }
    }
    if eps > 0.0 {
        offer("eps-outside-sqrt", "scale-fit", Statistic::MeanSquare, Law::Outside, eps);
        offer("eps-as-floor", "max", Statistic::MeanSquare, Law::Floor, eps);
        offer("eps-as-floor", "compare", Statistic::MeanSquare, Law::FloorKeepingNan, eps);
        offer("eps-as-floor", "root-max", Statistic::MeanSquare, Law::RootFloor, eps);
    }
    let scales =
        (output.shape() == x.shape()).then(|| row_scales(&rows.base, &tutor_grade::row_scale::rows(output), precision));
    let Some(Some(scales)) = scales else {
        return out;
    };
    // What the learner's own scales leave free: an eps of their own, a count other than D.
    let squares = rows.statistics(Statistic::MeanSquare);
    let implied_eps = implied_parameter(&squares, &scales, 3.0 * precision, |m, s| 1.0 / (s * s) - m);
    let pinned = implied_eps.filter(|&(low, high)| low > 0.0 && high <= 1.1 * low);
    let constant =
        pinned.and_then(|(low, high)| USUAL_CONSTANTS.into_iter().find(|&c| low <= c * 1.02 && c * 0.98 <= high));
    // A constant that is a named place of eps (eps itself, eps², eps / D) is that place.
    let named = |c: f64| [eps, eps * eps, eps / d].iter().any(|e| (c - e).abs() <= 0.02 * e);
    if let Some(constant) = constant.filter(|&c| !named(c)) {
        offer("eps-ignored", "scale-fit", Statistic::MeanSquare, Law::Inside, constant);
    }
    let sums = rows.statistics(Statistic::Sum);
    let implied_count = implied_parameter(&sums, &scales, 3.0 * precision, |sum, s| sum / (1.0 / (s * s) - eps));
    let count = implied_count.filter(|(low, high)| high - low < 0.5 && low.ceil() <= *high).map(|(low, _)| low.ceil());
    if let Some(count) = count.filter(|&c| c >= 2.0 && c != d && c != d - 1.0) {
        out.push(Candidate {
            mistake: "wrong-count",
            variant: "scale-fit",
            output: rows.formula(Statistic::Sum, Law::Inside, eps * count).mapv(|v| v * count.sqrt()),
        });
    }
    out
}

/// The weight applied otherwise than multiplied in, on a right normalisation n: left out, its
/// first element for every channel, reversed, Gemma's `1 + w` (a weight stored as an offset from
/// one), divided by, squared, or added; as candidate outputs.
pub fn weight_candidates(x: &ArrayD<f64>, weight: &[f64], eps: f64) -> Vec<Candidate<f64>> {
    if x.ndim() == 0 || weight.is_empty() || x.shape().last() != Some(&weight.len()) {
        return Vec::new();
    }
    let normalized = Rows { shape: x.shape().to_vec(), rows: rows(x), base: rows(x), weight };
    let n = normalized.formula(Statistic::MeanSquare, Law::Inside, eps);
    type Applied = fn(f64, &[f64], usize) -> f64;
    let ways: [(&'static str, &'static str, Applied); 7] = [
        ("weight-ignored", "unscaled", |n, _, _| n),
        ("scalar-weight", "first-element", |n, w, _| n * w[0]),
        ("weight-transposed-or-reversed", "reversed", |n, w, j| n * w[w.len() - 1 - j]),
        ("gemma-one-plus-weight", "offset", |n, w, j| n * (1.0 + w[j])),
        ("weight-divided", "weight-fit", |n, w, j| n / w[j]),
        ("weight-squared", "weight-fit", |n, w, j| n * w[j] * w[j]),
        ("weight-added", "weight-fit", |n, w, j| n + w[j]),
    ];
    let d = weight.len();
    let apply = |way: Applied| {
        let mut y = n.clone();
        y.iter_mut().enumerate().for_each(|(i, v)| *v = way(*v, weight, i % d));
        y
    };
    ways.into_iter().map(|(mistake, variant, way)| Candidate { mistake, variant, output: apply(way) }).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::Axis;

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
        assert_eq!(named(|r| 1.0 / (ms(r) * 6.0 / 4.0 + 1e-6).sqrt()), ["wrong-count"]);
        assert_eq!(named(|r| 1.0 / (ms(r).sqrt() + 1e-6)), ["eps-outside-sqrt"]);
        assert_eq!(named(|r| 1.0 / (ms(r) + 1e-6)), ["no-sqrt"]);
        assert_eq!(named(|r| 1.0 / ms(r).max(1e-6).sqrt()), ["eps-as-floor"]);
        // On rows above eps, a floored root is no eps at all: a zero row (the cases have one)
        // tells them apart, 0 against NaN.
        assert_eq!(named(|r| 1.0 / ms(r).sqrt().max(1e-6)), ["no-eps", "eps-as-floor"]);
        assert_eq!(named(|r| 1.0 / (ms(r) + 1e-12).sqrt()), ["eps-squared"]);
        assert_eq!(named(|r| 1.0 / (ms(r) + 1e-6 / 6.0).sqrt()), ["eps-over-d"]);
        assert_eq!(named(|r| 1.0 / (ms(r) + 1e-5).sqrt()), ["eps-ignored"]);
        assert_eq!(named(|r| 1.0 / (ms(r) + 1e-8).sqrt()), ["eps-ignored"]);
        assert!(named(|r| 1.0 / (ms(r) + 3.7e-7).sqrt()).is_empty(), "an unusual constant is not read as one");
        assert_eq!(named(|r| 1.0 / ms(r).sqrt()), ["no-eps", "eps-as-floor"]);
        let mean = |r: &[f64]| r.iter().sum::<f64>() / r.len() as f64;
        assert_eq!(named(|r| 1.0 / (mean(r).powi(2) + 1e-6).sqrt()), ["square-of-mean"]);
    }

    #[test]
    fn a_weight_applied_otherwise_is_read_as_what_it_is() {
        let x = x();
        let w = [0.5, 2.0, -1.0, 1.5, 0.25, 3.0];
        let all = weight_candidates(&x, &w, 1e-6);
        let n = |i: usize, j: usize| x[[i, j]] / (ms(&rows(&x)[i]) + 1e-6).sqrt();
        let find = |id| all.iter().find(|c| c.mistake == id).map(|c| c.output[[0, 2]]);
        assert_eq!(find("weight-divided"), Some(n(0, 2) / -1.0));
        assert_eq!(find("weight-added"), Some(n(0, 2) - 1.0));
        assert_eq!(find("gemma-one-plus-weight"), Some(0.0));
    }
}
