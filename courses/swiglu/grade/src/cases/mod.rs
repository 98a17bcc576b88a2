//! The graded contracts, one per exercise, and the run that executes them. Every case runs in
//! isolation: a `todo!()`, a panic or an `Err` fails that case only.

mod backward;
mod block;
mod hidden;
pub mod linear;
mod silu;

use ndarray::ArrayD;
use tutor_grade::outcome::run_guarded;
use tutor_grade::report::{CaseResult, Contract, Report};
use tutor_grade::{assert_close, is_close, CaseTitle, Failure, Outcome, Rng};
use tutor_kit::{Float, MlpError};

use crate::subject::Subject;
use crate::text::{self, Bi};

/// One grading run: the learner's code and the seed its random inputs come from.
pub struct Run<'a> {
    /// The learner's functions and layers, through the course's declared calls.
    pub subject: &'a Subject<'a>,
    /// The run's seed (`tutor check --seed N` repeats a run).
    pub seed: u64,
}

impl Run<'_> {
    /// A generator for one case's inputs, from the run's seed and the case's salt.
    pub fn rng(&self, salt: u64) -> Rng {
        Rng::new(self.seed ^ salt.wrapping_mul(0x9E37_79B9_7F4A_7C15))
    }
}

/// One named check.
pub struct Case {
    /// The contract (exercise) it stands behind.
    pub contract: Contract,
    /// Stable id.
    pub id: &'static str,
    /// Its title, in Chinese.
    pub zh: &'static str,
    /// Its title, in English.
    pub en: &'static str,
    /// The body.
    pub run: fn(&Run) -> Outcome,
}

/// Writes a contract's cases: `id, zh, en => body;` each.
macro_rules! cases {
    ($contract:expr; $($id:literal, $zh:literal, $en:literal => $run:expr;)*) => {
        vec![$(crate::cases::Case { contract: $contract, id: $id, zh: $zh, en: $en, run: $run }),*]
    };
}
pub(crate) use cases;

/// Every case, in the order they run and are shown.
pub fn all() -> Vec<Case> {
    let mut all = silu::cases();
    all.extend(linear::cases());
    all.extend(hidden::cases());
    all.extend(block::cases());
    all.extend(backward::cases());
    all
}

/// Every case's contract, id and title.
pub fn titles() -> Vec<CaseTitle> {
    all().iter().map(|c| CaseTitle { contract: c.contract, id: c.id, zh: c.zh, en: c.en }).collect()
}

/// Runs every case; the mistakes named are those the failing cases found evidence for.
pub fn run_all(subject: &Subject, seed: u64) -> Report {
    let run = Run { subject, seed };
    let cases: Vec<CaseResult> = all()
        .iter()
        .map(|case| {
            let (status, failure) = run_guarded(|| (case.run)(&run));
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
        })
        .collect();
    let mut mistakes: Vec<String> = Vec::new();
    for name in cases.iter().filter_map(|c| c.mistake.clone()) {
        if !mistakes.contains(&name) {
            mistakes.push(name);
        }
    }
    Report { cases, seed, mistakes, known_mistakes: crate::mistakes::ALL }
}

/// `torch.testing.assert_close`'s default tolerances (atol, rtol) for `T`.
pub fn tolerance<T: Float>() -> (f64, f64) {
    match T::NAME {
        "float16" => (1e-5, 1e-3),
        "bfloat16" => (1e-5, 1.6e-2),
        "float64" => (1e-7, 1e-7),
        _ => (1e-5, 1.3e-6),
    }
}

/// A mistaken answer's output, to be compared only when the right one failed.
pub type Candidate = (&'static str, ArrayD<f64>);

/// Compares `actual` with `expected` under (atol, rtol); on a failure, names the first candidate
/// mistake whose output `actual` matches everywhere (exact evidence, or no name).
pub fn compare(
    what: &str,
    dtype: &str,
    actual: &ArrayD<f64>,
    expected: &ArrayD<f64>,
    (atol, rtol): (f64, f64),
    candidates: impl FnOnce() -> Vec<Candidate>,
) -> Outcome {
    assert_close(&text::code(what), dtype, actual, expected, atol, rtol).map_err(|failure| {
        let named = candidates().into_iter().find(|(_, c)| {
            c.shape() == actual.shape() && actual.iter().zip(c).all(|(&a, &c)| is_close(a, c, atol, rtol))
        });
        failure.with_mistake(named.map(|(id, _)| id))
    })
}

/// Unwraps a call that must succeed.
pub fn ok<V>(what: &str, result: Result<V, MlpError>) -> Result<V, Failure> {
    result.map_err(|e| Failure::new(text::call_failed(what, &e.text())))
}

/// Requires a call to fail.
pub fn err<V>(what: &str, result: Result<V, MlpError>) -> Outcome {
    match result {
        Ok(_) => Err(Failure::new(text::expected_error(what))),
        Err(_) => Ok(()),
    }
}

/// Widens a `T` array to f64.
pub fn wide<T: Float>(x: &ArrayD<T>) -> ArrayD<f64> {
    x.mapv(|v| v.to_f64())
}
