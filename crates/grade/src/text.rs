//! The grading framework's sentences, in Chinese and English side by side: what a fault of the
//! graded program, a panic or a refused call means. A course's own messages live with its cases.
//! The CLI picks the language when it renders.

pub use tutor_subject::text::{is_not_done, Bi};

fn shape(s: &[usize]) -> String {
    format!("{s:?}")
}

/// Text from learner code, made safe to print on a terminal: control characters other than line
/// breaks and tabs (escape sequences that clear the screen, move the cursor, set the title …)
/// and the invisible characters that reorder or hide text ([`is_deceptive`]) are shown as
/// `\u{..}` instead of being obeyed.
pub fn printable(text: &str) -> String {
    let obeyed = |c: char| (c.is_control() && c != '\n' && c != '\t') || is_deceptive(c);
    text.chars().map(|c| if obeyed(c) { c.escape_unicode().to_string() } else { c.to_string() }).collect()
}

/// Characters that print nothing yet change what the text around them looks like: the Unicode
/// bidirectional controls (U+202A–U+202E, U+2066–U+2069, the marks U+200E, U+200F, U+061C),
/// which reorder a line (the "Trojan Source" trick), the line and paragraph separators, and
/// the zero-width space, word joiner and byte-order mark, which hide text or make two strings
/// look alike. The joiners that scripts and emoji need (U+200C, U+200D) are left alone.
pub fn is_deceptive(c: char) -> bool {
    matches!(
        c,
        '\u{061c}' | '\u{200b}' | '\u{200e}' | '\u{200f}' | '\u{2028}'..='\u{202e}' | '\u{2060}' | '\u{2066}'..='\u{2069}' | '\u{feff}'
    )
}

pub fn program_ended(ending: crate::fault::Ending) -> Bi {
    use crate::fault::Ending;
    let (zh, en) = match ending {
        Ending::Exited(code) => (format!("退出码 {code}"), format!("exit code {code}")),
        Ending::Signalled(signal) => (format!("被信号 {signal} 终止"), format!("killed by signal {signal}")),
    };
    Bi::new(
        format!("你的代码在这个用例中结束了被评分的程序（{zh}）：process::exit、abort、栈溢出或内存耗尽都会这样。其余用例在新进程中继续。"),
        format!("your code ended the graded program during this case ({en}): process::exit, abort, a stack overflow or running out of memory all do this. The other cases run in a fresh process."),
    )
}

pub fn case_timed_out(limit_secs: f64, during_this_case: bool) -> Bi {
    if during_this_case {
        Bi::new(
            format!("你的代码在这个用例中用完了 {limit_secs:.0} 秒的时限，已被停止：死循环，还是非常慢的答案？（`--timeout` 可修改时限）"),
            format!("your code used up the {limit_secs:.0} s time limit during this case and was stopped: an endless loop, or a very slow answer? (`--timeout` changes the limit)"),
        )
    } else {
        Bi::new("未运行：之前的用例已用完时限", "not run: an earlier case used up the time limit")
    }
}

pub fn unreadable_reply(why: &str) -> Bi {
    Bi::new(
        format!("被评分的程序的回复无法读取（{why}）：代码是否写入了 tutor 的管道，或返回了远超所需的大结果？"),
        format!("the graded program's reply could not be read ({why}): did the code write into tutor's pipe, or return a far larger result than asked for?"),
    )
}

pub fn kit_answer_called(function: &str) -> Bi {
    Bi::new(
        format!("检测到：你的代码调用了 kit 对本练习 TODO 的现成答案 {function}。这一步要自己写出来。"),
        format!("detected: your code calls the kit's own answer to this exercise's TODO, {function}. This step is yours to write."),
    )
}

