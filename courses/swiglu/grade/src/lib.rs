//! The SwiGLU course's grading code, on the trusted side of tutor: it draws inputs, calls the
//! learner's code through the course's declared calls ([`subject`]), compares with PyTorch's
//! fixtures and its own f64 oracle, names mistakes on evidence and decides every verdict.
//!
//! tutor knows it through [`COURSE`], registered in `courses/Cargo.toml`.

pub mod cases;
pub mod fixtures;
pub mod mistakes;
pub mod oracle;
pub mod text;

use tutor_grade::{Case, Course, ImportNote, Mistake};

/// The course's kit, for tests that compile learner files in (`tutor_kit::graded_server!`).
pub use tutor_kit;

tutor_kit::protocol!(tutor_grade::client!(pub mod subject));

/// The SwiGLU course, as tutor's registry knows it.
pub struct SwiGlu;

/// The course's grading code, for the registry.
pub static COURSE: SwiGlu = SwiGlu;

impl Course for SwiGlu {
    fn cases(&self) -> Vec<Case> {
        cases::all()
    }

    fn mistakes(&self) -> &'static [Mistake] {
        mistakes::ALL
    }

    fn import_notes(&self) -> &'static [ImportNote] {
        &[
            ImportNote { missing: "Param", import: "use tutor_kit::Param;" },
            ImportNote { missing: "Float", import: "use tutor_kit::Float;" },
            ImportNote { missing: "MlpError", import: "use tutor_kit::MlpError;" },
            ImportNote { missing: "Rng", import: "use tutor_kit::Rng;" },
        ]
    }
}
