//! Whatever a learner's code returns, grading ends in a verdict and tutor's own side never panics,
//! for every registered course. Each course's reference solution is compiled in and served in
//! process, and its replies are spoiled on the wire, where every course's answers look alike: a
//! reply kept, or replaced by another call's reply of the same kind (an answer for another input,
//! an error), an array in it replaced by one of any rank, length and shape (a rank lower,
//! flattened, empty, 0-d, an axis more) or of NaN, infinities and huge values, one value spoiled,
//! bytes flipped or cut, a refusal, a panic. Every case, every observation of the known mistakes
//! and every diagnosis runs on it, for many seeds. A panic hook counts every panic, caught or not,
//! except the spoiler's own: any other is the grading code's.

use crate::common;

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use common::fixtures::SOLUTIONS;
use ndarray::{ArrayD, IxDyn};
use tutor_grade::report::Status;
use tutor_grade::tutor_subject::serve::Server;
use tutor_grade::tutor_subject::wire::{AnyArray, Reader, WireError, Writer};
use tutor_grade::tutor_subject::{half, Float};
use tutor_grade::{InProcess, Rng};

static PANICS: AtomicUsize = AtomicUsize::new(0);
static FIRST_PANIC: Mutex<Option<String>> = Mutex::new(None);
/// What the spoiler's own panics say, so that the hook can tell them from the grader's.
const SPOILED_PANIC: &str = "a spoiled answer panics";

/// A course's solution behind a spoiler of its replies.
struct Spoiled {
    solution: Box<dyn Server>,
    rng: Rng,
    /// The chance that a reply is kept as it is.
    right: f64,
    /// Replies seen, by the request's first two bytes (the call and, for a generic call, its
    /// element type): another call's reply of the same kind.
    seen: BTreeMap<[u8; 2], Vec<Vec<u8>>>,
}

impl Spoiled {
    fn below(&mut self, n: usize) -> usize {
        (self.rng.uniform() * n as f64) as usize % n.max(1)
    }

    fn value<T: Float>(&mut self) -> T {
        let v = match self.below(8) {
            0 => f64::NAN,
            1 => f64::INFINITY,
            2 => f64::NEG_INFINITY,
            3 => 0.0,
            4 => 1e30,
            _ => self.rng.normal(),
        };
        T::from_f64(v)
    }

    /// A shape related to `shape`, or any shape at all.
    fn shape(&mut self, shape: &[usize]) -> Vec<usize> {
        let mut shape = shape.to_vec();
        match self.below(8) {
            0 => drop(shape.pop()),
            1 => shape = vec![shape.iter().product()],
            2 => shape = vec![0],
            3 => shape.clear(),
            4 => shape.push(1 + self.below(3)),
            5 => shape = (0..self.below(5)).map(|_| self.below(6)).collect(),
            6 => shape.reverse(),
            _ => shape.last_mut().into_iter().for_each(|last| *last += 1),
        }
        shape
    }

    /// `array` replaced by one of another shape, or with one value spoiled.
    fn spoil<T: Float>(&mut self, array: &ArrayD<T>) -> ArrayD<T> {
        if self.below(3) == 0 && !array.is_empty() {
            let mut spoiled = array.clone();
            let at = self.below(array.len());
            if let Some(v) = spoiled.iter_mut().nth(at) {
                *v = self.value();
            }
            return spoiled;
        }
        let shape = self.shape(array.shape());
        let values = (0..shape.iter().product()).map(|_| self.value()).collect();
        ArrayD::from_shape_vec(IxDyn(&shape), values).expect("shape and length agree")
    }

    /// The arrays in `reply`: where each starts and ends, read by trying the first bytes after
    /// the start and after each array found (a misread only spoils the reply another way).
    fn arrays(reply: &[u8]) -> Vec<(usize, usize, AnyArray)> {
        let mut found = Vec::new();
        let mut from = 0;
        while from < reply.len() {
            let hit = (from..reply.len().min(from + 16)).find_map(|start| {
                let mut reader = Reader(&reply[start..]);
                let array = reader.array().ok()?;
                Some((start, reply.len() - reader.0.len(), array))
            });
            let Some((start, end, array)) = hit else { break };
            found.push((start, end, array));
            from = end.max(start + 1);
        }
        found
    }

