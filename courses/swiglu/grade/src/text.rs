//! The SwiGLU grader's own sentences (the case titles live with their cases, the mistakes'
//! in `mistakes.rs`). Both languages side by side.

pub use tutor_grade::text::{code, Bi};

/// A call returned `Err` where it must succeed.
pub fn call_failed(what: &str, error: &Bi) -> Bi {
    Bi::new(format!("`{what}` 返回了错误：{}", error.zh), format!("`{what}` returned an error: {}", error.en))
}

/// A call succeeded where it must return `Err`.
pub fn expected_error(what: &str) -> Bi {
    Bi::new(format!("`{what}` 应当返回 Err，却返回了 Ok"), format!("`{what}` must return Err, and returned Ok"))
}

/// A number differs from the one required.
pub fn wrong_number(what: &str, expected: impl std::fmt::Display, found: impl std::fmt::Display) -> Bi {
    Bi::new(format!("`{what}` 应为 {expected}，得到 {found}"), format!("`{what}` should be {expected}, got {found}"))
}

/// A fact about a parameter that does not hold.
pub fn parameter(zh: String, en: String) -> Bi {
    Bi::new(zh, en)
}

/// The per-op rounding check found too few outputs equal to the per-op reference.
pub fn not_rounded_per_op(dtype: &str, equal: usize, total: usize) -> Bi {
    Bi::new(
        format!(
            "{dtype}：只有 {equal}/{total} 个输出与逐步舍入的参考逐位相同（要求至少 90%）"
        ),
        format!(
            "{dtype}: only {equal}/{total} outputs equal the op-by-op rounded reference bit for bit (at least 90% required)"
        ),
    )
}
