//! Least squares for diagnoses that read a wrong answer's own numbers: how much of each known term
//! an output holds, and what is left over. A course fits its learner's output onto the terms of
//! the right formula and their usual corruptions, and reads a mistake from the coefficients only
//! when the leftover is no more than the dtype's rounding.

/// The sum of `p ⊙ q`.
fn dot(p: &[f64], q: &[f64]) -> f64 {
    p.iter().zip(q).map(|(a, b)| a * b).sum()
}

/// `y ≈ s·u` by least squares: `(s, residual)`, the residual's norm relative to y's. `None` when
/// y is not finite or u is zero.
pub fn one_term(y: &[f64], u: &[f64]) -> Option<(f64, f64)> {
    let (uu, yy) = (dot(u, u), dot(y, y));
    if uu == 0.0 || !uu.is_finite() || !y.iter().all(|v| v.is_finite()) {
        return None;
    }
    let s = dot(u, y) / uu;
    let residual: f64 = y.iter().zip(u).map(|(y, u)| (y - s * u).powi(2)).sum();
    Some((s, (residual / yy.max(f64::MIN_POSITIVE)).sqrt()))
}

/// `y ≈ a·u + b·v` by least squares: `(a, b, residual)`, the residual's norm relative to y's.
/// `None` when y is zero or not finite, or when u and v are too nearly collinear to tell apart.
pub fn two_terms(y: &[f64], u: &[f64], v: &[f64]) -> Option<(f64, f64, f64)> {
    let (uu, vv, uv, uy, vy, yy) = (dot(u, u), dot(v, v), dot(u, v), dot(u, y), dot(v, y), dot(y, y));
    let det = uu * vv - uv * uv;
    if det <= 1e-9 * uu * vv || yy.is_nan() || yy <= 0.0 || !y.iter().all(|v| v.is_finite()) {
        return None;
    }
    let (a, b) = ((uy * vv - vy * uv) / det, (vy * uu - uy * uv) / det);
    let residual: f64 = y.iter().zip(u).zip(v).map(|((y, u), v)| (y - a * u - b * v).powi(2)).sum();
    Some((a, b, (residual / yy).sqrt()))
}

/// `value` within `tolerance` of `target`, relative to |target| (or to 1e-3 near zero).
pub fn near(value: f64, target: f64, tolerance: f64) -> bool {
    (value - target).abs() <= tolerance * target.abs().max(1e-3)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_terms_recovers_the_coefficients_and_reports_what_is_left() {
        let u = [1.0, 2.0, -1.0, 0.5];
        let v = [0.3, -1.0, 2.0, 1.0];
        let y: Vec<f64> = u.iter().zip(&v).map(|(u, v)| 2.0 * u - 0.5 * v).collect();
        let (a, b, residual) = two_terms(&y, &u, &v).unwrap();
        assert!(near(a, 2.0, 1e-12) && near(b, -0.5, 1e-12) && residual < 1e-14, "{a} {b} {residual}");
        // An element off the plane of u and v is left over.
        let mut off = y.clone();
        off[0] += 1.0;
        assert!(two_terms(&off, &u, &v).unwrap().2 > 0.1);
        // Collinear terms, a zero or a NaN output: no fit.
        assert_eq!(two_terms(&y, &u, &u.map(|x| 3.0 * x)), None);
        assert_eq!(two_terms(&[0.0; 4], &u, &v), None);
        assert_eq!(two_terms(&[f64::NAN, 1.0, 1.0, 1.0], &u, &v), None);
    }

    #[test]
    fn one_term_recovers_the_scale() {
        let (s, residual) = one_term(&[2.0, 4.0, -2.0], &[1.0, 2.0, -1.0]).unwrap();
        assert!(near(s, 2.0, 1e-12) && residual < 1e-15);
        assert!(one_term(&[2.0, 4.0, 0.0], &[1.0, 2.0, -1.0]).unwrap().1 > 0.1);
        assert_eq!(one_term(&[1.0, 1.0], &[0.0, 0.0]), None);
        assert!(!near(1.1, 1.0, 1e-3) && near(1.0005, 1.0, 1e-3));
    }
}
