//! What a call of the learner's code must return: a value (its error, explained in the course's
//! words, is the case's failure) or a documented error variant. Every course's kit error
//! explains itself (`tutor_subject::course_error!`).

use std::fmt::Debug;

use tutor_subject::text::Explain;

use crate::text::Bi;
use crate::{Failure, Outcome};

/// Unwraps a call that must succeed.
pub fn ok<V, E: Explain>(what: &str, result: Result<V, E>) -> Result<V, Failure> {
    result.map_err(|e| {
        let error = e.explain();
        Failure::new(Bi::new(
            format!("`{what}` 返回了错误：{}", error.zh),
            format!("`{what}` returned an error: {}", error.en),
        ))
    })
}

/// Requires a call to fail with the variant of `expected` (its fields are not compared).
pub fn err<V, E: Debug>(what: &str, result: Result<V, E>, expected: E) -> Outcome {
    let variant = |e: &E| format!("{e:?}").split([' ', '(', '{']).next().unwrap_or_default().to_owned();
    let found = match result {
        Err(e) if std::mem::discriminant(&e) == std::mem::discriminant(&expected) => return Ok(()),
        Err(e) => format!("Err({})", variant(&e)),
        Ok(_) => "Ok".to_owned(),
    };
    let expected = variant(&expected);
    Err(Failure::new(Bi::new(
        format!("`{what}` 应当返回 Err({expected})，却返回了 {found}"),
        format!("`{what}` must return Err({expected}), and returned {found}"),
    )))
}

#[cfg(test)]
mod tests {
    use super::*;

    // The fields are read by Debug only, as in a course's error.
    #[allow(dead_code)]
    #[derive(Debug)]
    enum E {
        Rank { expected: usize },
        Zero(usize),
    }

    impl Explain for E {
        fn explain(&self) -> Bi {
            Bi::new("秩", "rank")
        }
    }

    #[test]
    fn a_variant_is_told_by_its_name_and_an_error_by_its_explanation() {
        assert!(err("f()", Err::<(), _>(E::Rank { expected: 4 }), E::Rank { expected: 1 }).is_ok());
        let wrong = err("f()", Err::<(), _>(E::Zero(0)), E::Rank { expected: 1 }).unwrap_err();
        assert_eq!(wrong.message.en, "`f()` must return Err(Rank), and returned Err(Zero)");
        let passed = err("f()", Ok::<(), E>(()), E::Zero(1)).unwrap_err();
        assert!(passed.message.zh.contains("Err(Zero)") && passed.message.en.ends_with("returned Ok"));
        let failed = ok("g()", Err::<(), _>(E::Zero(2))).unwrap_err();
        assert_eq!(failed.message.en, "`g()` returned an error: rank");
    }
}
