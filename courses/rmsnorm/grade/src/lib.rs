//! The RMSNorm course's grading code, on the trusted side of tutor. It draws the inputs, calls the
//! learner's code through the course's declared calls ([`subject`]), computes references,
//! compares, names mistakes and decides every verdict. It runs only in tutor's own process (or a
//! test's), never next to learner code: a graded program can return wrong numbers, but it cannot
//! return a verdict.
//!
//! tutor knows it through [`COURSE`], registered in `courses/Cargo.toml`.

pub mod checks;
mod coaching;
mod diagnose;
pub mod mistakes;
pub mod oracle;
pub mod text;

pub use checks::{all_cases, Run};
pub use tutor_grade::{evidence, report, Fault};
/// The course's kit, for tests that compile learner files in (`tutor_kit::graded_server!`).
pub use tutor_kit;

use tutor_grade::{Case, Coaching, Course, ImportNote, Mistake};

// The learner's code as the checks call it: `subject::RMSNorm::new(&subject, …)`, `layer.norm(&x)`.
tutor_kit::protocol!(tutor_grade::client!(pub mod subject));

/// The RMSNorm course, as tutor's registry knows it.
pub struct RmsNorm;

/// The course's grading code, for the registry.
pub static COURSE: RmsNorm = RmsNorm;

impl Course for RmsNorm {
    fn cases(&self) -> Vec<Case> {
        all_cases()
    }

    fn mistakes(&self) -> &'static [Mistake] {
        mistakes::ALL
    }

    fn by_property(&self, run: &Run) -> Option<&'static str> {
        diagnose::by_property(run)
    }

    fn before_evidence(&self, run: &Run) -> Option<&'static str> {
        diagnose::state_kept(run)
    }

    fn implied(&self) -> &'static [(&'static str, &'static str)] {
        mistakes::IMPLIED
    }

    fn import_notes(&self) -> &'static [ImportNote] {
        &[
            ImportNote { missing: "Param", import: "use tutor_kit::Param;" },
            ImportNote { missing: "Float", import: "use tutor_kit::Float;" },
            ImportNote { missing: "NormError", import: "use tutor_kit::NormError;" },
        ]
    }

    fn coaching(&self) -> &'static [Coaching] {
        coaching::COACHING
    }
}
