//! The reference maths, written for clarity: the "given" pieces of the exercises.
//!
//! Each exercise stub calls these for the parts the learner is *not* writing in that exercise.
//! One file per piece, its first line saying which TODOs it answers (or lets be computed): the
//! graded program of an exercise is built with only the pieces its `given` list in `info.toml`
//! names, and every other piece's functions in their place say that they are not part of it (see
//! tutor's repository, docs/protocol.md, "One exercise, one program"). The dtype path is the one
//! the lessons teach (`tutor lesson swiglu`; for maintainers, tutor's repository has it in
//! docs/swiglu-api.md): forward ops in FP32, each result rounded once to `T`; backward in f64. This module, with every piece, is what the grader, the tests and the editor project see.

mod backward;
mod checks;
mod feed_forward;
mod hidden_size;
mod linear;
mod linear_weight;
mod silu;
mod silu_grad;

pub use backward::backward;
pub(crate) use checks::check_block;
pub use checks::{check_features, check_sizes};
pub use feed_forward::feed_forward;
pub use hidden_size::hidden_size;
pub use linear::linear;
pub use linear_weight::linear_weight;
pub use silu::silu;
pub use silu_grad::silu_grad;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Param;
    use half::bf16;
    use ndarray::{Array2, ArrayD, IxDyn};

    // The grading crate checks these pieces against PyTorch and the f64 oracle through every
    // stub; here only what a stub cannot show: FP32 sums for bf16, and a gradient accumulated.
    #[test]
    fn linear_accumulates_in_fp32_for_bf16() {
        // 512 products of 1·1 in bf16 would stall at 256 (the spacing there is 2).
        let w = Param::trainable(Array2::ones((1, 512)));
        let x = ArrayD::from_elem(IxDyn(&[512]), bf16::ONE);
        assert_eq!(linear(&x, &w).unwrap()[[0]].to_f32(), 512.0);
    }

    #[test]
    fn backward_accumulates() {
        let mut weights = [(3, 4, 1), (3, 4, 2), (4, 3, 3)].map(|(i, o, s)| linear_weight(i, o, s).unwrap());
        let x = ArrayD::from_shape_vec(IxDyn(&[2, 3]), vec![0.5f64, -1.0, 2.0, 1.5, 0.25, -0.75]).unwrap();
        let ones = ArrayD::from_elem(IxDyn(&[2, 3]), 1.0f64);
        let [g, u, d] = &mut weights;
        backward(&x, &ones, g, u, d).unwrap();
        let first = g.grad.clone().unwrap();
        backward(&x, &ones, g, u, d).unwrap();
        assert_eq!(g.grad.as_ref(), Some(&(&first * 2.0)));
    }
}
