//! The diagnosis "the answer depends on earlier calls" (`state-kept-between-calls`), for any
//! course whose learner code lives behind handles (a layer built by `new`, then asked again and
//! again). A right method of such a handle is a function of its input; code that keeps a result,
//! statistics or a buffer between calls breaks every comparison by accident, so a course asks this
//! first, before any evidence is read ([`crate::Course::before_evidence`]).
//!
//! A method the course keeps state in on purpose (a KV cache) is declared stateful
//! ([`crate::Course::stateful`]) and never probed here.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicUsize, Ordering};

use ndarray::{ArrayD, Axis};

use crate::data::Rng;
use crate::probe::{all_close, probe, Called};

/// The mistake this diagnosis names.
pub const MISTAKE: &str = "state-kept-between-calls";

/// A method called on one handle and one input, its answer widened to f64.
pub type Call<'a, H, E> = dyn Fn(&mut H, &ArrayD<f32>) -> Result<ArrayD<f64>, E> + 'a;

/// One method of a learner's handle, as the diagnosis calls it: inputs carry their rows along
/// axis 1 (`[batch, rows, features]`), answers are widened to f64.
pub struct Method<'a, H, E> {
    /// `Type.method`, as the course's protocol declares it (what [`crate::Course::stateful`] lists).
    pub name: &'static str,
    /// A fresh handle from the learner's constructor.
    pub fresh: &'a dyn Fn() -> Result<H, E>,
    /// The method on one handle and one input.
    pub call: &'a Call<'a, H, E>,
    /// The right answer for an input.
    pub right: &'a dyn Fn(&ArrayD<f32>) -> ArrayD<f64>,
    /// An input with `rows` rows, drawn from the generator.
    pub input: &'a dyn Fn(&mut Rng, usize) -> ArrayD<f32>,
    /// Whether the handle is as a fresh one after two calls in the sense the right answer needs
    /// (its weight unchanged, say): a handle a call changed on purpose (an optimiser step) is the
    /// cases' finding, not this one's.
    pub intact: &'a dyn Fn(&H) -> bool,
}

/// A method the diagnosis can probe, whatever its handle and error types.
pub trait Probed {
    /// `Type.method`.
    fn name(&self) -> &'static str;
    /// Whether its answer depends on what was asked before, with inputs from `rng(salt)`.
    fn kept_between_calls(&self, rng: &dyn Fn(u64) -> Rng) -> bool;
}

impl<H, E> Probed for Method<'_, H, E> {
    fn name(&self) -> &'static str {
        self.name
    }

    fn kept_between_calls(&self, rng: &dyn Fn(u64) -> Rng) -> bool {
        kept_between_calls(self, rng)
    }
}

/// [`MISTAKE`] when any of `methods` not declared in `stateful` answers depending on what was
/// asked before; a declared one is never called. A probe that panics (tutor's own bug: the
/// learner's panics are caught inside) is no evidence.
pub fn state_kept(methods: &[&dyn Probed], stateful: &[&str], rng: &dyn Fn(u64) -> Rng) -> Option<&'static str> {
    let probed = methods.iter().filter(|method| !stateful.contains(&method.name()));
    let kept = probed
        .into_iter()
        .any(|method| catch_unwind(AssertUnwindSafe(|| method.kept_between_calls(rng))).unwrap_or(false));
    kept.then_some(MISTAKE)
}

/// Whether the answer depends on what was asked before, asked with up to three row counts no
/// case uses (a count a case used may already be in a cache). Each time a process asks, it takes
/// the next counts: a program graded several times in one process (tutor's own tests, which grade
/// a file with four seeds while other files take counts too) has its first counts cached, and a
/// count it has seen is no evidence either way, so there are many.
pub fn kept_between_calls<H, E>(method: &Method<'_, H, E>, rng: &dyn Fn(u64) -> Rng) -> bool {
    const UNUSED_ROW_COUNTS: [usize; 36] = [
        13, 37, 41, 43, 47, 53, 59, 61, 67, 71, 73, 79, 83, 89, 97, 101, 103, 107, 109, 113, 127, 131, 137, 139, 149,
        151, 157, 163, 167, 173, 179, 181, 191, 193, 197, 199,
    ];
    static ASKED: AtomicUsize = AtomicUsize::new(0);
    (0..3).any(|_| {
        let next = ASKED.fetch_add(1, Ordering::Relaxed) % UNUSED_ROW_COUNTS.len();
        let rows = UNUSED_ROW_COUNTS[next];
        kept_for(method, &mut rng(12 + rows as u64), rows)
    })
}

