//! The graded program's request loop, below every course: take the protocol descriptors, read a
//! request frame, let the course's kit answer it, write the reply frame, until the requests end.
//!
//! The course's kit decodes the request, calls the learner's code (under `catch_unwind`: a panic
//! is a reply like any other) and encodes the reply. Nothing here decides a verdict.

use std::io::{BufReader, BufWriter};
use std::process::ExitCode;
use std::sync::atomic::{AtomicU32, Ordering};

use crate::frame::{read_frame, write_frame};
use crate::panics;
use crate::protocol::{protocol_files, USAGE, USAGE_EXIT};

/// The TODO the running graded program grades (0: none, as in tutor's own process). Set once,
/// before any learner code runs; it never changes afterwards.
static TODO_UNDER_TEST: AtomicU32 = AtomicU32::new(0);

/// The TODO this graded program grades (0 outside a graded program): a kit's given piece that
/// answers it refuses to run (see [`crate::text::KIT_ANSWER_MARKER`]).
pub fn todo_under_test() -> u32 {
    TODO_UNDER_TEST.load(Ordering::SeqCst)
}

/// Sets `cell` to `value` if it was never set; a zero `value` sets nothing.
fn set_once(cell: &AtomicU32, value: u32) -> bool {
    value != 0 && cell.compare_exchange(0, value, Ordering::SeqCst, Ordering::SeqCst).is_ok()
}

/// Answers tutor's requests with `answer` (a request frame in, a reply frame out) until they
/// end. `todo` is the TODO this program grades, set once: the graded program's `main` calls this
/// first, and a second call can only come from learner code trying to take the loop over (or to
/// reset the refusals), so it ends the program instead.
pub fn serve(todo: u32, mut answer: impl FnMut(&[u8]) -> Vec<u8>) -> ExitCode {
    if !set_once(&TODO_UNDER_TEST, todo) {
        std::process::abort();
    }
    let Some((input, output)) = protocol_files() else {
        eprintln!("{USAGE}");
        return ExitCode::from(USAGE_EXIT);
    };
    // Remembers where a panic happened instead of printing it: the reply carries it.
    panics::install_quiet_hook();
    let mut input = BufReader::new(input);
    let mut output = BufWriter::new(output);
    loop {
        let request = match read_frame(&mut input) {
            Ok(Some(bytes)) => bytes,
            Ok(None) | Err(_) => return ExitCode::SUCCESS,
        };
        panics::take_location();
        if write_frame(&mut output, &answer(&request)).is_err() {
            return ExitCode::SUCCESS;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_todo_under_test_is_set_once_and_never_lowered() {
        let cell = AtomicU32::new(0);
        assert!(set_once(&cell, 2));
        assert!(!set_once(&cell, 0), "learner code cannot switch the refusals off");
        assert!(!set_once(&cell, 3));
        assert_eq!(cell.load(Ordering::SeqCst), 2);
    }
}
