//! The graded contracts. Every case runs in isolation: a `todo!()`, a panic, an error or a dead
//! graded program fails that case with its message, and the others still run.

mod compare;
mod data;
mod dtype;
mod numeric;
mod parameter;

use std::cell::{Cell, RefCell};
use std::panic::{catch_unwind, AssertUnwindSafe};

pub use compare::{assert_close, is_close, unravel};
pub use data::Rng;
pub use parameter::KEPT_EPS;

use tutor_kit::panics;
use tutor_kit::reference::KIT_ANSWER_MARKER;
use tutor_kit::{Layer, NormError};

use crate::evidence::{self, Observation};
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

/// One grading run: the learner's code, the seed its random inputs are drawn from, and what the
/// comparisons observed about known mistakes.
pub struct Run<'a> {
    /// Where layers come from.
    pub subject: &'a dyn Subject,
    /// The run's seed: random inputs differ from run to run, so no answer can be memorised, and
    /// `tutor check --seed N` repeats a run exactly.
    pub seed: u64,
    observations: RefCell<Vec<Observation>>,
    case: Cell<&'static str>,
}

impl<'a> Run<'a> {
    /// A run of the learner's code in `subject`, with random inputs from `seed`.
    pub fn new(subject: &'a dyn Subject, seed: u64) -> Run<'a> {
        Run { subject, seed, observations: RefCell::new(Vec::new()), case: Cell::new("") }
    }

    /// The id of the case running now.
    pub fn case(&self) -> &'static str {
        self.case.get()
    }

    /// Records what a comparison says about the known mistakes.
    pub fn observe(&self, observation: Observation) {
        self.observations.borrow_mut().push(observation);
    }

    /// A generator for one case's random inputs, from the run's seed and the case's own salt.
    pub fn rng(&self, salt: u64) -> Rng {
        Rng::new(self.seed ^ salt.wrapping_mul(0x9E37_79B9_7F4A_7C15))
    }

    /// Builds a layer, turning an `Err` from `new` into a failure.
    fn build(&self, hidden_size: usize, eps: f32) -> Result<Box<dyn Layer + '_>, Failure> {
        self.subject.build(hidden_size, eps).map_err(|e| {
            Failure::new(text::new_failed(&text::code(&format!("RMSNorm::new({hidden_size}, {eps:e})")), &e.text()))
        })
    }
}

/// One named check, with its title.
pub struct Case {
    /// The contract group it belongs to.
    pub contract: Contract,
    /// Stable id.
    pub id: &'static str,
    /// What it checks, in Chinese.
    pub zh: &'static str,
    /// What it checks, in English.
    pub en: &'static str,
    /// The body.
    pub run: fn(&Run) -> Outcome,
}

/// Writes a contract's list of cases: `id, zh, en => body;` each.
macro_rules! cases {
    ($contract:expr; $($id:literal, $zh:literal, $en:literal => $run:expr;)*) => {
        vec![$(crate::checks::Case { contract: $contract, id: $id, zh: $zh, en: $en, run: $run }),*]
    };
}
pub(crate) use cases;

/// Every case of every contract, in the order they are shown.
pub fn all_cases() -> Vec<Case> {
    let mut cases = parameter::cases();
    cases.extend(numeric::cases());
    cases.extend(dtype::cases());
    cases
}

/// Runs every case on the learner's code, then names the mistakes the failures show.
pub fn run_all(run: &Run) -> Report {
    let mut report = Report {
        cases: all_cases().iter().map(|case| run_case(case, run)).collect(),
        seed: run.seed,
        mistakes: Vec::new(),
    };
    name_mistakes(run, &mut report);
    report
}

