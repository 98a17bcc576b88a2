//! Where the layers under test come from: a graded program (see [`crate::remote`]) or, in tests,
//! an exercise compiled in.

use tutor_kit::{Build, Layer, NormError};

/// What the grader builds layers from: a learner's exercise. tutor's runner implements it with
/// a confined program in another process; tests implement it in-process with a [`Build`].
pub trait Subject {
    /// `RMSNorm::new(hidden_size, eps)` in the learner's code.
    fn build(&self, hidden_size: usize, eps: f32) -> Result<Box<dyn Layer + '_>, NormError>;
}

impl Subject for Build {
    fn build(&self, hidden_size: usize, eps: f32) -> Result<Box<dyn Layer + '_>, NormError> {
        self(hidden_size, eps).map(|layer| layer as Box<dyn Layer>)
    }
}

pub use tutor_grade::fault::{Ending, Fault};
