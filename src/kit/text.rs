//! Every sentence the kit produces, in Chinese and English side by side.
//!
//! The kit travels into the grading harness on its own, so its text cannot live with the CLI's;
//! this file is its one place. The CLI picks the language when it renders.

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

/// The marker every stub's `todo!` carries; the checks recognise "not done yet" by it.
pub const NOT_DONE_EN: &str = "is not done yet";
/// The Chinese half of the not-done marker.
pub const NOT_DONE_ZH: &str = "尚未完成";

/// True when a panic message says that a TODO has not been written yet.
pub fn is_not_done(panic_message: &str) -> bool {
    panic_message.contains("TODO") && (panic_message.contains(NOT_DONE_EN) || panic_message.contains(NOT_DONE_ZH))
}

/// The bilingual title of a check case, by its id.
pub fn case_title(id: &str) -> Bi {
    let (zh, en) = match id {
        "weight-is-ones" => (
            "weight 是可训练的 Param，形状 [D]，初值全为 1",
            "weight is a trainable Param of shape [D] holding exact ones",
        ),
        "eps-is-kept" => ("new 保存传入的 eps", "new keeps the eps it was given"),
        "rejects-bad-config" => {
            ("hidden_size = 0 或 eps 非法时 new 返回 Err", "new returns Err for hidden_size = 0 and for a bad eps")
        }
        "weight-gets-gradient" => (
            "forward + backward 之后 weight 有形状 [D] 的梯度",
            "after forward + backward the weight has a gradient of shape [D]",
        ),
        "tutorial-case" => (
            "教程用例 [[[3,4],[0,0]]]：与 FP32 参考一致，零行保持有限",
            "tutorial case [[[3,4],[0,0]]]: matches the FP32 reference, zero row stays finite",
        ),
        "last-axis-only" => (
            "只沿最后一维统计（方阵输入，各行尺度不同）",
            "statistics along the last axis only (square input, rows at different scales)",
        ),
        "eps-inside-sqrt" => (
            "eps 在平方根内部（[1e-3, -1e-3, …] 应得 0.7071）",
            "eps inside the square root ([1e-3, -1e-3, …] must give 0.7071)",
        ),
        "f16-squares-in-fp32" => (
            "f16 输入的平方在 FP32 中计算（[300, -300, …] 应得 ±1）",
            "squares of f16 input taken in FP32 ([300, -300, …] must give ±1)",
        ),
        "f16-long-row" => (
            "f16 长行求和在 FP32 中进行（D = 4096 个 4.0 应得 1.0）",
            "a long f16 row summed in FP32 (D = 4096 of 4.0 must give 1.0)",
        ),
        "nan-stays-in-its-row" => {
            ("某一行的 NaN 不会扩散到其他行", "a NaN in one row does not leak into the other rows")
        }
        "one-dimensional-input" => ("一维输入 [D]", "a one-dimensional input [D]"),
        "four-dimensional-input" => ("四维输入 [2, 2, 3, D]", "a four-dimensional input [2, 2, 3, D]"),
        "empty-batch" => {
            ("空批次 [0, D] 返回同形的空结果", "an empty batch [0, D] gives an empty result of the same shape")
        }
        "rejects-bad-input" => (
            "最后一维不等于 hidden_size 或零维输入时返回 Err 而不是 panic",
            "a last axis that is not hidden_size, or a 0-d input, returns Err instead of panicking",
        ),
        "f32-weighted-forward" => ("f32 输入、非单位权重的 forward", "forward on f32 input with non-unit weights"),
        "f16-forward" => (
            "f16 输入 2×3×4：同形、同 dtype，rtol 1e-3 / atol 1e-4",
            "f16 input 2×3×4: same shape and dtype, rtol 1e-3 / atol 1e-4",
        ),
        "bf16-forward" => (
            "bf16 输入：同形、同 dtype，rtol 1.6e-2 / atol 1e-5",
            "bf16 input: same shape and dtype, rtol 1.6e-2 / atol 1e-5",
        ),
        "f16-rounds-once" => (
            "f16 输出只舍入一次：几乎每个值都等于正确舍入的 FP32 结果",
            "f16 output rounded once: almost every value equals the correctly rounded FP32 result",
        ),
        "backward-matches-f64" => {
            ("backward 的 dx 与 weight 梯度与 f64 参考一致", "backward's dx and weight gradient match an f64 reference")
        }
        "f16-backward" => {
            ("f16 输入的 backward：dx 同形且数值正确", "backward on f16 input: dx has x's shape and the right values")
        }
        "forward-gradient-check" => (
            "对你的 forward::<f64> 做中心差分，与 backward 一致",
            "central differences of your forward::<f64> agree with backward",
        ),
        other => return Bi::new(other, other),
    };
    Bi::new(zh, en)
}

/// The bilingual title of a contract group, by its id.
pub fn contract_title(id: &str) -> Bi {
    let (zh, en) = match id {
        "parameter" => ("参数契约", "Parameter contract"),
        "numeric" => ("数值契约", "Numeric contract"),
        "dtype-gradient" => ("dtype / 梯度契约", "Dtype / gradient contract"),
        other => return Bi::new(other, other),
    };
    Bi::new(zh, en)
}

