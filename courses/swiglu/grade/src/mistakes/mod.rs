//! The mistakes the SwiGLU chapter can name, and the outputs each would give. The comparisons
//! record them (`Run::compare`), and `tutor_grade::evidence` names one only when every
//! comparison that computed it agrees with the learner's output and some failure it alone explains.

mod backward;
mod block;
mod catalogue;
mod hidden;
mod linear;
mod silu;
mod state;

pub use backward::*;
pub use block::block_candidates;
pub use catalogue::ALL;
pub use hidden::*;
pub use linear::*;
pub use silu::*;
pub use state::state_kept;

/// A mistaken answer's output on the input at hand, as f64 (see `tutor_grade::evidence`).
pub type Candidate = tutor_grade::Candidate<f64>;

/// The ways of writing a mistake that differ from the right answer in where it rounds alone: the
/// only ones held to the learner's output bit for bit (another is computed as near as a tolerance
/// tells, not to the bit: an erf approximated, a sum in another order).
pub const ROUNDINGS: [&str; 11] = [
    "sigmoid-in-t",
    "ops-in-t",
    "silu-unrounded",
    "product-unrounded",
    "projections-unrounded",
    "fp32-weight",
    "products-in-t",
    "fused-fp32-weights",
    "fused-weights-in-t",
    "per-op-fp32-weights",
    "block-sigmoid-in-t",
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_mistake_addresses_an_exercise_and_a_hint() {
        for m in ALL {
            assert!(
                ["01-silu", "02-linear", "03-hidden-size", "04-forward", "05-backward"].contains(&m.exercise),
                "{}",
                m.id
            );
            assert!((1..=3).contains(&m.hint), "{}", m.id);
        }
    }

    #[test]
    fn erf_is_close_enough_to_recognise_gelu() {
        assert!((silu::erf(0.5) - 0.520_499_877_813_046_5).abs() < 2e-7);
        assert!((silu::erf(-2.0) + 0.995_322_265_018_952_7).abs() < 2e-7);
    }
}
