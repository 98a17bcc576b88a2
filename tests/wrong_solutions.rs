//! Wrong solutions, one per classic mistake: each must be caught by at least one case, as a
//! real failure (not a "not done" and not a pass).

use tutor_kit::checks::{run_all, Subject};
use tutor_kit::report::Status;

#[path = "mistakes/layernorm.rs"]
mod layernorm;
tutor_kit::graded_subject!(Layernorm, layernorm::RMSNorm);

#[path = "mistakes/first-axis.rs"]
mod first_axis;
tutor_kit::graded_subject!(FirstAxis, first_axis::RMSNorm);

#[path = "mistakes/whole-tensor.rs"]
mod whole_tensor;
tutor_kit::graded_subject!(WholeTensor, whole_tensor::RMSNorm);

#[path = "mistakes/eps-outside-sqrt.rs"]
mod eps_outside_sqrt;
tutor_kit::graded_subject!(EpsOutsideSqrt, eps_outside_sqrt::RMSNorm);

#[path = "mistakes/no-eps.rs"]
mod no_eps;
tutor_kit::graded_subject!(NoEps, no_eps::RMSNorm);

#[path = "mistakes/squares-in-half.rs"]
mod squares_in_half;
tutor_kit::graded_subject!(SquaresInHalf, squares_in_half::RMSNorm);

#[path = "mistakes/sum-in-half.rs"]
mod sum_in_half;
tutor_kit::graded_subject!(SumInHalf, sum_in_half::RMSNorm);

#[path = "mistakes/sum-not-mean.rs"]
mod sum_not_mean;
tutor_kit::graded_subject!(SumNotMean, sum_not_mean::RMSNorm);

#[path = "mistakes/weight-ignored.rs"]
mod weight_ignored;
tutor_kit::graded_subject!(WeightIgnored, weight_ignored::RMSNorm);

#[path = "mistakes/scalar-weight.rs"]
mod scalar_weight;
tutor_kit::graded_subject!(ScalarWeight, scalar_weight::RMSNorm);

#[path = "mistakes/zero-weight.rs"]
mod zero_weight;
tutor_kit::graded_subject!(ZeroWeight, zero_weight::RMSNorm);

#[path = "mistakes/random-weight.rs"]
mod random_weight;
tutor_kit::graded_subject!(RandomWeight, random_weight::RMSNorm);

#[path = "mistakes/frozen-weight.rs"]
mod frozen_weight;
tutor_kit::graded_subject!(FrozenWeight, frozen_weight::RMSNorm);

#[path = "mistakes/double-rounding.rs"]
mod double_rounding;
tutor_kit::graded_subject!(DoubleRounding, double_rounding::RMSNorm);

fn assert_caught<S: Subject>(mistake: &str) {
    let report = run_all::<S>();
    let caught: Vec<&str> = report
        .cases
        .iter()
        .filter(|c| c.status == Status::Failed)
        .map(|c| c.id.as_str())
        .collect();
    assert!(!caught.is_empty(), "no case caught the mistake {mistake}");
    assert!(
        report.cases.iter().all(|c| c.status != Status::NotDone),
        "{mistake}: a wrong answer is not a TODO"
    );
    eprintln!("{mistake} caught by {caught:?}");
}

#[test]
fn catches_layernorm() {
    assert_caught::<Layernorm>("layernorm");
}

#[test]
fn catches_first_axis() {
    assert_caught::<FirstAxis>("first-axis");
}

#[test]
fn catches_whole_tensor() {
    assert_caught::<WholeTensor>("whole-tensor");
}

#[test]
fn catches_eps_outside_sqrt() {
    assert_caught::<EpsOutsideSqrt>("eps-outside-sqrt");
}

#[test]
fn catches_no_eps() {
    assert_caught::<NoEps>("no-eps");
}

#[test]
fn catches_squares_in_half() {
    assert_caught::<SquaresInHalf>("squares-in-half");
}

#[test]
fn catches_sum_in_half() {
    assert_caught::<SumInHalf>("sum-in-half");
}

#[test]
fn catches_sum_not_mean() {
    assert_caught::<SumNotMean>("sum-not-mean");
}

#[test]
fn catches_weight_ignored() {
    assert_caught::<WeightIgnored>("weight-ignored");
}

#[test]
fn catches_scalar_weight() {
    assert_caught::<ScalarWeight>("scalar-weight");
}

#[test]
fn catches_zero_weight() {
    assert_caught::<ZeroWeight>("zero-weight");
}

#[test]
fn catches_random_weight() {
    assert_caught::<RandomWeight>("random-weight");
}

#[test]
fn catches_frozen_weight() {
    assert_caught::<FrozenWeight>("frozen-weight");
}

#[test]
fn catches_double_rounding() {
    assert_caught::<DoubleRounding>("double-rounding");
}
