//! Sentences both sides share: the bilingual pair, and the marker a stub's `todo!` carries.

/// A sentence in both languages.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Bi {
    /// 中文
    pub zh: String,
    /// English
    pub en: String,
}

impl Bi {
    /// Builds a pair from the two translations.
    pub fn new(zh: impl Into<String>, en: impl Into<String>) -> Self {
        Bi { zh: zh.into(), en: en.into() }
    }
}

/// A value that says what it means in both languages: a course's error type implements it (its
/// `text()`), so that tutor's common failure texts can quote any course's errors.
pub trait Explain {
    /// What it means, in each language.
    fn explain(&self) -> Bi;
}

impl Explain for crate::GradShapeMismatch {
    fn explain(&self) -> Bi {
        self.text()
    }
}

/// The marker every stub's `todo!` carries; the grader recognises "not done yet" by it.
pub const NOT_DONE_EN: &str = "is not done yet";
/// The Chinese half of the not-done marker.
pub const NOT_DONE_ZH: &str = "尚未完成";

/// Starts the panic message of a kit's given piece that was called for the exercise's own TODO:
/// calling the kit's answer is not an answer, and the grader says so.
pub const KIT_ANSWER_MARKER: &str = "tutor-kit-answer:";

/// Starts the panic message of a kit's given piece that is not part of the exercise's graded
/// program (`tutor-kit-absent: reference::backward 02-norm`): tutor's harness writes such a body
/// in place of every piece the exercise is not given, and the grader says so.
pub const KIT_ABSENT_MARKER: &str = "tutor-kit-absent:";

/// True when a panic message says that a TODO has not been written yet.
pub fn is_not_done(panic_message: &str) -> bool {
    panic_message.contains("TODO") && (panic_message.contains(NOT_DONE_EN) || panic_message.contains(NOT_DONE_ZH))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn recognises_the_not_done_marker_in_either_language() {
        assert!(is_not_done("not yet implemented: TODO 2 is not done yet / TODO 2 尚未完成"));
        assert!(is_not_done("TODO 1 尚未完成"));
        assert!(!is_not_done("index out of bounds"));
        assert!(!is_not_done("TODO list is long"));
    }
}
