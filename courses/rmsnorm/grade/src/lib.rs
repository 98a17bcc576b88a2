//! The RMSNorm course's grading code, on the trusted side of tutor. It draws the inputs, calls the
//! learner's code through a [`Subject`], computes references, compares, names mistakes and
//! decides every verdict. It runs only in tutor's own process (or a test's), never next to
//! learner code: a graded program can return wrong numbers, but it cannot return a verdict.
//!
//! tutor knows it through [`COURSE`], registered in `courses/Cargo.toml`.

pub mod checks;
mod coaching;
mod diagnose;
pub mod evidence;
pub mod mistakes;
pub mod oracle;
pub mod remote;
pub mod subject;
pub mod text;

pub use checks::{all_cases, run_all, Run};
pub use subject::{Fault, Subject};
pub use tutor_grade::report;

use tutor_grade::{CaseTitle, Channel, Coaching, Course, ImportNote, Mistake};

/// The RMSNorm course, as tutor's registry knows it.
pub struct RmsNorm;

/// The course's grading code, for the registry.
pub static COURSE: RmsNorm = RmsNorm;

impl Course for RmsNorm {
    fn cases(&self) -> Vec<CaseTitle> {
        checks::titles()
    }

    fn grade(&self, channel: &dyn Channel, seed: u64) -> report::Report {
        run_all(&Run::new(&remote::Remote(channel), seed))
    }

    fn mistakes(&self) -> &'static [Mistake] {
        mistakes::ALL
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
