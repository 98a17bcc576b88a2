//! Every sentence the kit produces, in Chinese and English side by side.
//!
//! The grader's text: case and contract titles, mistake titles, failure messages. The CLI
//! picks the language when it renders.

pub use tutor_kit::text::{is_not_done, Bi};

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

/// What a known mistake is, by its id (see [`crate::mistakes`]); the id itself when unknown.
pub fn mistake_title(id: &str) -> Bi {
    crate::mistakes::find(id).map_or_else(|| Bi::new(id, id), |m| m.title())
}

/// Text from learner code, made safe to print on a terminal: control characters other than line
/// breaks and tabs (escape sequences that clear the screen, move the cursor, set the title …)
/// are shown as `\u{..}` instead of being obeyed.
pub fn printable(text: &str) -> String {
    text.chars()
        .map(|c| if c.is_control() && c != '\n' && c != '\t' { c.escape_unicode().to_string() } else { c.to_string() })
        .collect()
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

pub(crate) fn new_failed(what: &Bi, error: &Bi) -> Bi {
    Bi::new(format!("{} 返回了错误：{}", what.zh, error.zh), format!("{} returned an error: {}", what.en, error.en))
}

pub(crate) fn expected_error(what: &Bi) -> Bi {
    Bi::new(format!("{} 应返回 Err，却返回了 Ok", what.zh), format!("{} should return Err but returned Ok", what.en))
}

/// A piece of code (`norm(x)`, `weight.grad`): it reads the same in every language.
pub fn code(name: &str) -> Bi {
    Bi::new(name, name)
}

/// A call on an input whose last axis is not `hidden`, for example `norm(x)` on `[2, 5]`.
pub(crate) fn call_on_wrong_width(call: &str, shape: &[usize], hidden: usize) -> Bi {
    Bi::new(
        format!("x.shape = {}、hidden_size = {hidden} 时的 {call}", self::shape(shape)),
        format!("{call} with x.shape = {}, hidden_size = {hidden}", self::shape(shape)),
    )
}

/// A call on a 0-d input.
pub(crate) fn call_on_0d(call: &str) -> Bi {
    Bi::new(format!("零维 x 上的 {call}"), format!("{call} with a 0-d x"))
}

/// A gradient from `backward` held against central differences of the learner's `forward`.
pub(crate) fn against_central_differences(gradient: &str) -> Bi {
    Bi::new(
        format!("{gradient}（backward 对照 forward 的中心差分）"),
        format!("{gradient} (backward vs. central differences of forward)"),
    )
}

pub(crate) fn weight_shape(found: &[usize], hidden: usize) -> Bi {
    Bi::new(
        format!("weight 的形状是 {}，应为 [{hidden}]（每个特征通道一个缩放值）", shape(found)),
        format!("weight has shape {}, expected [{hidden}] (one scale per feature channel)", shape(found)),
    )
}

pub(crate) fn weight_not_ones(values: &str) -> Bi {
    Bi::new(
        format!("weight 的初值应精确全为 1（新层只做归一化），实际为 {values}"),
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
        format!("eps 应原样保存为 {expected:e}，实际为 {found:e}"),
        format!("eps must be kept exactly as {expected:e}, found {found:e}"),
    )
}

pub(crate) fn gradient_preset(grad: &str) -> Bi {
    Bi::new(
        format!("新建的层的 weight.grad 应为 None（还没有任何反向传播），实际为 Some({grad})"),
        format!("a fresh layer's weight.grad must be None (no backward pass has run yet); it is Some({grad})"),
    )
}

pub(crate) fn not_accumulated(once: &str, twice: &str) -> Bi {
    Bi::new(
        format!("同一输入做两次 backward，weight.grad 应精确翻倍（累加）：一次后为 {once}，两次后为 {twice}"),
        format!("two backward passes on one input must double weight.grad exactly (gradients accumulate): {once} after one, {twice} after two"),
    )
}

pub(crate) fn no_weight_gradient() -> Bi {
    Bi::new("backward 之后 weight.grad 仍为 None", "weight.grad is still None after backward")
}

pub(crate) fn not_finite(what: &Bi) -> Bi {
    Bi::new(
        format!("{} 含有 NaN 或无穷大：零向量也必须得到有限结果（eps 在平方根内部）", what.zh),
        format!("{} holds NaN or infinity: a zero vector must stay finite (eps goes inside the square root)", what.en),
    )
}

pub(crate) fn differs(what: &Bi) -> Bi {
    Bi::new(format!("{} 与参考结果不一致", what.zh), format!("{} differs from the reference", what.en))
}

pub(crate) fn wrong_shape(what: &Bi, expected: &[usize], found: &[usize]) -> Bi {
    Bi::new(
        format!("{} 的形状是 {}，应为 {}", what.zh, shape(found), shape(expected)),
        format!("{} has shape {}, expected {}", what.en, shape(found), shape(expected)),
    )
}

pub(crate) fn rounded_more_than_once(dtype: &str, mismatched: usize, total: usize, worst_ulps: i32) -> Bi {
    Bi::new(
        format!("{total} 个 {dtype} 输出中有 {mismatched} 个不等于 FP32 结果的正确舍入（最多差 {worst_ulps} ulp），但每个都在容差之内。常见的原因有两个：舍入了不止一次（先把归一化结果舍入到 {dtype} 再乘权重，这是 Meta LLaMA 与 Hugging Face 的写法，是真实存在的选择，但本课程的契约——教程的，也是 torch.nn.functional.rms_norm 组合实现的——只舍入一次），或者统计量不是在 FP32 中算的。应在 FP32 中统计、在 FP32 中乘以权重，最后用 from_f32 就近舍入一次。"),
        format!("{mismatched} of {total} {dtype} outputs differ from the correctly rounded FP32 result (by up to {worst_ulps} ulp), though every one is within the tolerance. Two usual causes: rounding more than once (the normalised values rounded to {dtype} before the weight, Meta LLaMA's and Hugging Face's way: a real choice, but this course's contract, the tutorial's and that of torch.nn.functional.rms_norm's composite path, rounds once), or statistics not computed in FP32. Take the statistics in FP32, multiply by the weight in FP32, and round once, at the end, to nearest with from_f32."),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn learner_text_cannot_drive_the_terminal() {
        let shown = printable("ok\n\u{1b}[2J\u{1b}]0;title\u{7}\tend\r");
        assert!(!shown.chars().any(|c| c.is_control() && c != '\n' && c != '\t'), "{shown:?}");
        assert!(shown.starts_with("ok\n\\u{1b}[2J") && shown.contains("\tend"), "{shown:?}");
    }

    #[test]
    fn unknown_ids_fall_back_to_the_id() {
        assert_eq!(mistake_title("no-such-mistake").en, "no-such-mistake");
        assert_ne!(mistake_title("layernorm").zh, mistake_title("layernorm").en);
    }
}
