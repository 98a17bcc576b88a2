//! Forward mistakes made around a right normalisation, as candidate outputs: the result
//! saturated at f16's largest value, the weight or the result passed through a half type whatever
//! `T` is, and a forward that normalises with a constant of its own instead of `self.eps`. Each is
//! computed exactly as such a program computes it, so that [`crate::evidence`] can hold it to
//! every comparison, bit for bit where the case compares bits.

use ndarray::{ArrayD, Axis};
use tutor_grade::evidence::{candidate, Candidate};
use tutor_kit::half::{bf16, f16};
use tutor_kit::{reference, Float, Param};

use super::in_forward;

/// The largest finite f16, which a saturating cast clamps to.
const F16_MAX: f32 = 65504.0;

/// The eps constants a forward writes in instead of `self.eps`, each its own way of writing
/// `eps-ignored` (as written in forward).
const CONSTANT_EPS: [(f32, &str); 2] = [(1e-6, "constant-1e-6"), (1e-5, "constant-1e-5")];

/// The candidates of this module for `forward(x)`: `right` is a right forward's FP32 result before
/// its one rounding, `normalized` the right FP32 normalisation.
pub fn candidates<T: Float>(
    x: &ArrayD<T>,
    eps: f32,
    weight: &Param,
    right: &ArrayD<f32>,
    normalized: &ArrayD<f32>,
) -> Vec<Candidate<T>> {
    // One way of writing it for every T, NaN kept: a clamp written with `max`/`min` drops NaN
    // too, and the NaN row names that mistake (`nan-replaced`) instead; one that saturates the
    // f16 output alone is contradicted by f32 and goes unnamed.
    let mut out =
        vec![candidate("output-saturated", "every-dtype", right.mapv(|v| T::from_f32(v.clamp(-F16_MAX, F16_MAX))))];
    out.push(candidate("rounded-through-half", "through-f16", right.mapv(|v| T::from_f32(f16::from_f32(v).to_f32()))));
    out.push(candidate(
        "rounded-through-half",
        "through-bf16",
        right.mapv(|v| T::from_f32(bf16::from_f32(v).to_f32())),
    ));
    let rounded_weight = |round: fn(f32) -> f32| Param::trainable(weight.value.mapv(round));
    for (variant, round) in
        [("bf16", (|w| bf16::from_f32(w).to_f32()) as fn(f32) -> f32), ("f16", |w| f16::from_f32(w).to_f32())]
    {
        if let Some(y) = scaled(normalized, &rounded_weight(round)) {
            out.push(candidate("weight-rounded-to-half", variant, y));
        }
    }
    for (constant, variant) in CONSTANT_EPS.into_iter().filter(|(c, _)| c.to_bits() != eps.to_bits()) {
        let own = reference::rms_normalize(x, constant).ok().and_then(|n| scaled(&n, weight));
        if let Some(y) = own {
            out.push(candidate("eps-ignored", in_forward(variant), y));
        }
    }
    out
}

