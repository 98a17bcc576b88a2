//! Every sentence the kit produces, in Chinese and English side by side.
//!
//! The grader's text: case and contract titles, mistake titles, failure messages. The CLI
//! picks the language when it renders.

pub use tutor_kit::text::{is_not_done, Bi};

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

pub(crate) fn program_ended(ending: crate::subject::Ending) -> Bi {
    use crate::subject::Ending;
    let (zh, en) = match ending {
        Ending::Exited(code) => (format!("退出码 {code}"), format!("exit code {code}")),
        Ending::Signalled(signal) => (format!("被信号 {signal} 终止"), format!("killed by signal {signal}")),
    };
    Bi::new(
        format!("你的代码在这个用例中结束了被评分的程序（{zh}）：process::exit、abort、栈溢出或内存耗尽都会这样。其余用例在新进程中继续。"),
        format!("your code ended the graded program during this case ({en}): process::exit, abort, a stack overflow or running out of memory all do this. The other cases run in a fresh process."),
    )
}

pub(crate) fn case_timed_out(limit_secs: f64, during_this_case: bool) -> Bi {
    if during_this_case {
        Bi::new(
            format!("你的代码在这个用例中用完了 {limit_secs:.0} 秒的时限，已被停止：死循环，还是非常慢的答案？（`--timeout` 可修改时限）"),
            format!("your code used up the {limit_secs:.0} s time limit during this case and was stopped: an endless loop, or a very slow answer? (`--timeout` changes the limit)"),
        )
    } else {
        Bi::new("未运行：之前的用例已用完时限", "not run: an earlier case used up the time limit")
    }
}

pub(crate) fn unreadable_reply(why: &str) -> Bi {
    Bi::new(
        format!("被评分的程序的回复无法读取（{why}）：代码是否写入了 tutor 的管道？"),
        format!("the graded program's reply could not be read ({why}): did the code write into tutor's pipe?"),
    )
}

pub(crate) fn kit_answer_called(function: &str) -> Bi {
    Bi::new(
        format!("检测到：你的代码调用了 kit 对本练习 TODO 的现成答案 {function}。这一步要自己写出来。"),
        format!("detected: your code calls the kit's own answer to this exercise's TODO, {function}. This step is yours to write."),
    )
}

pub(crate) fn panicked_confined(message: &str) -> Bi {
    Bi::new(
        format!("代码 panic：{message}\n被评分的代码在隔离中运行：不能读取课程文件、不能写文件、不能启动进程、不能联网。练习只需要计算。"),
        format!("your code panicked: {message}\ngraded code runs confined: it may not read the course's files, write files, start processes or use the network. An exercise only needs to compute."),
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
    fn unknown_ids_fall_back_to_the_id() {
        assert_eq!(case_title("no-such-case").en, "no-such-case");
        assert_ne!(case_title("tutorial-case").zh, case_title("tutorial-case").en);
    }
}