/// What a known mistake is, by its id (see [`crate::mistakes`]).
pub fn mistake_title(id: &str) -> Bi {
    let (zh, en) = match id {
        "layernorm" => (
            "先减去了均值：那是 LayerNorm，不是 RMSNorm",
            "the mean is subtracted first: that is LayerNorm, not RMSNorm",
        ),
        "wrong-axis" => (
            "统计量沿错误的轴计算（第一维而不是最后一维）",
            "statistics along the wrong axis (the first, not the last)",
        ),
        "whole-tensor" => {
            ("统计量取自整个张量，把不同 token 混在了一起", "statistics over the whole tensor, mixing tokens together")
        }
        "eps-outside-sqrt" => ("eps 加在了平方根外面", "eps is added outside the square root"),
        "no-eps" => ("没有加 eps：全零行得到 0 / 0 = NaN", "no eps at all: a zero row gives 0 / 0 = NaN"),
        "half-precision-statistics" => (
            "平方或求和在 f16/bf16 中进行，而不是 FP32（溢出成 0，或累加停滞）",
            "squares or their sum taken in f16/bf16 instead of FP32 (overflow to 0, or a sum that stalls)",
        ),
        "sum-not-mean" => (
            "用了平方和而不是平方的均值（结果整体小了 sqrt(D) 倍）",
            "the sum of squares instead of their mean (outputs sqrt(D) times too small)",
        ),
        "weight-ignored" => ("没有乘以权重", "the weight is never multiplied in"),
        "scalar-weight" => (
            "所有通道共用一个标量权重，而不是逐通道的 [D] 权重",
            "one scalar weight for every channel instead of a per-channel [D] weight",
        ),
        "double-rounding" => (
            "先舍入到输入类型再乘权重：舍入了两次",
            "rounded to the input type before the weight is applied: two roundings instead of one",
        ),
        "zero-weight" => ("权重初值为 0：输出恒为 0", "the weight starts at zeros: the output is always zero"),
        "random-weight" => ("权重初值不是 1", "the weight does not start at ones"),
        "frozen-weight" => ("权重被冻结，梯度到不了它", "the weight is frozen, so no gradient reaches it"),
        other => return Bi::new(other, other),
    };
    Bi::new(zh, en)
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

pub(crate) fn panicked(message: &str) -> Bi {
    Bi::new(format!("代码 panic：{message}"), format!("your code panicked: {message}"))
}

pub(crate) fn new_failed(what: &str, error: &str) -> Bi {
    Bi::new(format!("{what} 返回了错误：{error}"), format!("{what} returned an error: {error}"))
}

pub(crate) fn expected_error(what: &str) -> Bi {
    Bi::new(format!("{what} 应返回 Err，却返回了 Ok"), format!("{what} should return Err but returned Ok"))
}

pub(crate) fn weight_shape(found: &[usize], hidden: usize) -> Bi {
    Bi::new(
        format!("weight 的形状是 {}，应为 [{hidden}]（每个特征通道一个缩放值）", shape(found)),
        format!("weight has shape {}, expected [{hidden}] (one scale per feature channel)", shape(found)),
    )
}

pub(crate) fn weight_not_ones(values: &str) -> Bi {
    Bi::new(
        format!("weight 的初值应全为 1（新层只做归一化），实际为 {values}"),
        format!("weight must start as exact ones (a fresh layer only normalises); it holds {values}"),
    )
}

pub(crate) fn weight_frozen() -> Bi {
    Bi::new(
        "weight 被冻结（requires_grad = false），梯度到不了它：请用可训练的参数",
        "weight is frozen (requires_grad = false), so no gradient reaches it: make it trainable",
    )
}

pub(crate) fn eps_changed(expected: f32, found: f32) -> Bi {
    Bi::new(
        format!("eps 应保存为 {expected}，实际为 {found}"),
        format!("eps should be kept as {expected}, found {found}"),
    )
}

pub(crate) fn no_weight_gradient() -> Bi {
    Bi::new("backward 之后 weight.grad 仍为 None", "weight.grad is still None after backward")
}

pub(crate) fn not_finite(what: &str) -> Bi {
    Bi::new(
        format!("{what} 含有 NaN 或无穷大：零向量也必须得到有限结果（eps 在平方根内部）"),
        format!("{what} holds NaN or infinity: a zero vector must stay finite (eps goes inside the square root)"),
    )
}

pub(crate) fn differs(what: &str) -> Bi {
    Bi::new(format!("{what} 与参考结果不一致"), format!("{what} differs from the reference"))
}

pub(crate) fn wrong_shape(what: &str, expected: &[usize], found: &[usize]) -> Bi {
    Bi::new(
        format!("{what} 的形状是 {}，应为 {}", shape(found), shape(expected)),
        format!("{what} has shape {}, expected {}", shape(found), shape(expected)),
    )
}

pub(crate) fn rounded_more_than_once(mismatched: usize, total: usize, worst_ulps: i32) -> Bi {
    Bi::new(
        format!("{total} 个 f16 输出中有 {mismatched} 个不等于 FP32 结果的正确舍入（最多差 {worst_ulps} ulp）：应在 FP32 中乘以权重，最后只舍入一次"),
        format!("{mismatched} of {total} f16 outputs differ from the correctly rounded FP32 result (by up to {worst_ulps} ulp): multiply by the weight in FP32 and round once, at the end"),
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

    #[test]
    fn unknown_ids_fall_back_to_the_id() {
        assert_eq!(case_title("no-such-case").en, "no-such-case");
        assert_ne!(case_title("tutorial-case").zh, case_title("tutorial-case").en);
    }
}
