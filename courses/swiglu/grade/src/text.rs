//! The SwiGLU grader's own sentences (the case titles live with their cases, the mistakes'
//! in `mistakes.rs`). Both languages side by side.

pub use tutor_grade::text::{code, Bi};

/// A call returned `Err` where it must succeed.
pub fn call_failed(what: &str, error: &Bi) -> Bi {
    Bi::new(format!("`{what}` 返回了错误：{}", error.zh), format!("`{what}` returned an error: {}", error.en))
}

/// A call succeeded where it must return `Err`.
pub fn expected_error(what: &str, variant: &str) -> Bi {
    Bi::new(
        format!("`{what}` 应当返回 Err({variant})，却返回了 Ok"),
        format!("`{what}` must return Err({variant}), and returned Ok"),
    )
}

/// A call failed, with another error than the API documents.
pub fn wrong_error(what: &str, expected: &str, found: &str) -> Bi {
    Bi::new(
        format!("`{what}` 应当返回 Err({expected})，却返回了 Err({found})"),
        format!("`{what}` must return Err({expected}), and returned Err({found})"),
    )
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
pub fn not_rounded_per_op(dtype: &str, equal: usize, total: usize, share: f64) -> Bi {
    let share = 100.0 * share;
    Bi::new(
        format!(
            "{dtype}：只有 {equal}/{total} 个输出与逐步舍入的参考逐位相同（要求至少 {share:.0}%）：本章的契约与 {dtype} 的 PyTorch 模块一样，每一步都舍入回 {dtype}"
        ),
        format!(
            "{dtype}: only {equal}/{total} outputs equal the op-by-op rounded reference bit for bit (at least {share:.0}% required): this chapter's contract rounds after every op back to {dtype}, as a PyTorch module in {dtype} does"
        ),
    )
}

/// The rounds-once check found too few outputs equal to the correctly rounded value.
pub fn not_rounded_once(what: &str, dtype: &str, equal: usize, total: usize, share: f64) -> Bi {
    let share = 100.0 * share;
    Bi::new(
        format!(
            "{dtype}：只有 {equal}/{total} 个输出与 `{what}` 正确舍入后的值逐位相同（要求至少 {share:.0}%）：在 FP32 中算完，最后只舍入一次"
        ),
        format!(
            "{dtype}: only {equal}/{total} outputs equal the correctly rounded `{what}` bit for bit (at least {share:.0}% required): compute in FP32, round once at the end"
        ),
    )
}

/// Linear's rounds-once check found too few outputs equal to a module's in `dtype`.
pub fn not_as_module(dtype: &str, equal: usize, total: usize, share: f64) -> Bi {
    let share = 100.0 * share;
    Bi::new(
        format!(
            "{dtype}：只有 {equal}/{total} 个输出与 {dtype} 模块的结果逐位相同（要求至少 {share:.0}%）：权重先舍入到 {dtype}，乘积在 FP32 中累加，每个输出只舍入一次"
        ),
        format!(
            "{dtype}: only {equal}/{total} outputs equal a {dtype} module's bit for bit (at least {share:.0}% required): the weight rounded to {dtype}, products summed in FP32, each output rounded once"
        ),
    )
}

/// A frozen weight (`requires_grad = false`) was given a gradient.
pub fn frozen_got_grad(name: &str) -> Bi {
    Bi::new(
        format!("权重冻结（requires_grad = false）时 `{name}` 仍然得到了梯度：请用 Param::accumulate_grad，它会跳过冻结的参数"),
        format!("`{name}` got a gradient although its weight is frozen (requires_grad = false): use Param::accumulate_grad, which skips a frozen parameter"),
    )
}

/// A weight's gradient after a backward on an empty batch is not zeros of its shape.
pub fn empty_batch_grad(name: &str) -> Bi {
    Bi::new(
        format!("空批次（0 行）的 backward 之后 `{name}` 不是与权重同形状的全零：空批次照样累加，梯度是零，不是 None"),
        format!("after a backward on an empty batch (0 rows) `{name}` is not zeros of the weight's shape: an empty batch accumulates all the same, its gradient is zeros, not None"),
    )
}

/// With one weight frozen, another, trainable one got no gradient.
pub fn grad_lost(frozen: &str, lost: &str) -> Bi {
    Bi::new(
        format!("冻结 `{frozen}` 的权重后，可训练的 `{lost}` 没有得到梯度：只有被冻结的参数才跳过梯度"),
        format!(
            "with `{frozen}`'s weight frozen, the trainable `{lost}` got no gradient: only a frozen parameter skips it"
        ),
    )
}

/// A call panicked, with the panic's message.
pub fn panicked(what: &str, message: &str) -> Bi {
    Bi::new(format!("`{what}` panic 了：{message}"), format!("`{what}` panicked: {message}"))
}
