//! The first thing every comparison checks: a result of its input's shape. Anything else (a rank
//! lower, a flattened or empty array) fails plainly here, before any value is compared or any
//! element indexed.

use super::{Failure, Outcome};
use crate::text;

/// `Ok` when `output` has the shape of `input`; otherwise the failure that says so for `call`.
pub(crate) fn same_as_input(call: &str, output: &[usize], input: &[usize]) -> Outcome {
    if output == input {
        return Ok(());
    }
    Err(Failure::new(text::returned_shape(call, output, input)))
}
