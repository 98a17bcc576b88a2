//! tutor's integration tests: ONE test binary (`cargo test --test it`), one module per topic.
//!
//! One binary, because every test binary that shares `common` links the learner files and pays
//! for its own link; one binary pays once. The learner files themselves are compiled once more
//! rarely still: they are the crate `tests/learners/` (`common::fixtures`), built once per test
//! build and not again when a test changes.
//!
//! To add tests:
//! - on a new topic: a file `tests/it/<topic>.rs` starting with `use crate::common;`, and its
//!   line `mod <topic>;` below (sorted). A file `tests/<topic>.rs` would become a test binary of
//!   its own: `layout::every_file_under_tests_is_read` refuses it.
//! - learner files: drop them in `tests/alternates/<course>/` (right answers, graded with many
//!   seeds), `tests/mistakes/<course>/` (wrong ones, with `//! mistake:` and `//! exercise:`
//!   lines) or `tests/hostile/<course>/` (attacks, run through the binary). They are listed,
//!   compiled in and given one test each (`alternates::each::<course>_<file>`,
//!   `wrong_solutions::each::<course>_<file>`) by `tests/learners/build.rs`; nothing to register.
//!   A new course's folders count by being there.
//! - Tests run in parallel threads of this one process: name temporary folders through
//!   `common::Course` (unique per test), never change the process's environment or current
//!   folder, and set a panic hook only through `common::panics` (per thread).

mod alternates;
mod cargo_habits;
mod chapter2_traps;
mod cli;
mod coaching;
mod common;
mod course;
mod dev_check;
mod diagnostic_width;
mod escapes;
mod every_answer_gets_a_verdict;
mod failing_input;
mod faults;
mod floods;
mod forgeries;
mod harness_migration;
mod help_and_version;
mod hostile;
mod hostile_folders;
mod init_update;
mod json_report;
mod layout;
mod leaks;
mod learner_texts;
mod lesson_claims;
mod lesson_claims_attention;
mod lesson_claims_swiglu;
mod links;
mod migration;
mod named_mistakes;
mod privileged;
mod rebuild;
mod report_output;
mod second_course;
mod served;
mod shared_libraries;
mod texts;
mod upgrade_in_place;
mod warnings_fold;
mod watch;
mod watch_80x24;
mod widths;
mod workflow;
mod wrong_shapes;
mod wrong_solutions;
