//! Whatever a learner's code returns, grading ends in a verdict and tutor's own side never
//! panics. A fake learner file answers every call with a generated mix of right answers, right answers
//! spoiled (NaN, infinities, a value moved), arrays of any rank, length and shape (a rank lower,
//! flattened, empty, 0-d, an axis more), errors, and weights of any length with gradients of any
//! shape; every case, every observation of the known mistakes and every diagnosis runs on it, for
//! many seeds. A panic hook counts every panic, caught or not: the fake never panics itself, so
//! any panic is the grading code's.

use std::cell::{Cell, RefCell};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use ndarray::{Array1, ArrayD, IxDyn};
use rmsnorm_grade::checks::Rng;
use rmsnorm_grade::report::Status;
use rmsnorm_grade::{run_all, Run};
use tutor_grade::InProcess;
use tutor_kit::{reference, Float, NormError, Param};

static PANICS: AtomicUsize = AtomicUsize::new(0);
static FIRST_PANIC: Mutex<Option<String>> = Mutex::new(None);

/// The generator every call of one run draws from, and how often it answers right.
struct Fake {
    rng: RefCell<Rng>,
    /// Chance that a call returns the reference answer (otherwise something generated).
    right: Cell<f64>,
}

thread_local! {
    /// The fake learner file's generator, reset for each run.
    static FAKE: Fake = Fake { rng: RefCell::new(Rng::new(1)), right: Cell::new(0.5) };
}

impl Fake {
    fn chance(&self, p: f64) -> bool {
        self.rng.borrow_mut().uniform() < p
    }

    fn below(&self, n: usize) -> usize {
        (self.rng.borrow_mut().uniform() * n as f64) as usize % n.max(1)
    }

    fn value<T: Float>(&self) -> T {
        let v = match self.below(8) {
            0 => f64::NAN,
            1 => f64::INFINITY,
            2 => f64::NEG_INFINITY,
            3 => 0.0,
            4 => 1e30,
            _ => self.rng.borrow_mut().normal(),
        };
        T::from_f64(v)
    }

    fn array<T: Float>(&self, shape: &[usize]) -> ArrayD<T> {
        let len = shape.iter().product();
        let values = (0..len).map(|_| self.value()).collect();
        ArrayD::from_shape_vec(IxDyn(shape), values).expect("shape and length agree")
    }

    /// A shape related to the input's, or any shape at all.
    fn shape(&self, input: &[usize]) -> Vec<usize> {
        let mut shape = input.to_vec();
        match self.below(7) {
            0 => {
                shape.pop();
            }
            1 => shape = vec![input.iter().product()],
            2 => shape = vec![0],
            3 => shape.clear(),
            4 => shape.push(1 + self.below(3)),
            5 => shape = (0..self.below(5)).map(|_| self.below(6)).collect(),
            _ => {
                if let Some(last) = shape.last_mut() {
                    *last += 1;
                }
            }
        }
        shape
    }

    /// The right answer (often spoiled a little), something generated, or an error.
    fn answer<T: Float>(&self, input: &[usize], right: Option<ArrayD<T>>) -> Result<ArrayD<T>, NormError> {
        if let Some(mut right) = right.filter(|_| self.chance(self.right.get())) {
            if self.chance(0.3) && !right.is_empty() {
                let i = self.below(right.len());
                if let Some(v) = right.iter_mut().nth(i) {
                    *v = self.value();
                }
            }
            return Ok(right);
        }
        match self.below(5) {
            0 => Err(NormError::NoAxis),
            1 => Ok(self.array(input)),
            _ => Ok(self.array(&self.shape(input))),
        }
    }

    fn param(&self, hidden: usize) -> Param {
        let len = if self.chance(0.7) { hidden } else { self.below(6) };
        let grad_len = if self.chance(0.6) { len } else { self.below(6) };
        Param {
            value: Array1::from_iter((0..len).map(|_| self.value::<f32>())),
            grad: self.chance(0.7).then(|| Array1::from_iter((0..grad_len).map(|_| self.value::<f32>()))),
            requires_grad: self.chance(0.9),
        }
    }
}

