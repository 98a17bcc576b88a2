//! The graded contracts. Every case runs in isolation: a `todo!()`, a panic or an error in one
//! case fails that case with its message, and the others still run.

mod compare;
mod data;
mod dtype;
mod layer;
mod numeric;
mod parameter;

use std::cell::RefCell;
use std::panic::{catch_unwind, AssertUnwindSafe};

pub use compare::{assert_close, is_close, unravel};
pub use layer::{Build, Element, Layer};

use crate::report::{CaseResult, Contract, Mismatch, Report, Status};
use crate::text::{self, Bi};
use crate::NormError;

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

/// One named check.
pub struct Case {
    /// The contract group it belongs to.
    pub contract: Contract,
    /// Stable id (its title comes from [`text::case_title`]).
    pub id: &'static str,
    /// The body; it builds the subject with the function it is given.
    pub run: fn(Build) -> Outcome,
}

/// Every case of every contract, in the order they are shown.
pub fn all_cases() -> Vec<Case> {
    let mut cases = parameter::cases();
    cases.extend(numeric::cases());
    cases.extend(dtype::cases());
    cases
}

/// Runs every case on the exercise that `subject` builds and collects the results.
pub fn run_all(subject: Build) -> Report {
    Report { cases: all_cases().iter().map(|case| run_case(case, subject)).collect() }
}

thread_local! {
    /// Where the last panic on this thread happened, when the quiet hook is installed.
    static PANIC_LOCATION: RefCell<Option<String>> = const { RefCell::new(None) };
}

/// Replaces the default panic hook (which prints to stderr) with one that only remembers where
/// the panic happened, so that the case's failure can say so. For the harness process only.
pub fn install_quiet_panic_hook() {
    std::panic::set_hook(Box::new(|info| {
        let location = info.location().map(|l| format!("{}:{}:{}", l.file(), l.line(), l.column()));
        PANIC_LOCATION.with(|slot| *slot.borrow_mut() = location);
    }));
}

/// Runs one case, turning a panic into a failure (or into "not done" for a TODO marker).
pub fn run_case(case: &Case, subject: Build) -> CaseResult {
    PANIC_LOCATION.with(|slot| slot.borrow_mut().take());
    let outcome = catch_unwind(AssertUnwindSafe(|| (case.run)(subject)));
    let (status, failure) = match outcome {
        Ok(Ok(())) => (Status::Passed, None),
        Ok(Err(failure)) => (Status::Failed, Some(failure)),
        Err(payload) => {
            let mut message = panic_message(payload.as_ref());
            if let Some(location) = PANIC_LOCATION.with(|slot| slot.borrow_mut().take()) {
                message = format!("{message} ({location})");
            }
            if text::is_not_done(&message) {
                (Status::NotDone, Some(Failure::new(Bi::new(message.clone(), message))))
            } else {
                (Status::Failed, Some(Failure::new(text::panicked(&message))))
            }
        }
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

fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        s.to_string()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "(a panic without a message)".to_string()
    }
}

/// Builds the subject, turning an `Err` from `new` into a failure.
fn build(subject: Build, hidden_size: usize, eps: f32) -> Result<Box<dyn Layer>, Failure> {
    subject(hidden_size, eps)
        .map_err(|e| Failure::new(text::new_failed(&format!("RMSNorm::new({hidden_size}, {eps:e})"), &e.to_string())))
}

/// Unwraps a call's result, turning an unexpected `Err` into a failure.
fn call<V>(what: &str, result: Result<V, NormError>) -> Result<V, Failure> {
    result.map_err(|e| Failure::new(text::new_failed(what, &e.to_string())))
}
