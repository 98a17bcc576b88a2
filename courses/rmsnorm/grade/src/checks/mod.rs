//! The graded contracts. Every case runs in isolation: a `todo!()`, a panic, an error or a dead
//! graded program fails that case with its message, and the others still run.

mod dtype;
mod numeric;
mod parameter;
mod shape;

use std::cell::{Cell, RefCell};
use std::panic::AssertUnwindSafe;

pub use parameter::KEPT_EPS;
pub use tutor_grade::data;
pub use tutor_grade::outcome::install_quiet_panic_hook;
pub use tutor_grade::{assert_close, is_close, unravel, Failure, Outcome, Rng};

use tutor_grade::outcome::run_guarded;
use tutor_grade::CaseTitle;
use tutor_kit::{Layer, NormError};

use crate::evidence::{self, Observation};
use crate::report::{CaseResult, Contract, Report, Status};
use crate::subject::Subject;
use crate::text::{self, Bi};

/// The parameter: trainable, `[D]`, ones, gets a gradient.
pub const PARAMETER: Contract = Contract { id: "parameter", zh: "参数契约", en: "Parameter contract" };
/// The FP32 statistics along the last axis.
pub const NUMERIC: Contract = Contract { id: "numeric", zh: "数值契约", en: "Numeric contract" };
/// Low-precision inputs, output dtype and shape, gradients.
pub const DTYPE_GRADIENT: Contract =
    Contract { id: "dtype-gradient", zh: "dtype / 梯度契约", en: "Dtype / gradient contract" };

/// One grading run: the learner's code, the seed its random inputs are drawn from, and what the
/// comparisons observed about known mistakes.
pub struct Run<'a> {
    /// Where layers come from.
    pub subject: &'a dyn Subject,
    /// The run's seed: random inputs differ from run to run, so no answer can be memorised, and
    /// `tutor check --seed N` repeats a run exactly.
    pub seed: u64,
    observations: RefCell<Vec<Deferred<'a>>>,
    case: Cell<&'static str>,
}

/// What a comparison says about the known mistakes, worked out only when some case failed: a
/// run where every case passes names nothing, and the known mistakes' outputs on every input
/// were most of tutor's own share of a passing check.
type Deferred<'a> = Box<dyn FnOnce() -> Vec<Observation> + 'a>;

impl<'a> Run<'a> {
    /// A run of the learner's code in `subject`, with random inputs from `seed`.
    pub fn new(subject: &'a dyn Subject, seed: u64) -> Run<'a> {
        Run { subject, seed, observations: RefCell::new(Vec::new()), case: Cell::new("") }
    }

    /// The id of the case running now.
    pub fn case(&self) -> &'static str {
        self.case.get()
    }

    /// Records what a comparison says about the known mistakes, to be worked out only if some
    /// case fails: `observations` holds its own copies of what it compares.
    pub fn observe(&self, observations: impl FnOnce() -> Vec<Observation> + 'a) {
        self.observations.borrow_mut().push(Box::new(observations));
    }

    /// Works out every observation recorded. One that panics (tutor's bug, never the learner's:
    /// no code of theirs runs here) is no evidence.
    fn observations(&self) -> Vec<Observation> {
        let deferred = self.observations.take();
        let worked_out = deferred.into_iter().map(|work| std::panic::catch_unwind(AssertUnwindSafe(work)));
        worked_out.flat_map(Result::unwrap_or_default).collect()
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

/// Every case's contract, id and title, in order.
pub fn titles() -> Vec<CaseTitle> {
    all_cases().iter().map(|c| CaseTitle { contract: c.contract, id: c.id, zh: c.zh, en: c.en }).collect()
}

/// Runs every case on the learner's code, then names the mistakes the failures show.
pub fn run_all(run: &Run) -> Report {
    let mut report = Report {
        cases: all_cases().iter().map(|case| run_case(case, run)).collect(),
        seed: run.seed,
        mistakes: Vec::new(),
        known_mistakes: crate::mistakes::ALL,
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
    let observed = if names.is_empty() { evidence::named(&run.observations()) } else { Default::default() };
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

/// Runs one case, turning a panic or a fault into a failure (or into "not done" for a TODO
/// marker).
pub fn run_case(case: &Case, run: &Run) -> CaseResult {
    run.case.set(case.id);
    let (status, failure) = run_guarded(|| (case.run)(run));
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

/// Unwraps a call's result, turning an unexpected `Err` into a failure.
fn call<V>(what: &Bi, result: Result<V, NormError>) -> Result<V, Failure> {
    result.map_err(|e| Failure::new(text::new_failed(what, &e.text())))
}
