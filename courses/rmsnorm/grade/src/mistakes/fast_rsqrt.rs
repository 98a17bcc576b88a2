//! The scale `1/sqrt(mean(x²) + eps)` taken with the fast inverse square root (Quake III's bit
//! trick and one Newton step), computed exactly as such a program computes it. Its error (up to
//! about 0.18 %, depending on the bits of each row's mean square) is a fingerprint no other
//! mistake shares, so the candidate is compared as any other: it matches only a program that does
//! this, and a right answer, which it is not, never fails where it would match. Two Newton steps
//! are not offered: a few millionths off, that output is within the tolerance of a right one
//! wherever a tolerance is the judge, so it would stand beside every small mistake (a constant
//! eps, a wrong rounding) and could take its name.

use ndarray::{ArrayD, Axis};
use tutor_grade::evidence::{candidate, Candidate};

/// The magic constants people write: Quake III's and Lomont's.
const MAGIC: [(u32, &str); 2] = [(0x5f37_59df, "quake"), (0x5f37_5a86, "lomont")];

/// `1/sqrt(a)` by the bit trick and one Newton step, `y · (1.5 − (a/2 · y) · y)`, in FP32.
pub fn fast_inverse_sqrt(a: f32, magic: u32) -> f32 {
    let y = f32::from_bits(magic.wrapping_sub(a.to_bits() >> 1));
    let half = 0.5 * a;
    y * (1.5 - half * y * y)
}

/// `norm(x)` with each row's scale taken by [`fast_inverse_sqrt`], one candidate per constant;
/// `x32` is the input in FP32 (at least one axis).
pub fn candidates(x32: &ArrayD<f32>, eps: f32) -> Vec<Candidate<f32>> {
    let last = Axis(x32.ndim() - 1);
    MAGIC
        .into_iter()
        .map(|(magic, variant)| {
            let mut y = x32.clone();
            for mut row in y.lanes_mut(last) {
                let mean_square = row.iter().map(|v| v * v).sum::<f32>() / row.len() as f32;
                let scale = fast_inverse_sqrt(mean_square + eps, magic);
                row.mapv_inplace(|v| v * scale);
            }
            candidate("fast-inverse-sqrt", variant, y)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_trick_is_close_to_the_root_but_not_within_any_fp32_tolerance() {
        let worst = (1..2000)
            .map(|i| 0.01 * i as f32)
            .map(|a| ((fast_inverse_sqrt(a, 0x5f37_59df) * a.sqrt()) as f64 - 1.0).abs())
            .fold(0.0, f64::max);
        assert!(worst > 1e-3 && worst < 2e-3, "one Newton step leaves about 0.18 %: {worst}");
        assert_eq!(fast_inverse_sqrt(4.0, 0x5f37_59df), {
            let y = f32::from_bits(0x5f37_59df - (4.0f32.to_bits() >> 1));
            y * (1.5 - 2.0 * y * y)
        });
    }

    #[test]
    fn each_constant_is_a_candidate_and_nan_stays_in_its_row() {
        let x = ArrayD::from_shape_vec(vec![2, 2], vec![3.0f32, 4.0, f32::NAN, 1.0]).unwrap();
        let all = candidates(&x, 1e-6);
        assert_eq!(all.iter().map(|c| c.variant).collect::<Vec<_>>(), ["quake", "lomont"]);
        let quake = &all[0].output;
        let right = 3.0 / (12.5f32 + 1e-6).sqrt();
        assert!((quake[[0, 0]] / right - 1.0).abs() < 2e-3 && quake[[0, 0]] != right);
        assert!(quake[[1, 0]].is_nan() && quake[[1, 1]].is_nan());
    }
}
