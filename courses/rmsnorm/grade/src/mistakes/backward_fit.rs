//! What a wrong backward is, read from its numbers rather than from a list of wrong programs.
//!
//! The right dx of one row is a combination of two terms, `dx = r·h − r³·x·mean(h⊙x)` (the second
//! is `r·n·mean(h⊙n)` written with x). The usual corruptions keep that shape and change one part:
//! the mean term's coefficient (dropped, the wrong sign, the wrong count), the power of r on either
//! term (the outer r missing or squared, an n written as x), or h without the weight. For each
//! family `a·r^p·H + b·r^q·x·mean(H'⊙x)` the learner's dx is fitted by least squares over every
//! row at once (r differs from row to row, so the powers are told apart); a family is read only
//! when the fit leaves nothing but the dtype's rounding, and then only coefficients that a mistake
//! explains give a name. The weight's gradient is held against `Σ g⊙n` and its corruptions the
//! same way. The fitted outputs become candidates for [`crate::evidence`], which names a mistake
//! only when it is consistent across every comparison.

use ndarray::{ArrayD, Axis};

use tutor_kit::Float;

use tutor_grade::fit::{near, two_terms};

use crate::mistakes::{candidate, Candidate};

/// The per-row ingredients of the gradient formulas, in f64.
#[derive(Clone)]
struct Rows {
    /// One r = 1/sqrt(mean(x²) + eps) per row.
    r: Vec<f64>,
    x: Vec<Vec<f64>>,
    g: Vec<Vec<f64>>,
    /// h = g ⊙ w.
    h: Vec<Vec<f64>>,
    /// g ⊙ (1 + w): Gemma's weight, stored as an offset from one.
    one_plus: Vec<Vec<f64>>,
    shape: Vec<usize>,
}

/// What stands for h in a term of dx: g alone, g ⊙ w (right), or g ⊙ (1 + w).
#[derive(Clone, Copy, PartialEq)]
enum Upstream {
    G,
    H,
    OnePlus,
}

