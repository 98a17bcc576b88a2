//! The work of answering one declared call, out of the code the declaration generates: decoding
//! the arguments, marking the call as grading its TODO, encoding the result, and the handle
//! tables. The server a declaration writes in the learner's crate (see
//! [`course_protocol!`](crate::course_protocol)) is compiled at every check, at opt-level 0; so it
//! only picks the call and hands [`answer`] a small closure that lends the decoded arguments to
//! the learner's item. [`answer`] is generic only over the arguments' and the result's types, so
//! a kit instantiates it once for each declared call (`__instantiate_answers`, written by
//! `course_protocol!`), and a graded program reuses those instances.

use crate::frame::{Reader, WireError};
use crate::serve::Serving;
use crate::wire::{encode_one, Arg, Decode, Encode};

/// Answers one call: decodes its arguments `A` (the rest of the request), then runs `call` on
/// them marked as grading `todo` (0: none), and encodes what it returned. `call` lends the
/// arguments to the learner's item; they are dropped here, after it returned.
pub fn answer<A: Decode, R: Encode>(
    request: &mut Reader,
    todo: u32,
    call: &mut dyn FnMut(&mut A) -> R,
) -> Result<Vec<u8>, WireError> {
    let mut arguments = A::decode(request)?;
    request.end()?;
    let serving = Serving::start(todo);
    let out = call(&mut arguments);
    drop(serving);
    Ok(encode_one(&out))
}

/// How an argument of type `X` is lent to the learner's item, as a function pointer: naming it
/// makes the compiler instantiate it where it is named (in a kit, for every declared argument).
#[doc(hidden)]
pub fn lender<'a, X: Arg<'a>>() -> fn(&'a mut X::Owned) -> X {
    X::lend
}

/// Keeps a value a constructor returned in its table; its handle.
pub fn keep<V>(table: &mut Vec<V>, value: V) -> u32 {
    table.push(value);
    u32::try_from(table.len() - 1).unwrap_or(u32::MAX)
}

/// Reads the handle a call on a value names: its index in a table of `len` `kind`s, or why there
/// is none. (Not generic, so that the learner's crate compiles only the indexing.)
pub fn handle(request: &mut Reader, len: usize, kind: &str) -> Result<usize, WireError> {
    let id = u32::decode(request)?;
    match usize::try_from(id) {
        Ok(index) if index < len => Ok(index),
        _ => Err(WireError(format!("there is no {kind} {id}"))),
    }
}

/// The refusal of a call tag the course does not declare.
pub fn unknown_call(tag: u8) -> WireError {
    WireError(format!("unknown call {tag}"))
}

/// The refusal of an element type tag that names none of the four.
pub fn unknown_element(tag: u8) -> WireError {
    WireError(format!("element type {tag}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_call_gets_its_decoded_arguments_and_its_result_is_encoded() {
        let request = encode_one(&(3u32, 4u64));
        let mut reader = Reader(&request);
        let reply = answer(&mut reader, 0, &mut |(a, b): &mut (u32, u64)| u64::from(*a) * *b).unwrap();
        assert_eq!(reply, encode_one(&12u64));
    }

    #[test]
    fn bytes_left_over_or_missing_are_refused_before_the_call_runs() {
        let mut ran = false;
        let long = encode_one(&(3u32, 4u32));
        assert!(answer(&mut Reader(&long), 0, &mut |_: &mut (u32,)| ran = true).is_err());
        assert!(answer(&mut Reader(&[1]), 0, &mut |_: &mut (u32,)| ran = true).is_err());
        assert!(!ran);
    }

    #[test]
    fn a_handle_that_does_not_exist_is_refused() {
        let mut table = Vec::new();
        assert_eq!(keep(&mut table, "a"), 0);
        assert_eq!(keep(&mut table, "b"), 1);
        let named = |id: u32| handle(&mut Reader(&encode_one(&id)), table.len(), "Layer");
        assert_eq!(named(1).map(|index| table[index]), Ok("b"));
        assert_eq!(named(2), Err(WireError("there is no Layer 2".into())));
        assert!(handle(&mut Reader(&[1]), 2, "Layer").is_err(), "a handle cut short");
    }
}
