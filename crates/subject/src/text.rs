//! The subject side's sentences: the `NormError` messages a learner's code returns, and the
//! marker a stub's `todo!` carries. Both languages side by side, since this crate travels into
//! the grading harness on its own.

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

/// The marker every stub's `todo!` carries; the grader recognises "not done yet" by it.
pub const NOT_DONE_EN: &str = "is not done yet";
/// The Chinese half of the not-done marker.
pub const NOT_DONE_ZH: &str = "尚未完成";

/// True when a panic message says that a TODO has not been written yet.
pub fn is_not_done(panic_message: &str) -> bool {
    panic_message.contains("TODO") && (panic_message.contains(NOT_DONE_EN) || panic_message.contains(NOT_DONE_ZH))
}

fn shape(s: &[usize]) -> String {
    format!("{s:?}")
}

pub(crate) fn error_zero_hidden() -> Bi {
    Bi::new("hidden_size 必须为正数", "hidden_size must be positive")
}

pub(crate) fn error_bad_eps(eps: f32) -> Bi {
    Bi::new(format!("eps 必须是有限的非负数，收到 {eps}"), format!("eps must be finite and not negative, got {eps}"))
}

pub(crate) fn error_no_axis() -> Bi {
    Bi::new("输入至少需要一个特征维（收到零维数组）", "the input needs at least one (feature) axis; got a 0-d array")
}

pub(crate) fn error_hidden_mismatch(expected: usize, found: usize) -> Bi {
    Bi::new(
        format!("输入最后一维的长度为 {found}，应等于 hidden_size = {expected}"),
        format!("the input's last axis has {found} elements, expected hidden_size = {expected}"),
    )
}

pub(crate) fn error_shape_mismatch(expected: &[usize], found: &[usize]) -> Bi {
    Bi::new(
        format!("形状不一致：期望 {}，收到 {}", shape(expected), shape(found)),
        format!("shape mismatch: expected {}, found {}", shape(expected), shape(found)),
    )
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
