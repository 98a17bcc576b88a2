//! Wrong solutions, one per classic mistake (`tests/mistakes/`): each must fail at least one
//! case as a real failure (not "not done", not a pass), and a failing case must name the mistake
//! its file declares in its `//! mistake:` line.

use tutor_kit::checks::{run_all, Build};
use tutor_kit::report::Status;

#[path = "mistakes/double-rounding.rs"]
mod double_rounding;
tutor_kit::graded_subject!(DoubleRounding, double_rounding::RMSNorm);

#[path = "mistakes/eps-outside-sqrt.rs"]
mod eps_outside_sqrt;
tutor_kit::graded_subject!(EpsOutsideSqrt, eps_outside_sqrt::RMSNorm);

#[path = "mistakes/frozen-weight.rs"]
mod frozen_weight;
tutor_kit::graded_subject!(FrozenWeight, frozen_weight::RMSNorm);

#[path = "mistakes/layernorm.rs"]
mod layernorm;
tutor_kit::graded_subject!(Layernorm, layernorm::RMSNorm);

#[path = "mistakes/no-eps.rs"]
mod no_eps;
tutor_kit::graded_subject!(NoEps, no_eps::RMSNorm);

#[path = "mistakes/random-weight.rs"]
mod random_weight;
tutor_kit::graded_subject!(RandomWeight, random_weight::RMSNorm);

#[path = "mistakes/scalar-weight.rs"]
mod scalar_weight;
tutor_kit::graded_subject!(ScalarWeight, scalar_weight::RMSNorm);

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

#[path = "mistakes/whole-tensor.rs"]
mod whole_tensor;
tutor_kit::graded_subject!(WholeTensor, whole_tensor::RMSNorm);

#[path = "mistakes/wrong-axis.rs"]
mod wrong_axis;
tutor_kit::graded_subject!(WrongAxis, wrong_axis::RMSNorm);

#[path = "mistakes/zero-weight.rs"]
mod zero_weight;
tutor_kit::graded_subject!(ZeroWeight, zero_weight::RMSNorm);

fn assert_named(subject: Build, mistake: &str) {
    let report = run_all(subject);
    let failed: Vec<_> = report.cases.iter().filter(|c| c.status == Status::Failed).collect();
    assert!(!failed.is_empty(), "no case caught the mistake {mistake}");
    assert!(report.cases.iter().all(|c| c.status != Status::NotDone), "{mistake}: a wrong answer is not a TODO");
    let named: Vec<(&str, Option<&str>)> = failed.iter().map(|c| (c.id.as_str(), c.mistake.as_deref())).collect();
    assert!(named.iter().any(|(_, m)| *m == Some(mistake)), "{mistake} is never named: {named:?}");
    let wrongly: Vec<_> = named.iter().filter(|(_, m)| m.is_some_and(|m| m != mistake)).collect();
    assert!(wrongly.is_empty(), "{mistake}: other mistakes named: {wrongly:?}");
}

#[test]
fn names_double_rounding() {
    assert_named(DoubleRounding::build, "double-rounding");
}

#[test]
fn names_eps_outside_sqrt() {
    assert_named(EpsOutsideSqrt::build, "eps-outside-sqrt");
}

#[test]
fn names_frozen_weight() {
    assert_named(FrozenWeight::build, "frozen-weight");
}

#[test]
fn names_layernorm() {
    assert_named(Layernorm::build, "layernorm");
}

#[test]
fn names_no_eps() {
    assert_named(NoEps::build, "no-eps");
}

#[test]
fn names_random_weight() {
    assert_named(RandomWeight::build, "random-weight");
}

#[test]
fn names_scalar_weight() {
    assert_named(ScalarWeight::build, "scalar-weight");
}

#[test]
fn names_squares_in_half() {
    assert_named(SquaresInHalf::build, "half-precision-statistics");
}

#[test]
fn names_sum_in_half() {
    assert_named(SumInHalf::build, "half-precision-statistics");
}

#[test]
fn names_sum_not_mean() {
    assert_named(SumNotMean::build, "sum-not-mean");
}

#[test]
fn names_weight_ignored() {
    assert_named(WeightIgnored::build, "weight-ignored");
}

#[test]
fn names_whole_tensor() {
    assert_named(WholeTensor::build, "whole-tensor");
}

#[test]
fn names_wrong_axis() {
    assert_named(WrongAxis::build, "wrong-axis");
}

#[test]
fn names_zero_weight() {
    assert_named(ZeroWeight::build, "zero-weight");
}
