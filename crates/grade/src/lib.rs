//! `tutor_grade`: the trusted side of tutor. It draws the inputs, calls the learner's code through
//! a [`Subject`], computes references, compares, names mistakes and decides every verdict. It runs
//! only in tutor's own process (or a test's), never next to learner code: a graded program can
//! return wrong numbers, but it cannot return a verdict.

pub mod checks;
mod diagnose;
pub mod evidence;
pub mod mistakes;
pub mod oracle;
pub mod report;
pub mod subject;
pub mod text;

pub use checks::{all_cases, run_all, Run};
pub use subject::{Fault, Subject};
