//! What a wrong backward is, read from its numbers rather than from a list of wrong programs.
//!
//! The right dx of one row is a combination of two terms, `dx = r·h − r³·x·mean(h⊙x)` (the second
//! is `r·n·mean(h⊙n)` written with x). The usual corruptions keep that shape and change one part:
//! the mean term's coefficient (dropped, the wrong sign, the wrong count), the power of r on either
//! term (the outer r missing or squared, an n written as x), or h without the weight. For each
//! family `a·r^p·H + b·r^q·x·mean(H'⊙x)` the learner's dx is fitted by least squares over every
//! row at once (r differs from row to row, so the powers are told apart); a family is read only
//! when the fit leaves nothing but the dtype's rounding, and then only coefficients that a mistake
//! explains give a name. The fitted outputs become candidates for [`crate::evidence`], which names
//! a mistake only when it is consistent across every comparison. The formulas that need no fit
//! (r taken another way, the weight's gradient from the wrong terms) are
//! [`super::backward_formulas`]'s.

use ndarray::{ArrayD, Axis};

use tutor_grade::fit::{near, two_terms};

use crate::mistakes::Candidate;

/// The per-row ingredients of the gradient formulas, in f64.
#[derive(Clone)]
pub(super) struct Rows {
    /// One r = 1/sqrt(mean(x²) + eps) per row.
    pub(super) r: Vec<f64>,
    pub(super) x: Vec<Vec<f64>>,
    pub(super) g: Vec<Vec<f64>>,
    /// h = g ⊙ w.
    pub(super) h: Vec<Vec<f64>>,
    /// g ⊙ (1 + w): Gemma's weight, stored as an offset from one.
    pub(super) one_plus: Vec<Vec<f64>>,
    pub(super) shape: Vec<usize>,
}

/// What stands for h in a term of dx: g alone, g ⊙ w (right), or g ⊙ (1 + w).
#[derive(Clone, Copy, PartialEq)]
pub(super) enum Upstream {
    G,
    H,
    OnePlus,
}

impl Rows {
    pub(super) fn new(x: &ArrayD<f64>, grad_out: &ArrayD<f64>, weight: &[f64], eps: f64) -> Option<Rows> {
        if x.ndim() == 0 || x.shape() != grad_out.shape() || x.shape().last() != Some(&weight.len()) {
            return None;
        }
        let last = Axis(x.ndim() - 1);
        let d = weight.len() as f64;
        let x_rows: Vec<Vec<f64>> = x.lanes(last).into_iter().map(|l| l.to_vec()).collect();
        let g_rows: Vec<Vec<f64>> = grad_out.lanes(last).into_iter().map(|l| l.to_vec()).collect();
        let r = x_rows.iter().map(|row| 1.0 / (row.iter().map(|v| v * v).sum::<f64>() / d + eps).sqrt()).collect();
        let h = g_rows.iter().map(|row| row.iter().zip(weight).map(|(g, w)| g * w).collect()).collect();
        let one_plus = g_rows.iter().map(|row| row.iter().zip(weight).map(|(g, w)| g * (1.0 + w)).collect()).collect();
        Some(Rows { r, x: x_rows, g: g_rows, h, one_plus, shape: x.shape().to_vec() })
    }

    pub(super) fn array(&self, values: impl Iterator<Item = f64>) -> ArrayD<f64> {
        ArrayD::from_shape_vec(self.shape.clone(), values.collect()).expect("one value per element")
    }

    pub(super) fn upstream(&self, which: Upstream) -> &Vec<Vec<f64>> {
        match which {
            Upstream::G => &self.g,
            Upstream::H => &self.h,
            Upstream::OnePlus => &self.one_plus,
        }
    }

    /// `r^p · H`, every row.
    pub(super) fn first(&self, p: i32, which: Upstream) -> Vec<f64> {
        let upstream = self.upstream(which);
        self.r.iter().zip(upstream).flat_map(|(r, row)| row.iter().map(move |v| r.powi(p) * v)).collect()
    }

    /// `r^q · x · mean(H ⊙ x)`, every row.
    pub(super) fn second(&self, q: i32, which: Upstream) -> Vec<f64> {
        let upstream = self.upstream(which);
        let rows = self.r.iter().zip(&self.x).zip(upstream);
        rows.flat_map(|((r, x), u)| {
            let mean = x.iter().zip(u).map(|(a, b)| a * b).sum::<f64>() / x.len() as f64;
            x.iter().map(move |v| r.powi(q) * v * mean)
        })
        .collect()
    }
}

