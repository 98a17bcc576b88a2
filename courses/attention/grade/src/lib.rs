//! The attention course's grading code, on the trusted side of tutor: it draws inputs, calls the
//! learner's code through the course's declared calls ([`subject`]), compares with PyTorch's
//! fixtures and its own f64 oracle, names mistakes on evidence and decides every verdict.
//!
//! tutor knows it through [`COURSE`], registered in `courses/Cargo.toml`.

// The client's `Attention::new` takes the subject and the module's seven sizes (Meta's
// `ModelArgs`: dim, heads, kv heads, max batch, max sequence, θ) and a seed.
#![allow(clippy::too_many_arguments)]

pub mod cases;
pub mod mistakes;
pub mod oracle;
pub mod text;

use tutor_grade::fixtures::Fixtures;
use tutor_grade::{Case, Course, ImportNote, Mistake};

/// The course's kit, for tests that compile learner files in (`tutor_kit::graded_server!`).
pub use tutor_kit;

tutor_kit::protocol!(tutor_grade::client!(pub mod subject));

/// PyTorch's numbers (`courses/attention/fixtures`, made by `make_fixtures.py` beside them).
pub static FIXTURES: Fixtures =
    Fixtures::new(include_str!("../../fixtures/manifest.txt"), include_bytes!("../../fixtures/fixtures.bin"));

/// The attention course, as tutor's registry knows it.
pub struct Attention;

/// The course's grading code, for the registry.
pub static COURSE: Attention = Attention;

impl Course for Attention {
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
            ImportNote { missing: "AttnError", import: "use tutor_kit::AttnError;" },
            ImportNote { missing: "Axis", import: "use ndarray::Axis;" },
            ImportNote { missing: "Ix4", import: "use ndarray::Ix4;" },
        ]
    }
}
