//! The SwiGLU course's grading code, on the trusted side of tutor: it draws inputs, calls the
//! learner's code through the course's declared calls ([`subject`]), compares with PyTorch's
//! fixtures and its own f64 oracle, names mistakes on evidence and decides every verdict.
//!
//! tutor knows it through [`COURSE`], registered in `courses/Cargo.toml`.

pub mod cases;
pub mod fixtures;
pub mod mistakes;
pub mod oracle;
pub mod served;
pub mod text;

tutor_grade::course! {
    /// The SwiGLU course, as tutor's registry knows it.
    pub struct SwiGlu;
    imports: [("MlpError", "use tutor_kit::MlpError;"), ("Rng", "use tutor_kit::Rng;")];
    served: served::SERVED;

    fn before_evidence(&self, run: &tutor_grade::Run) -> Option<&'static str> {
        mistakes::state_kept(run)
    }
}