    fn spoil_an_array(&mut self, reply: Vec<u8>) -> Vec<u8> {
        let arrays = Self::arrays(&reply);
        if arrays.is_empty() {
            return reply;
        }
        let (start, end, array) = &arrays[self.below(arrays.len())];
        let spoiled = match array {
            AnyArray::F32(a) => AnyArray::F32(self.spoil(a)),
            AnyArray::F64(a) => AnyArray::F64(self.spoil(a)),
            AnyArray::F16(a) => AnyArray::F16(self.spoil::<half::f16>(a)),
            AnyArray::Bf16(a) => AnyArray::Bf16(self.spoil::<half::bf16>(a)),
        };
        let mut w = Writer::default();
        w.array(&spoiled);
        [&reply[..*start], &w.0[..], &reply[*end..]].concat()
    }
}

impl Server for Spoiled {
    fn answer(&mut self, request: &[u8]) -> Result<Vec<u8>, WireError> {
        let reply = self.solution.answer(request)?;
        let kind = [request.first().copied().unwrap_or(0), request.get(1).copied().unwrap_or(0)];
        let seen = self.seen.entry(kind).or_default();
        seen.push(reply.clone());
        if self.rng.uniform() < self.right {
            return Ok(reply);
        }
        Ok(match self.below(8) {
            0 => panic!("{SPOILED_PANIC}"),
            1 => return Err(WireError("a spoiled answer is refused".into())),
            2 => {
                let pick = self.below(self.seen[&kind].len());
                self.seen[&kind][pick].clone()
            }
            3 => reply[..self.below(reply.len() + 1)].to_vec(),
            4 => {
                let mut flipped = reply;
                for _ in 0..1 + self.below(3) {
                    let at = self.below(flipped.len());
                    let bit = self.below(8);
                    if let Some(b) = flipped.get_mut(at) {
                        *b ^= 1 << bit;
                    }
                }
                flipped
            }
            _ => self.spoil_an_array(reply),
        })
    }
}

#[test]
fn any_answer_of_any_shape_gets_a_verdict_and_never_panics_the_grader() {
    // This thread's panics only: the other tests of the binary run beside this one.
    let counting = |info: &std::panic::PanicHookInfo<'_>| {
        let message = info.payload().downcast_ref::<String>().map_or("", String::as_str);
        if message.contains(SPOILED_PANIC) {
            return;
        }
        PANICS.fetch_add(1, Ordering::SeqCst);
        let mut first = FIRST_PANIC.lock().unwrap_or_else(|e| e.into_inner());
        first.get_or_insert_with(|| format!("{info}\n{}", std::backtrace::Backtrace::force_capture()));
    };
    common::panics::with_hook(counting, every_course_spoiled);
    let first = FIRST_PANIC.lock().unwrap_or_else(|e| e.into_inner()).clone();
    assert_eq!(PANICS.load(Ordering::SeqCst), 0, "the grading code panicked; the first: {first:?}");
}

/// Every course's solutions graded through a spoiler, 64 runs per course.
fn every_course_spoiled() {
    let mut courses = BTreeMap::new();
    for solution in SOLUTIONS {
        courses.entry(solution.course).or_insert_with(Vec::new).push(solution);
    }
    assert!(courses.len() >= 2, "every registered course: {:?}", courses.keys());
    for (course, solutions) in courses {
        let (mut failed_runs, mut shape_named) = (0, 0);
        let runs = 64u64;
        for seed in 0..runs {
            let solution = solutions[seed as usize % solutions.len()];
            let grading = solution.registered().grading;
            // A reply kept every time is the solution itself: it passes (the spoiler is the only
            // thing that makes a run fail). Otherwise from mostly garbage to mostly right, so that
            // later steps of each case are reached too.
            let right = [1.0, 0.0, 0.5, 0.9, 0.97][seed as usize % 5];
            let server = solution.server.expect("solutions are compiled in");
            let spoiled = Spoiled {
                solution: server(),
                rng: Rng::new(seed.wrapping_mul(0x2545_F491_4F6C_DD1D) + 1),
                right,
                seen: BTreeMap::new(),
            };
            let report = grading.grade(&InProcess::new(spoiled), seed);
            let failed = report.cases.iter().filter(|c| c.status == Status::Failed);
            if right == 1.0 {
                assert!(report.all_passed(), "{course}/{}: the solution itself fails", solution.name);
            } else if failed.count() > 0 {
                failed_runs += 1;
            }
            assert!(report.cases.iter().all(|c| c.status != Status::Failed || c.message.is_some()));
            let about_shape =
                |c: &&tutor_grade::report::CaseResult| c.message.as_ref().is_some_and(|m| m.en.contains("shape"));
            shape_named += report.cases.iter().filter(about_shape).count();
        }
        assert!(shape_named > 0, "{course}: no wrong shape was named as such");
        assert!(failed_runs > runs / 2, "{course}: the spoiled answers were mostly graded as right: {failed_runs}");
    }
}
