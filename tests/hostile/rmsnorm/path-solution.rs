//! A hostile exercise file: re-exports the reference solution, pulled in at compile time. The
//! build may not read the workspace, so rustc cannot open it.
//! exercise: 02-norm
//! shows: exercises/rmsnorm/02-norm.rs does not compile
//! shows: solutions/rmsnorm/02-norm.rs`: Permission denied

#[path = "{{WORKSPACE}}/solutions/rmsnorm/02-norm.rs"]
mod solution;

pub use solution::RMSNorm;