/// Names mistakes on evidence: the parameter contract's direct findings, then what the
/// observations across all cases support, then (only when nothing else did) one property.
fn name_mistakes(run: &Run, report: &mut Report) {
    if report.all_passed() {
        return;
    }
    let mut names: Vec<String> = Vec::new();
    for case in &report.cases {
        if let Some(direct) = &case.mistake {
            if !names.contains(direct) {
                names.push(direct.clone());
            }
        }
    }
    // A direct finding of the parameter contract (a clamped eps, a zero weight) also moves the
    // numbers: it explains them, and inferring more from them would name a consequence.
    let observed = if names.is_empty() { evidence::named(&run.observations.borrow()) } else { Default::default() };
    for (mistake, cases) in &observed {
        for case in report.cases.iter_mut().filter(|c| c.status == Status::Failed && cases.contains(&c.id.as_str())) {
            case.mistake.get_or_insert_with(|| mistake.to_string());
        }
        if !names.iter().any(|n| n == mistake) {
            names.push(mistake.to_string());
        }
    }
    let failed = report.cases.iter().any(|c| c.status == Status::Failed);
    if names.is_empty() && failed {
        if let Some(property) = crate::diagnose::by_property(run) {
            names.push(property.to_string());
        }
    }
    report.mistakes = names;
}

/// Runs one case, turning a panic or a [`Fault`] into a failure (or into "not done" for a TODO
/// marker).
pub fn run_case(case: &Case, run: &Run) -> CaseResult {
    panics::take_location();
    run.case.set(case.id);
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
        title: Bi::new(case.zh, case.en),
        status,
        message,
        mismatch,
        mistake,
    }
}

/// What an unwinding case means: a fault of the graded program, or a panic in learner code
/// that ran in this process (tests).
fn from_unwind(payload: Box<dyn std::any::Any + Send>) -> (Status, Option<Failure>) {
    let (message, location) = learner_text(payload);
    let (message, location) = match (message, location) {
        (Ok(message), location) => (message, location),
        (Err(failure), _) => return failure,
    };
    if let Some(function) = message.strip_prefix(KIT_ANSWER_MARKER) {
        return (Status::Failed, Some(Failure::new(text::kit_answer_called(function.trim()))));
    }
    let shown = match location {
        Some(location) => format!("{message} ({location})"),
        None => message,
    };
    let shown = text::printable(&shown);
    if text::is_not_done(&shown) {
        (Status::NotDone, Some(Failure::new(Bi::new(shown.clone(), shown))))
    } else if refused_by_confinement(&shown) {
        (Status::Failed, Some(Failure::new(text::panicked_confined(&shown))))
    } else {
        (Status::Failed, Some(Failure::new(text::panicked(&shown))))
    }
}

type Unwound = (Result<String, (Status, Option<Failure>)>, Option<String>);

/// A panic's message and location, or the failure a graded program's fault makes directly.
fn learner_text(payload: Box<dyn std::any::Any + Send>) -> Unwound {
    match payload.downcast::<Fault>() {
        Ok(fault) => match *fault {
            Fault::Panicked { message, location } => (Ok(message), location),
            Fault::Ended(ending) => (Err((Status::Failed, Some(Failure::new(text::program_ended(ending))))), None),
            Fault::TimedOut { limit_secs, during_this_case } => {
                (Err((Status::Failed, Some(Failure::new(text::case_timed_out(limit_secs, during_this_case))))), None)
            }
            Fault::Unreadable(why) => (Err((Status::Failed, Some(Failure::new(text::unreadable_reply(&why))))), None),
        },
        Err(payload) => (Ok(panics::message(payload.as_ref())), panics::take_location()),
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
pub(crate) fn unwind_message(payload: Box<dyn std::any::Any + Send>) -> String {
    match payload.downcast::<Fault>() {
        Ok(fault) => format!("{fault:?}"),
        Err(payload) => panics::message(payload.as_ref()),
    }
}

/// Unwraps a call's result, turning an unexpected `Err` into a failure.
fn call<V>(what: &Bi, result: Result<V, NormError>) -> Result<V, Failure> {
    result.map_err(|e| Failure::new(text::new_failed(what, &e.text())))
}
