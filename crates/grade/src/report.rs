//! The results of a grading run as data.

use crate::course::Mistake;
use crate::text::Bi;

/// A group of cases that one part of a course's contract stands behind (for RMSNorm: the
/// parameter, the numerics, dtypes and gradients). A course defines its own as constants.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Contract {
    /// Stable id, used in reports.
    pub id: &'static str,
    /// Its title in Chinese.
    pub zh: &'static str,
    /// Its title in English.
    pub en: &'static str,
}

impl Contract {
    /// Its title in both languages.
    pub fn title(&self) -> Bi {
        Bi::new(self.zh, self.en)
    }
}

/// How one case ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    /// Every expectation held.
    Passed,
    /// An expectation failed, the code returned an unexpected error, or it panicked.
    Failed,
    /// The code reached a `todo!` that marks a TODO as not written yet.
    NotDone,
}

impl Status {
    /// Stable id, for machine-readable reports.
    pub fn id(self) -> &'static str {
        match self {
            Status::Passed => "passed",
            Status::Failed => "failed",
            Status::NotDone => "not-done",
        }
    }
}

/// A numeric comparison that failed, in the spirit of `torch.testing.assert_close`.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Mismatch {
    /// What was compared, for example `norm(x)` or `weight.grad`, in each language (a code name
    /// reads the same in both; a description such as "dx against central differences" does not).
    pub what: Bi,
    /// The dtype of the compared values.
    pub dtype: String,
    /// Shape of the compared tensor.
    pub shape: Vec<usize>,
    /// Elements outside the tolerance.
    pub mismatched: usize,
    /// Elements in all.
    pub total: usize,
    /// Greatest absolute difference (infinite where a NaN or infinity disagrees).
    pub max_abs: f64,
    /// Index of the greatest absolute difference.
    pub max_abs_at: Vec<usize>,
    /// Greatest relative difference.
    pub max_rel: f64,
    /// Index of the greatest relative difference.
    pub max_rel_at: Vec<usize>,
    /// Absolute tolerance.
    pub atol: f64,
    /// Relative tolerance.
    pub rtol: f64,
    /// All expected values, row-major, when the tensor is small enough to show; else empty.
    pub expected: Vec<f64>,
    /// All actual values, row-major, when the tensor is small enough to show; else empty.
    pub actual: Vec<f64>,
    /// The first element (row-major) that is NaN or infinite where the reference is a number,
    /// and, when the case said what input it came from, that input.
    pub non_finite: Option<NonFinite>,
}

/// An output element that is NaN or infinite where the reference is a number: which x gave it.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct NonFinite {
    /// Its index in the output.
    pub at: Vec<usize>,
    /// What the learner's code gave there.
    pub actual: f64,
    /// The reference there.
    pub expected: f64,
    /// The input it came from, when the case traced it ([`crate::origin`]).
    pub input: Option<InputAt>,
}

/// The input an output element came from.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct InputAt {
    /// The input's name in the call (`x`).
    pub name: String,
    /// The element (elementwise functions), or the row (row functions: the index without its
    /// last axis).
    pub at: Vec<usize>,
    /// The element, or the row's first values.
    pub values: Vec<f64>,
    /// For a row: its length and its largest magnitude; `None` for an element.
    pub row: Option<(usize, f64)>,
}

/// One graded case.
#[derive(Debug, Clone, PartialEq)]
pub struct CaseResult {
    /// The contract this case belongs to.
    pub contract: Contract,
    /// Stable id, for example `tutorial-case`.
    pub id: String,
    /// What the case checks.
    pub title: Bi,
    /// How it ended.
    pub status: Status,
    /// Why it failed (absent on a pass).
    pub message: Option<Bi>,
    /// The numbers, when a comparison failed.
    pub mismatch: Option<Mismatch>,
    /// The id of the known mistake that explains this case's failure, when one does.
    pub mistake: Option<String>,
}

/// Everything one grading run found.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Report {
    /// The cases in the order they ran.
    pub cases: Vec<CaseResult>,
    /// The seed the run's random inputs were drawn from.
    pub seed: u64,
    /// The known mistakes the failures show, each once, in the order found.
    pub mistakes: Vec<String>,
    /// Every mistake the course can name (with titles and hints), to look the named ones up in.
    pub known_mistakes: &'static [Mistake],
}

impl Report {
    /// The named mistakes, with their titles and hints, in the order found.
    pub fn named_mistakes(&self) -> Vec<&'static Mistake> {
        self.mistakes.iter().filter_map(|id| self.known_mistakes.iter().find(|m| m.id == id)).collect()
    }

    /// The contracts of its cases, each once, in the order the cases ran.
    pub fn contracts(&self) -> Vec<Contract> {
        let mut contracts: Vec<Contract> = Vec::new();
        for case in &self.cases {
            if !contracts.contains(&case.contract) {
                contracts.push(case.contract);
            }
        }
        contracts
    }

    /// True when every case passed.
    pub fn all_passed(&self) -> bool {
        !self.cases.is_empty() && self.cases.iter().all(|c| c.status == Status::Passed)
    }
}