pub fn kit_piece_absent(function: &str, exercise: &str) -> Bi {
    Bi::new(
        format!("{function} 不在练习 {exercise} 的被评分程序中：本练习的程序只包含它所需的 kit 组件，不包含本练习 TODO 的答案，也不包含能算出它的组件。这一步要自己写出来。"),
        format!("{function} is not part of exercise {exercise}'s program: it holds only the kit pieces this exercise needs, never the answer to its TODO nor a piece that computes it. This step is yours to write."),
    )
}

pub fn panicked_confined(message: &str, call: Option<&str>) -> Bi {
    let panic = panicked(message, call);
    Bi::new(
        format!("{}\n被评分的代码在隔离中运行：不能读取课程文件、不能写文件、不能启动进程、不能联网。练习只需要计算。", panic.zh),
        format!("{}\ngraded code runs confined: it may not read the course's files, write files, start processes or use the network. An exercise only needs to compute.", panic.en),
    )
}

/// The learner's code panicked; `call` is the call it panicked in, with its arguments' shapes
/// (`RMSNorm::forward(x: f32 [2, 3, 8])`), when known.
pub fn panicked(message: &str, call: Option<&str>) -> Bi {
    match call {
        Some(call) => Bi::new(
            format!("代码 panic：{message}\n出错的调用：{call}"),
            format!("your code panicked: {message}\nin the call {call}"),
        ),
        None => Bi::new(format!("代码 panic：{message}"), format!("your code panicked: {message}")),
    }
}

/// A piece of code (`norm(x)`, `weight.grad`): it reads the same in every language.
pub fn code(name: &str) -> Bi {
    Bi::new(name, name)
}

/// An output that differs from the reference: `what` (a code span) of element type `dtype`.
pub fn output_differs(what: &str, dtype: &str) -> Bi {
    Bi::new(format!("`{what}`（{dtype}）与参考结果不一致"), format!("`{what}` ({dtype}) differs from the reference"))
}

/// A call returned `Err` where an answer was expected.
pub fn returned_error(what: &Bi, error: &Bi) -> Bi {
    Bi::new(format!("{} 返回了错误：{}", what.zh, error.zh), format!("{} returned an error: {}", what.en, error.en))
}

/// A call returned `Ok` where an `Err` was expected.
pub fn expected_error(what: &Bi) -> Bi {
    Bi::new(format!("{} 应返回 Err，却返回了 Ok", what.zh), format!("{} should return Err but returned Ok", what.en))
}

/// A comparison against the reference failed.
pub fn differs(what: &Bi) -> Bi {
    Bi::new(format!("{} 与参考结果不一致", what.zh), format!("{} differs from the reference", what.en))
}

/// A result of the wrong shape.
pub fn wrong_shape(what: &Bi, expected: &[usize], found: &[usize]) -> Bi {
    Bi::new(
        format!("{} 的形状是 {}，应为 {}", what.zh, shape(found), shape(expected)),
        format!("{} has shape {}, expected {}", what.en, shape(found), shape(expected)),
    )
}

/// A call that returned an array of another shape than its input's (a rank lower, flattened,
/// empty): said plainly, with the usual ways it happens after a reduction along the last axis.
pub fn returned_shape(call: &str, found: &[usize], input: &[usize]) -> Bi {
    let (found, input) = (shape(found), shape(input));
    Bi::new(
        format!("`{call}` 对形状为 {input} 的输入返回了形状 {found}：结果必须与 x 同形。按行的统计量求出后要用 `insert_axis` 把归约掉的最后一维放回（或用 `into_shape` 变回 [..., 1]）再去除，不要把结果展平，也不要返回空数组。"),
        format!("`{call}` returned shape {found} for input {input}: the result must have x's shape. Put the reduced last axis back on the per-row statistic with `insert_axis` (or `into_shape` to [..., 1]) before dividing; do not flatten the result or return an empty array."),
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
        let bidi = printable("let ok = \u{202e}eurt\u{2066}; \u{200b}中文 é");
        assert_eq!(bidi, "let ok = \\u{202e}eurt\\u{2066}; \\u{200b}中文 é");
    }
}