/// One family of dx formulas `a·r^p·H + b·r^q·x·mean(H'⊙x)`: its name (a candidate's variant,
/// starting with "dx": the backward cases tell dx candidates from the weight's by it), its terms,
/// and the mistake it means at `a = 1, b = −1` (`None` for the right family, whose b is read).
struct Family(&'static str, i32, Upstream, i32, Upstream, Option<&'static str>);

const FAMILIES: [Family; 11] = {
    use Upstream::{OnePlus, G, H};
    let power = Some("mean-term-wrong-power");
    let unweighted = Some("weight-missing-from-h");
    [
        Family("dx-fit", 1, H, 3, H, None),
        Family("dx-fit-r0-r2", 0, H, 2, H, Some("outer-r-missing")),
        Family("dx-fit-r2-r4", 2, H, 4, H, Some("outer-r-squared")),
        Family("dx-fit-r1-r1", 1, H, 1, H, power),
        Family("dx-fit-r1-r2", 1, H, 2, H, power),
        Family("dx-fit-r1-r4", 1, H, 4, H, power),
        Family("dx-fit-r1-r5", 1, H, 5, H, power),
        Family("dx-fit-g-g", 1, G, 3, G, unweighted),
        Family("dx-fit-h-g", 1, H, 3, G, unweighted),
        Family("dx-fit-g-h", 1, G, 3, H, unweighted),
        Family("dx-fit-one-plus", 1, OnePlus, 3, OnePlus, Some("backward-gemma-one-plus")),
    ]
};

/// The mean term's coefficients a slip of a factor gives (a 2 from d(x²)/dx kept or dropped
/// twice, say). Any other coefficient is named by nothing: an element-wise comparison follows, and
/// only an exact coefficient survives it on every seed.
const WRONG_SCALES: [f64; 6] = [0.5, 2.0, 0.25, 4.0, 1.5, 3.0];

/// The mean term's coefficient when the mean divides by a wrong count: D − 1, D + 1, 1 (a sum),
/// or D twice.
fn wrong_counts(d: f64) -> [f64; 4] {
    [d / (d - 1.0), d / (d + 1.0), d, 1.0 / d]
}

/// What a family's fitted coefficients `(a, b)` mean, if a mistake explains them.
fn meaning(family: &Family, (a, b): (f64, f64), (d, total): (f64, f64), tolerance: f64) -> Option<&'static str> {
    let near = |value, target| near(value, target, tolerance);
    if !near(a, 1.0) {
        return None;
    }
    if let Some(mistake) = family.5 {
        return near(b, -1.0).then_some(mistake);
    }
    if b.abs() <= tolerance / 10.0 {
        Some("mean-term-dropped")
    } else if near(b, 1.0) {
        Some("mean-term-wrong-sign")
    } else if near(b, -1.0) || near(-b, d / total) {
        // D over every element of x (`x.len()`) is its own candidate's ([`r_candidates`]): with
        // two or four rows it looks like a halved or quartered mean term, and names neither.
        None
    } else {
        // At D = 2 a mean over D twice is a halved mean term: such a coefficient names nothing.
        let count = wrong_counts(d).iter().any(|&k| near(-b, k));
        let scale = WRONG_SCALES.iter().any(|&k| near(-b, k));
        match (count, scale) {
            (true, false) => Some("mean-over-wrong-count"),
            (false, true) => Some("mean-term-wrong-scale"),
            _ => None,
        }
    }
}

