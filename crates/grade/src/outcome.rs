//! What a case's body returns, and running it so that nothing it does escapes: a `todo!`, a
//! panic, or a graded program's [`Fault`] becomes the case's status and message, and the run goes
//! on.

use std::panic::{catch_unwind, AssertUnwindSafe};

use tutor_subject::panics;
use tutor_subject::text::{Explain, KIT_ABSENT_MARKER, KIT_ANSWER_MARKER};

use crate::fault::Fault;
use crate::report::{Mismatch, Status};
use crate::text::{self, Bi};

/// Why a case failed.
#[derive(Debug, Clone, PartialEq)]
pub struct Failure {
    /// What went wrong, in both languages.
    pub message: Bi,
    /// The numbers, when a comparison failed (boxed: a `Result` carrying it stays small).
    pub mismatch: Option<Box<Mismatch>>,
    /// The known mistake the wrong answer matches, if any.
    pub mistake: Option<String>,
}

impl Failure {
    /// A failure with a message only.
    pub fn new(message: Bi) -> Self {
        Failure { message, mismatch: None, mistake: None }
    }

    /// The same failure, naming a known mistake.
    pub fn with_mistake(mut self, mistake: Option<&str>) -> Self {
        self.mistake = mistake.map(str::to_string);
        self
    }
}

/// The result of one case's body.
pub type Outcome = Result<(), Failure>;

/// A call's result, an `Err` turned into a failure that quotes it: `returned(&code("norm(x)"),
/// layer.norm(&x))?`.
pub fn returned<V, E: Explain>(what: &Bi, result: Result<V, E>) -> Result<V, Failure> {
    result.map_err(|e| Failure::new(text::returned_error(what, &e.explain())))
}

/// Ok when a call returned `Err` (bad input must be refused), a failure naming it otherwise.
pub fn refused<V, E>(what: &Bi, result: Result<V, E>) -> Outcome {
    match result {
        Ok(_) => Err(Failure::new(text::expected_error(what))),
        Err(_) => Ok(()),
    }
}

/// Runs a case's body, turning a panic or a [`Fault`] into a failure (or into "not done" for a
/// TODO marker).
pub fn run_guarded(body: impl FnOnce() -> Outcome) -> (Status, Option<Failure>) {
    panics::take_location();
    match catch_unwind(AssertUnwindSafe(body)) {
        Ok(Ok(())) => (Status::Passed, None),
        Ok(Err(failure)) => (Status::Failed, Some(failure)),
        Err(payload) => from_unwind(payload),
    }
}

/// What an unwinding case means: a fault of the graded program, or a panic in learner code
/// that ran in this process (tests).
fn from_unwind(payload: Box<dyn std::any::Any + Send>) -> (Status, Option<Failure>) {
    let (message, location, call) = match learner_text(payload) {
        Ok(panic) => panic,
        Err(failure) => return failure,
    };
    if let Some(function) = message.strip_prefix(KIT_ANSWER_MARKER) {
        return (Status::Failed, Some(Failure::new(text::kit_answer_called(function.trim()))));
    }
    if let Some(absent) = message.strip_prefix(KIT_ABSENT_MARKER) {
        let (function, exercise) = absent.trim().split_once(' ').unwrap_or((absent.trim(), "?"));
        return (Status::Failed, Some(Failure::new(text::kit_piece_absent(function, exercise))));
    }
    let shown = match location {
        Some(location) => format!("{message} ({location})"),
        None => message,
    };
    // Kept as the program said it (the JSON report carries it raw); every renderer shows it
    // escaped.
    if text::is_not_done(&shown) {
        (Status::NotDone, Some(Failure::new(Bi::new(shown.clone(), shown))))
    } else if refused_by_confinement(&shown) {
        (Status::Failed, Some(Failure::new(text::panicked_confined(&shown, call.as_deref()))))
    } else {
        (Status::Failed, Some(Failure::new(text::panicked(&shown, call.as_deref()))))
    }
}

/// A panic's message, location and call (when the graded program's caller described it).
type Panic = (String, Option<String>, Option<String>);

/// A panic, or the failure a graded program's other faults make directly.
fn learner_text(payload: Box<dyn std::any::Any + Send>) -> Result<Panic, (Status, Option<Failure>)> {
    let failed = |message| Err((Status::Failed, Some(Failure::new(message))));
    match payload.downcast::<Fault>() {
        Ok(fault) => match *fault {
            Fault::Panicked { message, location, call } => Ok((message, location, call)),
            Fault::Ended(ending) => failed(text::program_ended(ending)),
            Fault::TimedOut { limit_secs, during_this_case } => {
                failed(text::case_timed_out(limit_secs, during_this_case))
            }
            Fault::Unreadable(why) => failed(text::unreadable_reply(&why)),
        },
        Err(payload) => Ok((panics::message(payload.as_ref()), panics::take_location(), None)),
    }
}

/// Replaces the default panic hook with a quiet one that remembers where a panic happened, so
/// that a case's failure can say so. For test processes that grade learner code in-process.
pub fn install_quiet_panic_hook() {
    panics::install_quiet_hook();
}

/// Whether a panic message carries the errors a confined graded program gets when it opens a
/// file, starts a process or makes a socket (EACCES, EPERM).
fn refused_by_confinement(message: &str) -> bool {
    message.contains("(os error 13)") || message.contains("(os error 1)")
}

/// The message of an unwinding call, whether a learner's panic or a graded program's fault.
pub fn unwind_message(payload: Box<dyn std::any::Any + Send>) -> String {
    match payload.downcast::<Fault>() {
        Ok(fault) => format!("{fault:?}"),
        Err(payload) => panics::message(payload.as_ref()),
    }
}
