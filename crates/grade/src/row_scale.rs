//! Reading a row-wise answer as one number per row. Many wrong answers to a normalisation (or any
//! map that scales each row of its input) still scale each row by a single factor; recovering
//! that factor by least squares, row by row, and then solving for the one parameter that a
//! candidate formula leaves free (an eps, a count) turns "the numbers are off" into "the numbers
//! are this formula": the parameter is read only when every row agrees on it, to the precision of
//! the answer's dtype.

use ndarray::{ArrayD, Axis};

/// The lanes of `a` along its last axis, as vectors (none for a 0-d array).
pub fn rows(a: &ArrayD<f64>) -> Vec<Vec<f64>> {
    if a.ndim() == 0 {
        return Vec::new();
    }
    a.lanes(Axis(a.ndim() - 1)).into_iter().map(|l| l.to_vec()).collect()
}

/// Each row of `output` as one multiple `s` of the same row of `base`, fitted by least squares:
/// `Some(s)` for a row that is `s · base` to `precision` (relative to the row's size), `None` for
/// a row that says nothing about it (a value not finite, a base of zeros). `None` overall when the
/// rows do not pair up or some row is not a multiple of its base.
pub fn row_scales(base: &[Vec<f64>], output: &[Vec<f64>], precision: f64) -> Option<Vec<Option<f64>>> {
    if base.len() != output.len() {
        return None;
    }
    let dot = |a: &[f64], b: &[f64]| a.iter().zip(b).map(|(x, y)| x * y).sum::<f64>();
    base.iter()
        .zip(output)
        .map(|(b, y)| {
            let finite = b.iter().chain(y).all(|v| v.is_finite());
            let bb = dot(b, b);
            if b.len() != y.len() || !finite || bb == 0.0 {
                return (b.len() == y.len()).then_some(None);
            }
            let s = dot(b, y) / bb;
            let residual: f64 = b.iter().zip(y).map(|(b, y)| (y - s * b).powi(2)).sum();
            (residual <= precision * precision * dot(y, y).max(f64::MIN_POSITIVE)).then_some(Some(s))
        })
        .collect()
}

/// The interval of a parameter that every row allows, each row giving `(value, error)`: the rows'
/// `[value − error, value + error]` overlap, if they do (and `None` when no row says anything).
pub fn common_interval(implied: &[(f64, f64)]) -> Option<(f64, f64)> {
    let low = implied.iter().map(|(v, e)| v - e).fold(f64::NEG_INFINITY, f64::max);
    let high = implied.iter().map(|(v, e)| v + e).fold(f64::INFINITY, f64::min);
    (!implied.is_empty() && low <= high).then_some((low, high))
}

/// The parameter `p` that the rows' scales imply through `scale = law(statistic, p)`, solved
/// numerically per row (`solve(statistic, scale)`), with its error from a scale `precision`
/// off either way: the interval every row allows, if any.
pub fn implied_parameter(
    statistics: &[f64],
    scales: &[Option<f64>],
    precision: f64,
    solve: impl Fn(f64, f64) -> f64,
) -> Option<(f64, f64)> {
    let implied: Vec<(f64, f64)> = statistics
        .iter()
        .zip(scales)
        .filter_map(|(&statistic, s)| {
            let s = (*s)?;
            let (at, up, down) =
                (solve(statistic, s), solve(statistic, s * (1.0 + precision)), solve(statistic, s * (1.0 - precision)));
            let error = (up - at).abs().max((down - at).abs());
            (at.is_finite() && error.is_finite()).then_some((at, error))
        })
        .collect();
    common_interval(&implied)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scales_are_read_per_row_and_a_row_that_is_no_multiple_reads_nothing() {
        let base = vec![vec![1.0, 2.0, 3.0], vec![0.0, 0.0, 0.0], vec![-1.0, 0.5, 2.0]];
        let output = vec![vec![2.0, 4.0, 6.0], vec![0.0, 0.0, 0.0], vec![-0.5, 0.25, 1.0]];
        assert_eq!(row_scales(&base, &output, 1e-9), Some(vec![Some(2.0), None, Some(0.5)]));
        let bent = vec![vec![2.0, 4.0, 6.1], output[1].clone(), output[2].clone()];
        assert_eq!(row_scales(&base, &bent, 1e-6), None, "a row that is no multiple");
        assert!(row_scales(&base, &bent, 0.1).is_some(), "within a loose precision it is one");
        assert_eq!(row_scales(&base, &output[..2], 1e-9), None, "rows that do not pair up");
    }

    #[test]
    fn a_parameter_is_read_only_when_every_row_agrees_on_it() {
        // scale = 1 / sqrt(statistic + e), e = 1e-3: every row implies the same e.
        let statistics = [1e-3, 2e-3, 0.5];
        let scales: Vec<Option<f64>> = statistics.iter().map(|m| Some(1.0 / (m + 1e-3f64).sqrt())).collect();
        let solve = |m: f64, s: f64| 1.0 / (s * s) - m;
        let (low, high) = implied_parameter(&statistics, &scales, 1e-7, solve).expect("one e fits");
        assert!(low <= 1e-3 && 1e-3 <= high && high - low < 1e-6, "{low} {high}");
        let mixed = [scales[0], Some(1.0 / (2e-3f64 + 5e-3).sqrt()), scales[2]];
        assert_eq!(implied_parameter(&statistics, &mixed, 1e-7, solve), None, "two rows disagree");
        assert_eq!(common_interval(&[]), None);
        let rows = rows(&ndarray::ArrayD::from_shape_vec(vec![2, 2], vec![1.0, 2.0, 3.0, 4.0]).unwrap());
        assert_eq!(rows, vec![vec![1.0, 2.0], vec![3.0, 4.0]]);
    }
}
