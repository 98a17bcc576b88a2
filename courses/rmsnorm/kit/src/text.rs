//! The RMSNorm subject's sentences: the `NormError` messages a learner's code returns. Both
//! languages side by side, since this crate travels into the grading harness on its own.

pub use tutor_subject::text::{is_not_done, Bi, NOT_DONE_EN, NOT_DONE_ZH};

pub(crate) fn error_zero_hidden() -> Bi {
    Bi::new("hidden_size 必须为正数", "hidden_size must be positive")
}

pub(crate) fn error_bad_eps(eps: f32) -> Bi {
    Bi::new(
        format!("eps 必须是有限的非负数，收到 {eps:?}"),
        format!("eps must be finite and not negative, got {eps:?}"),
    )
}
