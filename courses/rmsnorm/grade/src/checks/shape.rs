//! The first thing every comparison checks: a result of its input's shape (`tutor_grade`'s check:
//! anything else fails plainly, before any value is compared or any element indexed).

pub(crate) use tutor_grade::compare::same_as_input;
