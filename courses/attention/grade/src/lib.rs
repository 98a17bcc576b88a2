//! The attention course's grading code, on the trusted side of tutor: it draws inputs, calls the
//! learner's code through the course's declared calls ([`subject`]), compares with PyTorch's
//! fixtures and its own f64 oracle, names mistakes on evidence and decides every verdict.
//!
//! tutor knows it through [`COURSE`], registered in `courses/Cargo.toml`.

pub mod cases;
pub mod mistakes;
pub mod oracle;
pub mod served;
pub mod text;

use tutor_grade::fixtures::Fixtures;

/// PyTorch's numbers (`courses/attention/fixtures`, made by `make_fixtures.py` beside them).
pub static FIXTURES: Fixtures =
    Fixtures::new(include_str!("../../fixtures/manifest.txt"), include_bytes!("../../fixtures/fixtures.bin"));

tutor_grade::course! {
    /// The attention course, as tutor's registry knows it.
    pub struct Attention;
    imports: [
        ("AttnError", "use tutor_kit::AttnError;"),
        ("Axis", "use ndarray::Axis;"),
        ("Ix4", "use ndarray::Ix4;"),
    ];
    served: served::SERVED;

    fn stateful(&self) -> &'static [&'static str] {
        // Its KV cache is kept between calls by design: the state-kept diagnosis never probes it.
        &["Attention.forward_cached"]
    }
}