/// One handle is asked for `first`, then for `second` of the same shape; a fresh handle for
/// `second` with more rows after it, and another for `first` again. A right answer is a function
/// of its input: code whose first answer and whose longer answer are right, but whose answer to
/// `second` after `first` is not (a result, statistics or a buffer kept for the shape or the row
/// count), or that answers the same input twice differently, keeps something between calls.
pub fn kept_for<H, E>(method: &Method<'_, H, E>, rng: &mut Rng, rows: usize) -> bool {
    let first = (method.input)(rng, rows);
    let second = (method.input)(rng, rows);
    let extra = (method.input)(rng, 6);
    let Ok(longer) = ndarray::concatenate(Axis(1), &[second.view(), extra.view()]) else {
        return false;
    };
    let call = method.call;
    let answers = probe(|| {
        let mut handle = (method.fresh)()?;
        let a = call(&mut handle, &first)?;
        let b = call(&mut handle, &second)?;
        let intact = (method.intact)(&handle);
        let c = call(&mut (method.fresh)()?, &longer)?;
        let again = call(&mut (method.fresh)()?, &first)?;
        Ok::<_, E>((a, b, c, again, intact))
    });
    let Called::Value((a, b, c, again, true)) = answers else {
        return false;
    };
    let right = method.right;
    let close = |y: &ArrayD<f64>, x: &ArrayD<f32>| all_close(y, &right(x), 1e-6, 1e-3);
    // The first answer right: a constant output (zeros, say) is not a result kept.
    if !close(&a, &first) || right(&first) == right(&second) {
        return false;
    }
    let head = (c.ndim() == 3 && c.shape()[1] > rows).then(|| c.slice_axis(Axis(1), (..rows).into()).to_owned());
    let same_bits = a.shape() == again.shape() && a.iter().zip(again.iter()).all(|(p, q)| p.to_bits() == q.to_bits());
    let stale = head.is_some_and(|head| close(&head, &second)) && !close(&b, &second);
    stale || !same_bits
}

#[cfg(test)]
mod tests {
    use std::cell::Cell;

    use super::*;

    /// A handle whose method doubles its input, plus (when `keeps`) the sum of every earlier
    /// input: a running statistic kept between calls.
    #[derive(Default)]
    struct Handle {
        seen: f64,
    }

    fn rng(salt: u64) -> Rng {
        Rng::new(salt)
    }

    fn input(rng: &mut Rng, rows: usize) -> ArrayD<f32> {
        rng.normal_array(&[1, rows, 4])
    }

    fn right(x: &ArrayD<f32>) -> ArrayD<f64> {
        x.mapv(|v| 2.0 * f64::from(v))
    }

    /// Runs [`state_kept`] on one method named `Course.step` (keeping state when `keeps`), with
    /// `stateful` declared, and says what it named and how often the method was called.
    fn diagnose(keeps: bool, stateful: &[&str]) -> (Option<&'static str>, usize) {
        let calls = Cell::new(0);
        let call = |handle: &mut Handle, x: &ArrayD<f32>| {
            calls.set(calls.get() + 1);
            let before = handle.seen;
            handle.seen += x.iter().map(|&v| f64::from(v)).sum::<f64>();
            Ok::<_, ()>(x.mapv(|v| 2.0 * f64::from(v) + if keeps { before } else { 0.0 }))
        };
        let method = Method {
            name: "Course.step",
            fresh: &|| Ok(Handle::default()),
            call: &call,
            right: &right,
            input: &input,
            intact: &|_| true,
        };
        let named = state_kept(&[&method], stateful, &rng);
        (named, calls.get())
    }

    #[test]
    fn an_undeclared_method_that_keeps_state_is_probed_and_named() {
        let (named, calls) = diagnose(true, &[]);
        assert_eq!(named, Some(MISTAKE));
        assert!(calls > 0);
    }

    #[test]
    fn a_method_declared_stateful_is_never_called() {
        let (named, calls) = diagnose(true, &["Other.step", "Course.step"]);
        assert_eq!(named, None);
        assert_eq!(calls, 0);
    }

    #[test]
    fn a_method_without_state_is_probed_and_not_named() {
        let (named, calls) = diagnose(false, &["Other.step"]);
        assert_eq!(named, None);
        // Three row counts, four calls each.
        assert_eq!(calls, 12);
    }
}
