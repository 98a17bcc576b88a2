//! The results of a grading run as data.

use crate::text::Bi;

/// The three contract groups every exercise is graded on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Contract {
    /// The scale parameter: trainable, `[D]`, ones, gets a gradient.
    Parameter,
    /// The FP32 statistics along the last axis.
    Numeric,
    /// Low-precision inputs, output dtype and shape, gradients.
    DtypeGradient,
}

impl Contract {
    /// All contracts, in the order they are shown.
    pub const ALL: [Contract; 3] = [Contract::Parameter, Contract::Numeric, Contract::DtypeGradient];

    /// Stable id used in the report and in messages.
    pub fn id(self) -> &'static str {
        match self {
            Contract::Parameter => "parameter",
            Contract::Numeric => "numeric",
            Contract::DtypeGradient => "dtype-gradient",
        }
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
}

impl Report {
    /// True when every case passed.
    pub fn all_passed(&self) -> bool {
        !self.cases.is_empty() && self.cases.iter().all(|c| c.status == Status::Passed)
    }
}
