//! The RMSNorm subject's sentences: the `NormError` messages a learner's code returns. Both
//! languages side by side, since this crate travels into the grading harness on its own.

pub use tutor_subject::text::{is_not_done, Bi, NOT_DONE_EN, NOT_DONE_ZH};

fn shape(s: &[usize]) -> String {
    format!("{s:?}")
}

pub(crate) fn error_zero_hidden() -> Bi {
    Bi::new("hidden_size 必须为正数", "hidden_size must be positive")
}

pub(crate) fn error_bad_eps(eps: f32) -> Bi {
    Bi::new(
        format!("eps 必须是有限的非负数，收到 {eps:?}"),
        format!("eps must be finite and not negative, got {eps:?}"),
    )
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