/// A learner's file whose every answer comes from the generator: what a learner's code can do
/// (build odd weights, keep another eps, answer anything, replace its weight in `backward`).
mod fake {
    use super::*;

    pub struct RMSNorm {
        pub eps: f32,
        pub weight: Param,
    }

    impl RMSNorm {
        pub fn new(hidden_size: usize, eps: f32) -> Result<Self, NormError> {
            FAKE.with(|fake| {
                if fake.chance(0.05) {
                    return Err(NormError::ZeroHiddenSize);
                }
                let weight = if fake.chance(0.8) {
                    reference::scale_parameter(hidden_size.max(1))
                } else {
                    fake.param(hidden_size)
                };
                let eps = if fake.chance(0.8) { eps } else { fake.value() };
                Ok(RMSNorm { eps, weight })
            })
        }

        pub fn norm<T: Float>(&self, x: &ArrayD<T>) -> Result<ArrayD<f32>, NormError> {
            FAKE.with(|fake| fake.answer(x.shape(), reference::rms_normalize(x, self.eps).ok()))
        }

        pub fn forward<T: Float>(&self, x: &ArrayD<T>) -> Result<ArrayD<T>, NormError> {
            FAKE.with(|fake| fake.answer(x.shape(), reference::forward(x, self.eps, &self.weight).ok()))
        }

        pub fn backward<T: Float>(&mut self, x: &ArrayD<T>, g: &ArrayD<T>) -> Result<ArrayD<T>, NormError> {
            FAKE.with(|fake| {
                // A fresh gradient: the kit's own accumulation refuses one of another length.
                let mut scratch = Param::trainable(self.weight.value.clone());
                let right = reference::backward(x, g, self.eps, &mut scratch).ok();
                self.weight.grad = scratch.grad;
                if fake.chance(0.2) {
                    self.weight = fake.param(self.weight.len());
                }
                fake.answer(x.shape(), right)
            })
        }
    }
}

#[test]
fn any_answer_of_any_shape_gets_a_verdict_and_never_panics_the_grader() {
    std::panic::set_hook(Box::new(|info| {
        PANICS.fetch_add(1, Ordering::SeqCst);
        let mut first = FIRST_PANIC.lock().unwrap_or_else(|e| e.into_inner());
        first.get_or_insert_with(|| format!("{info}\n{}", std::backtrace::Backtrace::force_capture()));
    }));
    let mut failed_runs = 0;
    let mut shape_named = 0;
    let runs = 160u64;
    for seed in 0..runs {
        // From mostly garbage to mostly right, so that later steps of each case are reached too.
        let right = [0.0, 0.5, 0.9, 0.97][seed as usize % 4];
        FAKE.with(|fake| {
            *fake.rng.borrow_mut() = Rng::new(seed.wrapping_mul(0x2545_F491_4F6C_DD1D) + 1);
            fake.right.set(right);
        });
        let channel = InProcess::new(tutor_kit::graded_server!(fake));
        let report = run_all(&Run::new(&channel, seed));
        if report.cases.iter().any(|c| c.status == Status::Failed) {
            failed_runs += 1;
        }
        assert!(report.cases.iter().all(|c| c.status != Status::Failed || c.message.is_some()));
        let plain = |c: &&rmsnorm_grade::report::CaseResult| {
            c.message.as_ref().is_some_and(|m| m.en.contains("the result must have x's shape"))
        };
        shape_named += report.cases.iter().filter(plain).count();
    }
    drop(std::panic::take_hook());
    let first = FIRST_PANIC.lock().unwrap_or_else(|e| e.into_inner()).clone();
    assert_eq!(PANICS.load(Ordering::SeqCst), 0, "the grading code panicked; the first: {first:?}");
    assert!(shape_named > 0, "no wrong shape was named as such");
    assert!(failed_runs > runs / 2, "the fake's answers were mostly graded as wrong: {failed_runs} of {runs}");
}