/// The fitted dx formulas a mistake explains, as candidates: computed for every comparison, and
/// offered only when the fit is exact to `precision` (relative, the dtype's rounding).
pub fn dx_candidates(
    x: &ArrayD<f64>,
    grad_out: &ArrayD<f64>,
    weight: &[f64],
    eps: f64,
    learner_dx: &ArrayD<f64>,
    precision: f64,
) -> Vec<Candidate<f64>> {
    let Some(rows) = Rows::new(x, grad_out, weight, eps) else {
        return Vec::new();
    };
    if learner_dx.shape() != rows.shape.as_slice() {
        return Vec::new();
    }
    let y: Vec<f64> = learner_dx.iter().copied().collect();
    let d = weight.len() as f64;
    let total = (y.len() as f64).max(d);
    let mut out = Vec::new();
    if let Some(paired) = rows_paired_elsewhere(&rows, &y, precision) {
        out.push(Candidate { mistake: "gradient-rows-misaligned", variant: "dx-rows-paired", output: paired });
    }
    for family in &FAMILIES {
        let (u, v) = (rows.first(family.1, family.2), rows.second(family.3, family.4));
        let formula = |b: f64| rows.array(u.iter().zip(&v).map(|(u, v)| u + b * v));
        let exact = two_terms(&y, &u, &v).filter(|&(_, _, residual)| residual <= precision);
        // Coefficients read to about ten times the fit's own precision.
        let read = exact
            .and_then(|(a, b, _)| meaning(family, (a, b), (d, total), (10.0 * precision).max(1e-3)).map(|m| (m, b)));
        let Some((mistake, b)) = read else {
            // Not this family's mistake here: its plain formulas go out all the same, so that a
            // family read in one comparison (where r is too small to tell the powers apart, say)
            // is ruled out by the others.
            let plain: &[(&'static str, f64)] = match family.5 {
                Some(mistake) => &[(mistake, -1.0)],
                None => &[("mean-term-dropped", 0.0), ("mean-term-wrong-sign", 1.0)],
            };
            out.extend(plain.iter().map(|&(mistake, b)| Candidate { mistake, variant: family.0, output: formula(b) }));
            continue;
        };
        // The formula with the coefficients the mistake means (the fitted ones for a scale).
        let b = match mistake {
            // The count's own ratio, not the fitted one: an element-wise comparison follows.
            "mean-over-wrong-count" => {
                -wrong_counts(d).into_iter().min_by(|p, q| (p + b).abs().total_cmp(&(q + b).abs())).unwrap_or(-b)
            }
            "mean-term-wrong-scale" => {
                -WRONG_SCALES.into_iter().min_by(|p, q| (p + b).abs().total_cmp(&(q + b).abs())).unwrap_or(-b)
            }
            _ => b.round(),
        };
        // One variant per family: a family that fits here and not elsewhere is ruled out alone.
        out.push(Candidate { mistake, variant: family.0, output: formula(b) });
    }
    out
}

/// The learner's dx when each of its rows is the right formula for its own row of x and another
/// row of grad_out, the same one whatever the precision allows: dx with grad_out's rows paired
/// that way (the leading axes walked in another order, say). `None` when some row fits no row
/// of grad_out, or more than one, or every row its own.
fn rows_paired_elsewhere(rows: &Rows, learner: &[f64], precision: f64) -> Option<ArrayD<f64>> {
    // Every row against every row: kept to the small inputs where pairings are checked.
    const MOST_ROWS: usize = 64;
    let count = rows.x.len();
    let d = rows.x.first()?.len();
    if !(2..=MOST_ROWS).contains(&count) || learner.len() != count * d {
        return None;
    }
    // dx of row `i` of x taken with row `j` of grad_out.
    let paired = |i: usize, j: usize| -> Vec<f64> {
        let (r, x, h) = (rows.r[i], &rows.x[i], &rows.h[j]);
        let mean = x.iter().zip(h).map(|(v, h)| v * r * h).sum::<f64>() / d as f64;
        h.iter().zip(x).map(|(h, v)| r * (h - v * r * mean)).collect()
    };
    let close = |seen: &[f64], formula: &[f64]| {
        let scale = formula.iter().fold(0.0f64, |m, v| m.max(v.abs()));
        scale > 0.0 && seen.iter().zip(formula).all(|(a, b)| (a - b).abs() <= 10.0 * precision * scale)
    };
    let mut pairing = Vec::with_capacity(count);
    for i in 0..count {
        let seen = &learner[i * d..(i + 1) * d];
        let mut fits = (0..count).filter(|&j| close(seen, &paired(i, j)));
        let (Some(j), None) = (fits.next(), fits.next()) else {
            return None;
        };
        pairing.push(j);
    }
    if pairing.iter().enumerate().all(|(i, &j)| i == j) {
        return None;
    }
    Some(rows.array(pairing.iter().enumerate().flat_map(|(i, &j)| paired(i, j))))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::oracle;

    fn inputs() -> (ArrayD<f64>, ArrayD<f64>, Vec<f64>) {
        let mut rng = tutor_grade::Rng::new(5);
        let mut x: ArrayD<f64> = rng.normal_array(&[6, 5]);
        for (mut row, s) in x.axis_iter_mut(Axis(0)).zip([0.3, 1.0, 3.0, 0.5, 2.0, 8.0]) {
            row *= s;
        }
        let g = rng.normal_array(&[6, 5]);
        (x, g, vec![0.5, -1.25, 2.0, 0.75, -0.5])
    }

    /// dx by a formula of the family `r^p·h + b·r^q·x·mean(h⊙x)`.
    fn formula(p: i32, q: i32, b: f64) -> ArrayD<f64> {
        let (x, g, w) = inputs();
        let rows = Rows::new(&x, &g, &w, 1e-5).unwrap();
        let (u, v) = (rows.first(p, Upstream::H), rows.second(q, Upstream::H));
        rows.array(u.iter().zip(&v).map(|(u, v)| u + b * v))
    }

    /// The mistakes whose candidates match `dx`: the others are the plain formulas offered so
    /// that evidence elsewhere can rule a family out.
    fn named(dx: &ArrayD<f64>) -> Vec<&'static str> {
        let (x, g, w) = inputs();
        let same = |c: &ArrayD<f64>| c.iter().zip(dx.iter()).all(|(a, b)| (a - b).abs() <= 1e-9 * b.abs().max(1e-6));
        let candidates = dx_candidates(&x, &g, &w, 1e-5, dx, 1e-6);
        let mut names: Vec<_> = candidates.into_iter().filter(|c| same(&c.output)).map(|c| c.mistake).collect();
        names.dedup();
        names
    }

    #[test]
    fn the_right_gradient_names_nothing_and_each_corruption_names_its_family() {
        let (x, g, w) = inputs();
        let (right, _) = oracle::backward(&x, &g, &w, 1e-5);
        assert_eq!(named(&right), Vec::<&str>::new());
        assert_eq!(named(&formula(1, 3, 0.0)), ["mean-term-dropped"]);
        assert_eq!(named(&formula(1, 3, 1.0)), ["mean-term-wrong-sign"]);
        assert_eq!(named(&formula(1, 3, -5.0 / 4.0)), ["mean-over-wrong-count"]);
        assert_eq!(named(&formula(1, 3, -0.5)), ["mean-term-wrong-scale"]);
        assert!(named(&formula(1, 3, -0.37)).is_empty(), "an unexplained coefficient names nothing");
        assert_eq!(named(&formula(0, 2, -1.0)), ["outer-r-missing"]);
        assert_eq!(named(&formula(2, 4, -1.0)), ["outer-r-squared"]);
        assert_eq!(named(&formula(1, 2, -1.0)), ["mean-term-wrong-power"]);
        // A family that does not fit still offers its plain formulas, which do not match, so that
        // the evidence rules out a family read in another comparison.
        let (x, g, w) = inputs();
        let offered = dx_candidates(&x, &g, &w, 1e-5, &formula(1, 5, -1.0), 1e-6);
        assert!(offered.iter().any(|c| c.mistake == "mean-term-dropped" && c.variant == "dx-fit"));
        let (x, g, w) = inputs();
        let rows = Rows::new(&x, &g, &w, 1e-5).unwrap();
        let (u, v) = (rows.first(1, Upstream::OnePlus), rows.second(3, Upstream::OnePlus));
        assert_eq!(named(&rows.array(u.iter().zip(&v).map(|(u, v)| u - v))), ["backward-gemma-one-plus"]);
        // Noise far above the precision: no family fits, nothing is named.
        let mut noisy = formula(1, 3, 0.0);
        noisy.iter_mut().enumerate().for_each(|(i, v)| *v += 1e-2 * ((i * 7919) % 13) as f64);
        assert!(named(&noisy).is_empty());
    }

    #[test]
    fn every_candidate_names_a_catalogued_mistake() {
        let (mut x, g, w) = inputs();
        x[[1, 2]] = f64::NAN;
        use crate::mistakes::backward_formulas::{dweight_candidates, r_candidates, statistics_in};
        let mut all = r_candidates(&x, &g, &w, 1e-5);
        all.extend(dweight_candidates(&x, &g, &w, 1e-5));
        all.extend(statistics_in(&x.mapv(half::f16::from_f64), &g, &w, 1e-5));
        for id in all.iter().map(|c| c.mistake).chain(FAMILIES.iter().filter_map(|f| f.5)) {
            assert!(crate::mistakes::find(id).is_some(), "{id} is not catalogued");
        }
    }
}
