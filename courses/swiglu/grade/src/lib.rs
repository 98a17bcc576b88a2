//! The SwiGLU course's grading code, on the trusted side of tutor: it draws inputs, calls the
//! learner's code through a [`Subject`], compares with PyTorch's fixtures and its own f64 oracle,
//! names mistakes on evidence and decides every verdict.

pub mod fixtures;
pub mod oracle;
pub mod subject;

pub use subject::Subject;
pub mod cases;
pub mod mistakes;
pub mod text;

pub use cases::{run_all, titles};
