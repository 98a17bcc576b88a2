//! The graded contracts, one per exercise (tutor_grade's case runner runs them, each in
//! isolation), and what they share: tolerances, comparison with named candidates, calls.

mod backward;
mod block;
mod hidden;
pub mod linear;
mod silu;

pub use block::PER_OP_SHARE;

use ndarray::{Array2, ArrayD};
use tutor_grade::{grading, Case, Failure, Observation, Outcome, Rng, Run};
use tutor_kit::{Float, MlpError};

use crate::mistakes::ROUNDINGS;
use crate::subject::Subject;
use crate::text;

/// Every case, in the order they run and are shown, each with the TODO it grades: one contract
/// per exercise (`silu_grad` is TODO 5's, in the backward contract).
pub fn all() -> Vec<Case> {
    let mut all = grading(&[1], silu::cases());
    all.extend(grading(&[2], linear::cases()));
    all.extend(grading(&[3], hidden::cases()));
    all.extend(grading(&[4], block::cases()));
    all.extend(grading(&[5], backward::cases()));
    all
}

/// The learner's code behind the run's channel, through the course's declared calls.
pub fn learner<'c>(run: &Run<'c>) -> Subject<'c> {
    Subject::new(run.channel)
}

/// `torch.testing.assert_close`'s default tolerances (atol, rtol) for `T`.
pub fn tolerance<T: Float>() -> (f64, f64) {
    tutor_grade::compare::torch_tolerance::<T>()
}

/// A `[rows, cols]` weight of PyTorch's default init, `U(−1/√cols, 1/√cols)`.
pub fn pytorch_init(rng: &mut Rng, rows: usize, cols: usize) -> Array2<f32> {
    let bound = 1.0 / (cols as f64).sqrt();
    Array2::from_shape_fn((rows, cols), |_| ((2.0 * rng.uniform() - 1.0) * bound) as f32)
}

/// The share of f16 and bf16 outputs that must equal the correctly rounded value where an op
/// rounds once: an FP32 result (x·σ(x), a sum of 64 products) is off by an ulp or a few of FP32,
/// which crosses a rounding boundary of f16 or bf16 about once in a few hundred values or less;
/// one rounding more (σ, or the weight left unrounded) moves a large share of them.
pub const ROUNDED_ONCE: f64 = 0.99;

pub use crate::mistakes::Candidate;

/// `assert_close`, its failure naming the dtype compared.
pub use tutor_grade::compare::close;
pub use tutor_grade::rounding::wide;

/// Requires at least `share` of `actual` to equal `expected` bit for bit (values of one dtype,
/// widened), recording the same of each rounding mistake among `candidates`; `failed` words the
/// failure from the count.
pub fn same_bits<'c>(
    run: &Run<'c>,
    actual: &ArrayD<f64>,
    expected: &ArrayD<f64>,
    share: f64,
    candidates: impl FnOnce() -> Vec<Candidate> + 'c,
    failed: impl FnOnce(usize, usize) -> Failure,
) -> Outcome {
    let (case, seen, right) = (run.case(), actual.clone(), expected.clone());
    run.observe(move || {
        let roundings = candidates().into_iter().filter(|c| ROUNDINGS.contains(&c.variant)).collect();
        vec![Observation::by_bits(case, &seen, &right, roundings, share)]
    });
    let same_shape = actual.shape() == expected.shape();
    let equal = actual.iter().zip(expected).filter(|(a, e)| same_shape && a.to_bits() == e.to_bits()).count();
    if same_shape && equal as f64 >= share * actual.len() as f64 {
        return Ok(());
    }
    Err(failed(equal, actual.len()))
}

/// Unwraps a call that must succeed.
pub fn ok<V>(what: &str, result: Result<V, MlpError>) -> Result<V, Failure> {
    result.map_err(|e| Failure::new(text::call_failed(what, &e.text())))
}

/// Requires a call to fail with the variant of `expected` (the API documents which one).
pub fn err<V>(what: &str, result: Result<V, MlpError>, expected: MlpError) -> Outcome {
    let variant = |e: &MlpError| format!("MlpError::{e:?}").split([' ', '(']).next().unwrap_or_default().to_owned();
    match result {
        Ok(_) => Err(Failure::new(text::expected_error(what, &variant(&expected)))),
        Err(e) if std::mem::discriminant(&e) != std::mem::discriminant(&expected) => {
            Err(Failure::new(text::wrong_error(what, &variant(&expected), &variant(&e))))
        }
        Err(_) => Ok(()),
    }
}

/// An example of `MlpError::ZeroSize`, for [`err`].
pub fn zero_size() -> MlpError {
    MlpError::ZeroSize { what: String::new() }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mistakes::{linear_candidates, silu_candidates};
    use crate::oracle;
    use tutor_kit::half::{bf16, f16};
    use tutor_subject::wire::Dtype;

    fn share_equal(a: &ArrayD<f64>, b: &ArrayD<f64>) -> f64 {
        a.iter().zip(b).filter(|(x, y)| x.to_bits() == y.to_bits()).count() as f64 / a.len() as f64
    }

    fn of(candidates: Vec<Candidate>, mistake: &str) -> ArrayD<f64> {
        candidates.into_iter().find(|c| c.mistake == mistake).expect("computed here").output
    }

    /// What `ROUNDED_ONCE` stands on, over many draws of the cases' inputs: FP32 x·σ(x) and FP32
    /// sums of 64 products miss the correctly rounded value well under half the 1% allowed; σ
    /// rounded first, or the weight left in FP32, misses over ten times the allowance.
    #[test]
    fn one_rounding_in_fp32_is_almost_always_right_and_one_more_is_not() {
        fn check<T: Dtype>() {
            for seed in 0..20 {
                let mut rng = tutor_grade::Rng::new(seed);
                let x: ArrayD<T> = rng.normal_array::<T>(&[1024]).mapv(|v| T::from_f64(4.0 * v.to_f64()));
                let right = oracle::round::<T>(&x.mapv(|v| v.to_f64()).mapv(oracle::silu));
                let fp32 = x.mapv(|v| T::from_f32(v.to_f32() / (1.0 + (-v.to_f32()).exp())).to_f64());
                let sigma_first = of(silu_candidates(&x), "silu-sigmoid-rounded");
                assert!(share_equal(&fp32, &right) > 1.0 - (1.0 - ROUNDED_ONCE) / 2.0, "{} silu {seed}", T::NAME);
                assert!(share_equal(&sigma_first, &right) < 1.0 - 10.0 * (1.0 - ROUNDED_ONCE), "{} σ {seed}", T::NAME);

                let weight = pytorch_init(&mut rng, 48, 64);
                let x: ArrayD<T> = rng.normal_array(&[16, 64]);
                let right = oracle::round::<T>(&oracle::linear(&x, &weight));
                let x32 = x.mapv(|v| v.to_f32()).into_dimensionality::<ndarray::Ix2>().expect("two axes");
                let as_t = weight.mapv(|w| T::from_f32(w).to_f32());
                let fp32 = x32.dot(&as_t.t()).mapv(|v| T::from_f32(v).to_f64()).into_dyn();
                let unrounded = of(linear_candidates(&x, &weight, &right, &fp32), "linear-weight-not-rounded");
                assert!(share_equal(&fp32, &right) > 1.0 - (1.0 - ROUNDED_ONCE) / 2.0, "{} linear {seed}", T::NAME);
                assert!(share_equal(&unrounded, &right) < 1.0 - 10.0 * (1.0 - ROUNDED_ONCE), "{} W {seed}", T::NAME);
            }
        }
        check::<bf16>();
        check::<f16>();
    }
}
