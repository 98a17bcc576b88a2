//! The graded contracts. Every case runs in isolation: a `todo!()`, a panic, an error or a dead
//! graded program fails that case with its message, and the others still run.

mod compare;
mod data;
mod dtype;
mod numeric;
mod parameter;

use std::cell::RefCell;
use std::panic::{catch_unwind, AssertUnwindSafe};

pub use compare::{assert_close, is_close, unravel};
pub use data::Rng;

use tutor_kit::reference::KIT_ANSWER_MARKER;
use tutor_kit::{Layer, NormError};

use crate::report::{CaseResult, Contract, Mismatch, Report, Status};
use crate::subject::{Fault, Subject};
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

/// One grading run: the learner's code, and the seed its random inputs are drawn from.
pub struct Run<'a> {
    /// Where layers come from.
    pub subject: &'a dyn Subject,
    /// The run's seed: random inputs differ from run to run, so no answer can be memorised, and
    /// `tutor check --seed N` repeats a run exactly.
    pub seed: u64,
}

impl Run<'_> {
    /// A generator for one case's random inputs, from the run's seed and the case's own salt.
    pub fn rng(&self, salt: u64) -> Rng {
        Rng::new(self.seed ^ salt.wrapping_mul(0x9E37_79B9_7F4A_7C15))
    }

    /// Builds a layer, turning an `Err` from `new` into a failure.
    fn build(&self, hidden_size: usize, eps: f32) -> Result<Box<dyn Layer + '_>, Failure> {
        self.subject.build(hidden_size, eps).map_err(|e| {
            Failure::new(text::new_failed(&format!("RMSNorm::new({hidden_size}, {eps:e})"), &e.to_string()))
        })
    }
}

/// One named check.
pub struct Case {
    /// The contract group it belongs to.
    pub contract: Contract,
    /// Stable id (its title comes from [`text::case_title`]).
    pub id: &'static str,
    /// The body.
    pub run: fn(&Run) -> Outcome,
}

/// Every case of every contract, in the order they are shown.
pub fn all_cases() -> Vec<Case> {
    let mut cases = parameter::cases();
    cases.extend(numeric::cases());
    cases.extend(dtype::cases());
    cases
}

/// Runs every case on the learner's code and collects the results.
pub fn run_all(run: &Run) -> Report {
    Report { cases: all_cases().iter().map(|case| run_case(case, run)).collect(), seed: run.seed }
}

thread_local! {
    /// Where the last panic on this thread happened (in-process subjects only).
    static PANIC_LOCATION: RefCell<Option<String>> = const { RefCell::new(None) };
}

/// Runs one case, turning a panic or a [`Fault`] into a failure (or into "not done" for a TODO
/// marker).
pub fn run_case(case: &Case, run: &Run) -> CaseResult {
    PANIC_LOCATION.with(|slot| slot.borrow_mut().take());
    let outcome = catch_unwind(AssertUnwindSafe(|| (case.run)(run)));
    let (status, failure) = match outcome {
        Ok(Ok(())) => (Status::Passed, None),
        Ok(Err(failure)) => (Status::Failed, Some(failure)),
        Err(payload) => from_unwind(payload),
    };
    let (message, mismatch, mistake) = match failure {
        Some(f) => (Some(f.message), f.mismatch.map(|m| *m), f.mistake),
        None => (None, None, None),
    };
    CaseResult {
        contract: case.contract,
        id: case.id.to_string(),
        title: text::case_title(case.id),
        status,
        message,
        mismatch,
        mistake,
    }
}

/// What an unwinding case means: a fault of the graded program, or a panic in learner code
/// that ran in this process (tests).
fn from_unwind(payload: Box<dyn std::any::Any + Send>) -> (Status, Option<Failure>) {
    let (message, location) = match payload.downcast::<Fault>() {
        Ok(fault) => match *fault {
            Fault::Panicked { message, location } => (message, location),
            Fault::Ended(ending) => return (Status::Failed, Some(Failure::new(text::program_ended(ending)))),
            Fault::TimedOut { limit_secs, during_this_case } => {
                return (Status::Failed, Some(Failure::new(text::case_timed_out(limit_secs, during_this_case))))
            }
            Fault::Unreadable(why) => return (Status::Failed, Some(Failure::new(text::unreadable_reply(&why)))),
        },
        Err(payload) => (panic_message(payload.as_ref()), PANIC_LOCATION.with(|slot| slot.borrow_mut().take())),
    };
    if let Some(function) = message.strip_prefix(KIT_ANSWER_MARKER) {
        return (Status::Failed, Some(Failure::new(text::kit_answer_called(function.trim()))));
    }
    let shown = match location {
        Some(location) => format!("{message} ({location})"),
        None => message,
    };
    if text::is_not_done(&shown) {
        (Status::NotDone, Some(Failure::new(Bi::new(shown.clone(), shown))))
    } else if refused_by_confinement(&shown) {
        (Status::Failed, Some(Failure::new(text::panicked_confined(&shown))))
    } else {
        (Status::Failed, Some(Failure::new(text::panicked(&shown))))
    }
}

/// Replaces the default panic hook (which prints to stderr) with one that only remembers where
/// the panic happened, so that a case's failure can say so. For test processes that grade
/// learner code in-process.
pub fn install_quiet_panic_hook() {
    std::panic::set_hook(Box::new(|info| {
        let location = info.location().map(|l| format!("{}:{}:{}", l.file(), l.line(), l.column()));
        PANIC_LOCATION.with(|slot| *slot.borrow_mut() = location);
    }));
}

/// Whether a panic message carries the errors a confined graded program gets when it opens a
/// file, starts a process or makes a socket (EACCES, EPERM).
fn refused_by_confinement(message: &str) -> bool {
    message.contains("(os error 13)") || message.contains("(os error 1)")
}

fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        s.to_string()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "(a panic without a message)".to_string()
    }
}

/// Unwraps a call's result, turning an unexpected `Err` into a failure.
fn call<V>(what: &str, result: Result<V, NormError>) -> Result<V, Failure> {
    result.map_err(|e| Failure::new(text::new_failed(what, &e.to_string())))
}
