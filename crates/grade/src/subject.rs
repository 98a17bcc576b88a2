//! Where the layers under test come from, and how a graded program's failures reach a case.

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

/// How a graded program failed a call, beyond returning `Err`. A [`Subject`] raises it with
/// [`Fault::raise`] from inside a `Layer` method, and the case running at the time fails with it.
#[derive(Debug, Clone, PartialEq)]
pub enum Fault {
    /// The learner's code panicked (the graded program itself carries on).
    Panicked { message: String, location: Option<String> },
    /// The graded program ended during the call: `exit`, abort, a stack overflow, memory …
    Ended(Ending),
    /// The time limit ran out; `during_this_case` is false for the cases left after it.
    TimedOut { limit_secs: f64, during_this_case: bool },
    /// The graded program answered something that is not a reply (it wrote into tutor's pipe).
    Unreadable(String),
}

/// How a graded program ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ending {
    /// It exited with this code.
    Exited(i32),
    /// A signal ended it.
    Signalled(i32),
}

impl Fault {
    /// Unwinds out of the learner's call to the case runner, without running the panic hook
    /// (this is not a bug in tutor, and must not be reported as one).
    pub fn raise(self) -> ! {
        std::panic::resume_unwind(Box::new(self))
    }
}
