//! `tutor_grade`: the grading framework, on the trusted side of tutor. It runs only in tutor's own
//! process (or a test's), never next to learner code: a graded program can return wrong numbers,
//! but it cannot return a verdict.
//!
//! It holds what every course's grading code shares: the [`Course`] trait the CLI knows courses
//! by, the [`Channel`] to a graded program and its [`Fault`]s, the report model, guarded case
//! bodies ([`outcome::run_guarded`]), `assert_close`-style comparison, seeded data and the
//! framework's sentences. A course's own cases, references and mistakes live in its folder
//! (`courses/<id>/grade`).

pub mod client;
pub mod compare;
pub mod course;
pub mod data;
pub mod evidence;
pub mod expect;
pub mod fault;
pub mod fit;
pub mod fixtures;
pub mod origin;
pub mod outcome;
pub mod probe;
pub mod report;
pub mod rounding;
pub mod row_scale;
pub mod run;
pub mod served;
pub mod shown;
pub mod state;
pub mod text;

pub use client::{Handle, InProcess};
pub use compare::{assert_close, is_close, unravel};
pub use course::{CaseTitle, Coaching, CompileError, Course, ImportNote, Mistake};
pub use data::Rng;
pub use evidence::{candidate, Candidate, Observation};
pub use fault::{call_decoded, call_described, Channel, Ending, Fault};
pub use outcome::{refused, returned, run_guarded, Failure, Outcome};
pub use run::{grading, Case, Run};

/// Re-exported for the code [`client!`] writes.
pub use tutor_subject;