impl Rows {
    fn new(x: &ArrayD<f64>, grad_out: &ArrayD<f64>, weight: &[f64], eps: f64) -> Option<Rows> {
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

    fn array(&self, values: impl Iterator<Item = f64>) -> ArrayD<f64> {
        ArrayD::from_shape_vec(self.shape.clone(), values.collect()).expect("one value per element")
    }

    fn upstream(&self, which: Upstream) -> &Vec<Vec<f64>> {
        match which {
            Upstream::G => &self.g,
            Upstream::H => &self.h,
            Upstream::OnePlus => &self.one_plus,
        }
    }

    /// `r^p · H`, every row.
    fn first(&self, p: i32, which: Upstream) -> Vec<f64> {
        let upstream = self.upstream(which);
        self.r.iter().zip(upstream).flat_map(|(r, row)| row.iter().map(move |v| r.powi(p) * v)).collect()
    }

    /// `r^q · x · mean(H ⊙ x)`, every row.
    fn second(&self, q: i32, which: Upstream) -> Vec<f64> {
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

/// The right formula with r computed from another eps (a constant of the learner's own, or eps
/// added outside the root) or from the whole tensor, and LayerNorm's backward (mean(h) subtracted
/// too). Computed for every comparison where it differs from the right r.
pub fn r_candidates(x: &ArrayD<f64>, grad_out: &ArrayD<f64>, weight: &[f64], eps: f64) -> Vec<Candidate<f64>> {
    let Some(rows) = Rows::new(x, grad_out, weight, eps) else {
        return Vec::new();
    };
    let d = weight.len() as f64;
    let mut out = Vec::new();
    let with_r = |r_of: &dyn Fn(f64) -> f64| {
        let rows = Rows {
            r: rows.x.iter().map(|row| r_of(row.iter().map(|v| v * v).sum::<f64>() / d)).collect(),
            ..rows.clone()
        };
        let (u, v) = (rows.first(1, Upstream::H), rows.second(3, Upstream::H));
        rows.array(u.iter().zip(&v).map(|(u, v)| u - v))
    };
    // Each constant as an f32 widened and as an f64 literal: the f64 cases tell them apart.
    let constants = [
        ("backward-eps-1e-6", f64::from(1e-6f32)),
        ("backward-eps-1e-5", f64::from(1e-5f32)),
        ("backward-machine-epsilon", f64::from(f32::EPSILON)),
        ("backward-eps-1e-6-f64", 1e-6),
        ("backward-eps-1e-5-f64", 1e-5),
    ];
    for (variant, fixed) in constants {
        if (fixed - eps).abs() > 1e-3 * eps {
            out.push(Candidate { mistake: "eps-ignored", variant, output: with_r(&|ms| 1.0 / (ms + fixed).sqrt()) });
        }
    }
    // One r for the whole tensor, from the mean square of every element.
    let count = rows.x.iter().map(Vec::len).sum::<usize>().max(1) as f64;
    let global = rows.x.iter().flatten().map(|v| v * v).sum::<f64>() / count;
    out.push(Candidate {
        mistake: "whole-tensor",
        variant: "backward-one-r",
        output: with_r(&|_| 1.0 / (global + eps).sqrt()),
    });
    // LayerNorm's backward: mean(h) subtracted as well.
    let (u, v) = (rows.first(1, Upstream::H), rows.second(3, Upstream::H));
    let mean_h = rows.r.iter().zip(&rows.h).flat_map(|(r, h)| {
        let mean = h.iter().sum::<f64>() / h.len() as f64;
        h.iter().map(move |_| r * mean)
    });
    let layernorm = u.iter().zip(&v).zip(mean_h).map(|((u, v), m)| u - v - m);
    out.push(Candidate { mistake: "layernorm", variant: "backward-mean-of-h", output: rows.array(layernorm) });
    // The mean term along the output y = n ⊙ w instead of n: dx = r·(h − y·mean(h⊙y)).
    let from_y = rows.r.iter().zip(&rows.x).zip(&rows.h).flat_map(|((&r, x), h)| {
        let y: Vec<f64> = x.iter().zip(weight).map(|(v, w)| v * r * w).collect();
        let mean = h.iter().zip(&y).map(|(a, b)| a * b).sum::<f64>() / d;
        h.iter().zip(y).map(|(h, y)| r * (h - y * mean)).collect::<Vec<_>>()
    });
    out.push(candidate("mean-term-from-y", "backward-mean-term-from-y", rows.array(from_y)));
    // The right dx multiplied by the weight once more.
    let right = with_r(&|ms| 1.0 / (ms + eps).sqrt());
    let twice = right.iter().enumerate().map(|(i, v)| v * weight[i % weight.len()]);
    out.push(candidate("weight-applied-twice", "backward-dx-times-weight", rows.array(twice)));
    // r worked out in f32 inside an f64 backward: the root, the reciprocal, or r rounded.
    type RootOf = fn(f64) -> f64;
    let in_f32: [(&'static str, RootOf); 3] = [
        ("backward-r-sqrt-in-f32", |s| 1.0 / f64::from((s as f32).sqrt())),
        ("backward-r-recip-in-f32", |s| f64::from(1.0 / (s as f32).sqrt())),
        ("backward-r-rounded-to-f32", |s| f64::from((1.0 / s.sqrt()) as f32)),
    ];
    for (variant, r_of) in in_f32 {
        out.push(Candidate { mistake: "f64-backward-in-fp32", variant, output: with_r(&|ms| r_of(ms + eps)) });
    }
    // eps widened through its decimal text (0.1, not the f32 value 0.100000001490116…).
    let decimal = format!("{}", eps as f32).parse::<f64>().unwrap_or(eps);
    if decimal != eps {
        out.push(Candidate {
            mistake: "eps-widened-through-decimal",
            variant: "backward-eps-decimal",
            output: with_r(&|ms| 1.0 / (ms + decimal).sqrt()),
        });
    }
    // A row whose right dx is NaN (a NaN in x; a zero row at eps = 0, where r = 1/0 and n = 0·∞)
    // left at 0 instead: NaNs replaced, whatever made them (told apart by a NaN row of x), or a
    // zero row special-cased, offered on every input so that any other failure rules it out.
    let right = with_r(&|ms| 1.0 / (ms + eps).sqrt());
    let last = Axis(right.ndim() - 1);
    let zeroed = |skip: &dyn Fn(usize) -> bool| {
        let mut out = right.clone();
        out.lanes_mut(last).into_iter().enumerate().filter(|(i, _)| skip(*i)).for_each(|(_, mut l)| l.fill(0.0));
        out
    };
    let zero_row = |i: usize| eps == 0.0 && rows.x[i].iter().all(|&v| v == 0.0);
    out.push(candidate("backward-zero-row-guarded", "backward-zero-row-zero", zeroed(&zero_row)));
    let nan_rows: Vec<bool> = right.lanes(last).into_iter().map(|l| l.iter().any(|v| v.is_nan())).collect();
    if nan_rows.contains(&true) {
        out.push(candidate("nan-replaced", "backward-nan-row-zero", zeroed(&|i| nan_rows[i])));
    }
    // D taken as every element of x (`x.len()`), not the row's length: in the mean square, in the
    // mean term, or in both.
    let total = rows.x.iter().map(Vec::len).sum::<usize>() as f64;
    if total > d {
        let counted = |ms_count: f64, mean_count: f64| {
            let values = rows.x.iter().zip(&rows.h).flat_map(|(x, h)| {
                let r = 1.0 / (x.iter().map(|v| v * v).sum::<f64>() / ms_count + eps).sqrt();
                let mean = x.iter().zip(h).map(|(v, h)| v * r * h).sum::<f64>() / mean_count;
                h.iter().zip(x).map(move |(h, v)| r * (h - v * r * mean)).collect::<Vec<_>>()
            });
            rows.array(values)
        };
        let variants = [
            ("backward-count-all", total, total),
            ("backward-count-all-in-r", total, d),
            ("backward-count-all-in-mean", d, total),
        ];
        for (variant, ms_count, mean_count) in variants {
            out.push(candidate("backward-all-elements-count", variant, counted(ms_count, mean_count)));
        }
    }
    // The mean square over D − 1 (a sample-variance habit), the mean term over D.
    if d > 1.0 {
        out.push(candidate(
            "d-minus-one",
            "backward-ms-over-d-minus-one",
            with_r(&|ms| 1.0 / (ms * d / (d - 1.0) + eps).sqrt()),
        ));
    }
    // n taken from the FP32 `norm(x)` (widened), r and the rest in f64: an f64 backward in part in
    // FP32.
    if let Ok(n32) = tutor_kit::reference::rms_normalize(&rows.array(rows.x.iter().flatten().copied()), eps as f32) {
        let n_rows: Vec<Vec<f64>> =
            n32.lanes(last).into_iter().map(|l| l.iter().map(|&v| f64::from(v)).collect()).collect();
        let values = rows.r.iter().zip(&n_rows).zip(&rows.h).flat_map(|((&r, n), h)| {
            let mean = n.iter().zip(h).map(|(n, h)| n * h).sum::<f64>() / d;
            h.iter().zip(n).map(move |(h, n)| r * (h - n * mean)).collect::<Vec<_>>()
        });
        out.push(candidate("f64-backward-in-fp32", "backward-n-from-fp32-norm", rows.array(values)));
    }
    if eps > 0.0 {
        out.push(candidate("eps-dropped-from-r", "backward-no-eps", with_r(&|ms| 1.0 / ms.sqrt())));
        out.push(Candidate {
            mistake: "eps-outside-sqrt",
            variant: "backward-outside-root",
            output: with_r(&|ms| 1.0 / (ms.sqrt() + eps)),
        });
    }
    out
}

/// The right formula with r's statistics taken in a half type `T` (the squares rounded to `T` and
/// summed in `T` one by one, or summed in FP32; for f16 inputs at |x| ≥ 256 the squares
/// overflow), or with r itself rounded to `T`.
pub fn statistics_in<T: Float>(x: &ArrayD<T>, grad_out: &ArrayD<f64>, weight: &[f64], eps: f64) -> Vec<Candidate<f64>> {
    if T::NAME != "float16" && T::NAME != "bfloat16" {
        return Vec::new();
    }
    let Some(rows) = Rows::new(&x.mapv(T::to_f64), grad_out, weight, eps) else {
        return Vec::new();
    };
    let d = weight.len() as f64;
    let last = Axis(x.ndim() - 1);
    let t_rows: Vec<Vec<T>> = x.lanes(last).into_iter().map(|l| l.to_vec()).collect();
    let with_mean_square = |mean_square: &dyn Fn(&[T]) -> f64| {
        let r = t_rows.iter().map(|row| 1.0 / (mean_square(row) + eps).sqrt()).collect();
        let rows = Rows { r, ..rows.clone() };
        let (u, v) = (rows.first(1, Upstream::H), rows.second(3, Upstream::H));
        rows.array(u.iter().zip(&v).map(|(u, v)| u - v))
    };
    let r_in_t = Rows { r: rows.r.iter().map(|&r| T::from_f64(r).to_f64()).collect(), ..rows.clone() };
    let (u, v) = (r_in_t.first(1, Upstream::H), r_in_t.second(3, Upstream::H));
    let mut out = Vec::new();
    // eps rounded to T before it is added (0.1 is 0.09998 in f16): r moves where mean(x²) is near eps.
    let eps_in_t = T::from_f64(eps).to_f64();
    if eps_in_t != eps {
        let exact_squares = |row: &[T]| row.iter().map(|v| v.to_f64() * v.to_f64()).sum::<f64>() / d;
        out.push(Candidate {
            mistake: "backward-eps-rounded-to-t",
            variant: "backward-eps-in-t",
            output: with_mean_square(&|row| exact_squares(row) + eps_in_t - eps),
        });
    }
    out.extend([
        candidate("backward-r-rounded-to-t", "backward-r-in-t", rows.array(u.iter().zip(&v).map(|(u, v)| u - v))),
        Candidate {
            mistake: "half-precision-statistics",
            variant: "backward-running-sum-in-t",
            output: with_mean_square(&|row| row.iter().fold(T::zero(), |acc, &v| acc + v * v).to_f64() / d),
        },
        Candidate {
            mistake: "half-precision-statistics",
            variant: "backward-squares-in-t",
            output: with_mean_square(&|row| row.iter().map(|&v| (v * v).to_f32()).sum::<f32>() as f64 / d),
        },
    ]);
    out
}

/// The weight's gradient built from x or from h instead of n, or not summed over the rows (one
/// row's, or their mean): formulas, computed for every comparison.
pub fn dweight_candidates(x: &ArrayD<f64>, grad_out: &ArrayD<f64>, weight: &[f64], eps: f64) -> Vec<Candidate<f64>> {
    let Some(rows) = Rows::new(x, grad_out, weight, eps) else {
        return Vec::new();
    };
    let count = rows.x.len();
    // Row i's term for feature j: g⊙n (right), g⊙x, h⊙n, g⊙h, g⊙n with rows holding a NaN
    // skipped, g⊙n with n taken without eps, g⊙n with zero rows at eps = 0 skipped.
    let d = weight.len() as f64;
    let rms: Vec<f64> = rows.x.iter().map(|row| (row.iter().map(|v| v * v).sum::<f64>() / d).sqrt()).collect();
    let term = |which: u8, i: usize, j: usize| match which {
        0 => rows.g[i][j] * rows.x[i][j] * rows.r[i],
        4 if rows.x[i].iter().any(|v| !(v * rows.r[i]).is_finite()) => 0.0,
        4 => rows.g[i][j] * rows.x[i][j] * rows.r[i],
        6 if eps == 0.0 && rows.x[i].iter().all(|&v| v == 0.0) => 0.0,
        6 => rows.g[i][j] * rows.x[i][j] * rows.r[i],
        1 => rows.g[i][j] * rows.x[i][j],
        5 => rows.g[i][j] * rows.x[i][j] / rms[i],
        2 => rows.h[i][j] * rows.x[i][j] * rows.r[i],
        _ => rows.g[i][j] * rows.h[i][j],
    };
    let over = |which: u8, from: usize, to: usize, divisor: f64| {
        ArrayD::from_shape_fn(vec![weight.len()], |j| (from..to).map(|i| term(which, i, j[0])).sum::<f64>() / divisor)
    };
    let mut out = vec![
        candidate("weight-gradient-from-x", "dweight", over(1, 0, count, 1.0)),
        candidate("weight-gradient-from-h", "dweight", over(2, 0, count, 1.0)),
        candidate("weight-gradient-from-h", "dweight-g-h", over(3, 0, count, 1.0)),
    ];
    let skipped = |i: usize| rows.x[i].iter().any(|v| !(v * rows.r[i]).is_finite());
    if (0..count).any(skipped) {
        out.push(candidate("nan-replaced", "dweight-nan-row-skipped", over(4, 0, count, 1.0)));
    }
    // A zero row at eps = 0 (r = 1/0) left out of the sum instead of making it NaN; on every
    // input, as dx's.
    out.push(candidate("backward-zero-row-guarded", "dweight-zero-row-skipped", over(6, 0, count, 1.0)));
    if eps > 0.0 {
        out.push(candidate("weight-gradient-without-eps", "dweight-n-without-eps", over(5, 0, count, 1.0)));
    }
    if count > 1 {
        out.push(candidate("weight-gradient-not-summed", "first-row", over(0, 0, 1, 1.0)));
        out.push(candidate("weight-gradient-not-summed", "last-row", over(0, count - 1, count, 1.0)));
        out.push(candidate("weight-gradient-not-summed", "mean-over-rows", over(0, 0, count, count as f64)));
    }
    out
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
        let mut all = r_candidates(&x, &g, &w, 1e-5);
        all.extend(dweight_candidates(&x, &g, &w, 1e-5));
        all.extend(statistics_in(&x.mapv(half::f16::from_f64), &g, &w, 1e-5));
        for id in all.iter().map(|c| c.mistake).chain(FAMILIES.iter().filter_map(|f| f.5)) {
            assert!(crate::mistakes::find(id).is_some(), "{id} is not catalogued");
        }
    }
}
