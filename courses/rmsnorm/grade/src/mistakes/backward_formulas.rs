//! What a wrong backward would output, by formula: the right dx with r taken another way (another
//! eps, the whole tensor, D − 1 or every element of x, in FP32 or in T, from the FP32 norm),
//! LayerNorm's backward and the other corruptions of its terms, a zero row or a NaN row special-
//! cased, and the weight's gradient built from the wrong terms. Computed for every comparison
//! where they differ from the right answer, so that a passing comparison rules them out; the fitted
//! families of dx are [`super::backward_fit`]'s.

use ndarray::{ArrayD, Axis};

use tutor_kit::Float;

use super::backward_fit::{Rows, Upstream};
use crate::mistakes::{candidate, Candidate};

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
