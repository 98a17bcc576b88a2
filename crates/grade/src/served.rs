//! What an exercise's cases call: the client notes each call of the learner's functions and
//! methods (`Type.method`) with its element type, so that a test can record, over every learner
//! file of the tests, which calls each exercise's graded program must serve (the tables are the
//! courses' `served.rs`; tutor's harness writes each program's server for those alone).
//! Constructors, field reads and writes are served by every program and are not noted.

use std::cell::RefCell;
use std::collections::BTreeSet;

thread_local! {
    static NOTED: RefCell<Option<BTreeSet<(u8, u8)>>> = const { RefCell::new(None) };
}

/// The element of a call that is not generic over the element type (the others' are their wire
/// tags: f32 0, f64 1, f16 2, bf16 3).
pub const UNTYPED: u8 = 4;

/// Notes a call of tag `tag` for element type `element` (a wire tag, or [`UNTYPED`]), when
/// [`noting`] is running on this thread.
pub fn note(tag: u8, element: u8) {
    NOTED.with(|noted| {
        if let Some(noted) = noted.borrow_mut().as_mut() {
            noted.insert((tag, element));
        }
    });
}

/// Runs `f` and returns what it returned with every call it made of the learner's functions and
/// methods, as `(tag, element)` pairs.
pub fn noting<R>(f: impl FnOnce() -> R) -> (R, BTreeSet<(u8, u8)>) {
    let before = NOTED.with(|noted| noted.replace(Some(BTreeSet::new())));
    let result = f();
    let noted = NOTED.with(|noted| noted.replace(before)).unwrap_or_default();
    (result, noted)
}

/// A course's table for one exercise's program, as `served.rs` files write it: each tag once,
/// with its element bits.
pub fn table(noted: &BTreeSet<(u8, u8)>) -> Vec<(u8, u8)> {
    let mut pairs: Vec<(u8, u8)> = Vec::new();
    for &(tag, element) in noted {
        match pairs.last_mut() {
            Some((last, bits)) if *last == tag => *bits |= 1 << element,
            _ => pairs.push((tag, 1 << element)),
        }
    }
    pairs
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn calls_are_noted_only_while_noting_and_tabled_by_tag() {
        note(1, 0);
        let ((), noted) = noting(|| {
            note(3, 0);
            note(3, 2);
            note(9, 4);
            note(3, 0);
        });
        assert_eq!(noted, BTreeSet::from([(3, 0), (3, 2), (9, 4)]));
        assert_eq!(table(&noted), [(3, 0b101), (9, 0b1_0000)]);
        assert_eq!(noting(|| ()).1, BTreeSet::new(), "nothing from before");
    }
}