/// `normalized ⊙ weight` in FP32, rounded once to `T`, as the kit's `scale_and_cast` does it.
fn scaled<T: Float>(normalized: &ArrayD<f32>, weight: &Param) -> Option<ArrayD<T>> {
    if normalized.ndim() == 0 || normalized.shape().last() != Some(&weight.len()) {
        return None;
    }
    let mut y = normalized.clone();
    y.lanes_mut(Axis(y.ndim() - 1)).into_iter().for_each(|mut row| row *= &weight.value);
    Some(y.mapv(T::from_f32))
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::{array, IxDyn};

    fn one_row<T: Float>(values: &[f32]) -> ArrayD<T> {
        ArrayD::from_shape_vec(IxDyn(&[1, values.len()]), values.iter().map(|&v| T::from_f32(v)).collect()).unwrap()
    }

    fn find<'a, T>(all: &'a [Candidate<T>], mistake: &str, variant: &str) -> &'a ArrayD<T> {
        let found = all.iter().find(|c| c.mistake == mistake && c.variant == variant);
        &found.unwrap_or_else(|| panic!("no {mistake} / {variant}")).output
    }

    fn all<T: Float>(x: &ArrayD<T>, eps: f32, weight: &Param) -> Vec<Candidate<T>> {
        let normalized = reference::rms_normalize(x, eps).unwrap();
        let right = &normalized * &weight.value;
        candidates(x, eps, weight, &right, &normalized)
    }

    #[test]
    fn a_saturated_output_stops_at_65504_keeps_nan_and_is_right_below_it() {
        let weight = Param::trainable(array![3e5f32, -3e5, 2.0, 1.0]);
        let x = one_row::<f16>(&[1.0, 1.0, -1.0, 1.0]);
        let saturated = find(&all(&x, 0.0, &weight), "output-saturated", "every-dtype").clone();
        assert_eq!(saturated.iter().map(|v| v.to_f32()).collect::<Vec<_>>(), [65504.0, -65504.0, -2.0, 1.0]);
        // The right f16 output is ±inf there; f32 keeps 3e5.
        let right = reference::forward(&x, 0.0, &weight).unwrap();
        assert!(right[[0, 0]].to_f32().is_infinite() && right[[0, 1]].to_f32().is_infinite());
        let x32 = one_row::<f32>(&[1.0, f32::NAN, -1.0, 1.0]);
        let saturated = find(&all(&x32, 0.0, &weight), "output-saturated", "every-dtype").clone();
        assert!(saturated.iter().all(|v| v.is_nan()), "a NaN row stays NaN");
        let x32 = one_row::<f32>(&[1.0, 2.0, -1.0, 0.5]);
        let small = Param::trainable(array![1.0f32, -0.5, 2.0, 3.0]);
        let right = reference::forward(&x32, 1e-6, &small).unwrap();
        assert_eq!(find(&all(&x32, 1e-6, &small), "output-saturated", "every-dtype"), &right);
    }

    #[test]
    fn a_result_through_a_half_type_has_its_precision_and_is_right_in_that_type() {
        let weight = Param::trainable(array![1.0f32, 1.0, 1.0, 1.0]);
        let x = one_row::<f32>(&[0.3, -1.7, 2.2, 0.9]);
        let through = find(&all(&x, 1e-6, &weight), "rounded-through-half", "through-f16").clone();
        let right = reference::forward(&x, 1e-6, &weight).unwrap();
        assert_ne!(through, right);
        assert!(through.iter().all(|&v| f16::from_f32(v).to_f32() == v), "every value is an f16");
        let x16 = x.mapv(f16::from_f32);
        let right16 = reference::forward(&x16, 1e-6, &weight).unwrap();
        assert_eq!(find(&all(&x16, 1e-6, &weight), "rounded-through-half", "through-f16"), &right16);
        let through_bf16 = find(&all(&x, 1e-6, &weight), "rounded-through-half", "through-bf16").clone();
        assert!(through_bf16.iter().all(|&v| bf16::from_f32(v).to_f32() == v), "every value is a bf16");
    }

    #[test]
    fn a_weight_rounded_to_a_half_type_is_right_only_when_t_is_that_type() {
        let weight = Param::trainable(array![1.001f32, -0.3337, 2.6193, 0.1]);
        let x = one_row::<f32>(&[0.3, -1.7, 2.2, 0.9]);
        let right = reference::forward(&x, 1e-6, &weight).unwrap();
        let candidates = all(&x, 1e-6, &weight);
        for variant in ["bf16", "f16"] {
            assert_ne!(find(&candidates, "weight-rounded-to-half", variant), &right, "{variant}");
        }
        let in_bf16 = Param::trainable(weight.value.mapv(|w| bf16::from_f32(w).to_f32()));
        assert_eq!(
            find(&candidates, "weight-rounded-to-half", "bf16"),
            &reference::forward(&x, 1e-6, &in_bf16).unwrap()
        );
        // With T = bf16, the weight rounded to T is right to within one bf16 rounding.
        let xb = x.mapv(bf16::from_f32);
        let rightb = reference::forward(&xb, 1e-6, &weight).unwrap();
        let seen = find(&all(&xb, 1e-6, &weight), "weight-rounded-to-half", "bf16").clone();
        assert!(seen.iter().zip(&rightb).all(|(a, b)| (a.to_f32() - b.to_f32()).abs() <= 0.01 * b.to_f32().abs()));
    }

    #[test]
    fn a_constant_eps_in_forward_is_offered_only_when_it_is_not_the_layers() {
        let weight = Param::trainable(array![1.0f32, 1.0, 1.0, 1.0]);
        let x = one_row::<f32>(&[1e-3, -1e-3, 1e-3, -1e-3]);
        let variants = |eps| {
            all(&x, eps, &weight)
                .into_iter()
                .filter(|c| c.mistake == "eps-ignored")
                .map(|c| c.variant)
                .collect::<Vec<_>>()
        };
        assert_eq!(variants(1e-6), [in_forward("constant-1e-5")]);
        assert_eq!(variants(1e-12), [in_forward("constant-1e-6"), in_forward("constant-1e-5")]);
        let own = find(&all(&x, 1e-12, &weight), "eps-ignored", in_forward("constant-1e-6")).clone();
        assert!((own[[0, 0]] - 1e-3 / (2e-6f32).sqrt()).abs() < 1e-4, "1e-3 / sqrt(1e-6 + 1e-6)");
    }
}
