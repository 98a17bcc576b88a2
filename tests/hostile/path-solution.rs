//! A hostile exercise file: re-exports the reference solution, pulled in at compile time.
//! exercise: 02-norm
//! shows: pulls other files into the build
//! shows: solutions/02-norm.rs

#[path = "{{WORKSPACE}}/solutions/02-norm.rs"]
mod solution;

pub use solution::RMSNorm;
