//! Every number a learner reads, recomputed. Each claim test computes the value (f16 and bf16 in
//! their own arithmetic, one addition at a time where that is the point) and asserts that the
//! lesson or message states it as written, in Chinese and in English: if the text and the
//! computation part ways, the test fails. The last tests check that both languages make the same
//! claims: the same numbers (and the same code) in every lesson section, mistake title, case
//! title, interface sentence and exercise comment.

use crate::common;

use std::collections::BTreeSet;
use std::panic::{catch_unwind, AssertUnwindSafe};

use half::{bf16, f16};
use ndarray::{ArrayD, Axis, IxDyn};
use rmsnorm_grade::cases::all as all_cases;
use rmsnorm_grade::cases::Rng;
use rmsnorm_grade::mistakes;
use rmsnorm_grade::report::{CaseResult, Status};
use rmsnorm_grade::tutor_kit::{reference, Float, Param};
use tutor_courses::rmsnorm as rmsnorm_grade;

// ---------------------------------------------------------------------------------------------
// The texts
// ---------------------------------------------------------------------------------------------

const OVERVIEW: &str = include_str!("../../lessons/rmsnorm/00-overview.md");
const WEIGHT: &str = include_str!("../../lessons/rmsnorm/01-weight.md");
const NORM: &str = include_str!("../../lessons/rmsnorm/02-norm.md");
const FORWARD: &str = include_str!("../../lessons/rmsnorm/03-forward.md");
const BACKWARD: &str = include_str!("../../lessons/rmsnorm/04-backward.md");
const LESSONS: [(&str, &str); 5] = [
    ("00-overview", OVERVIEW),
    ("01-weight", WEIGHT),
    ("02-norm", NORM),
    ("03-forward", FORWARD),
    ("04-backward", BACKWARD),
];

// The claims of 04-backward, and those that quote the solutions or other sources.
mod backward;
mod quoted;

/// One section of a lesson: its part (`lesson`, `hint 2`, `explanation`), language and text.
struct Section {
    part: String,
    language: String,
    text: String,
}

/// Splits a lesson at its `<!-- tutor: KIND [N] LANG -->` marker lines (lessons/README.md).
fn sections(source: &str) -> Vec<Section> {
    let mut out: Vec<Section> = Vec::new();
    for line in source.lines() {
        let trimmed = line.trim();
        if let Some(inner) = trimmed.strip_prefix("<!-- tutor:").and_then(|l| l.strip_suffix("-->")) {
            let mut words: Vec<&str> = inner.split_whitespace().collect();
            let language = words.pop().expect("a marker names its language").to_string();
            out.push(Section { part: words.join(" "), language, text: String::new() });
        } else if let Some(current) = out.last_mut() {
            current.text.push_str(line);
            current.text.push('\n');
        }
    }
    out
}

/// Whitespace runs (line breaks included) as one space, and none between two Chinese characters
/// (where a line break is no space): a phrase may cross a line break.
fn flat(text: &str) -> String {
    let words: Vec<&str> = text.split_whitespace().collect();
    let mut out = String::with_capacity(text.len());
    for (i, word) in words.iter().enumerate() {
        let wide = |c: Option<char>| c.is_some_and(|c| !c.is_ascii());
        if i > 0 && !(wide(words[i - 1].chars().last()) && wide(word.chars().next())) {
            out.push(' ');
        }
        out.push_str(word);
    }
    out
}

/// The text of one part of a lesson in one language, flattened.
fn part(lesson: &str, part: &str, language: &str) -> String {
    let found: Vec<String> =
        sections(lesson).into_iter().filter(|s| s.part == part && s.language == language).map(|s| s.text).collect();
    assert_eq!(found.len(), 1, "{part} {language}: one section expected");
    flat(&found[0])
}

/// Asserts that a part of a lesson states `zh` in Chinese and `en` in English.
fn states(lesson: &str, section: &str, zh: &str, en: &str) {
    let (zh_text, en_text) = (part(lesson, section, "zh"), part(lesson, section, "en"));
    assert!(zh_text.contains(&flat(zh)), "the Chinese {section} does not state {zh:?}:\n{zh_text}");
    assert!(en_text.contains(&flat(en)), "the English {section} does not state {en:?}:\n{en_text}");
}

/// Asserts that a part of a lesson states a number (or any phrase), the same in both languages.
fn states_both(lesson: &str, section: &str, phrase: &str) {
    states(lesson, section, phrase, phrase);
}

/// A mistake's title, both languages.
fn mistake(id: &str) -> (&'static str, &'static str) {
    let m = mistakes::find(id).unwrap_or_else(|| panic!("{id} is catalogued"));
    (m.zh, m.en)
}

/// A case's title, both languages.
fn case_title(id: &str) -> (&'static str, &'static str) {
    let case = all_cases().into_iter().find(|c| c.id == id).unwrap_or_else(|| panic!("{id} is a case"));
    (case.zh, case.en)
}

fn both_contain((zh, en): (&str, &str), phrase: &str) {
    assert!(zh.contains(phrase) && en.contains(phrase), "{phrase:?} is not in both of {zh:?} / {en:?}");
}

// ---------------------------------------------------------------------------------------------
// Numbers as the texts write them
// ---------------------------------------------------------------------------------------------

/// `v` with `digits` decimals, as a lesson writes it (`0.7071`).
fn fixed(v: f64, digits: usize) -> String {
    format!("{v:.digits$}")
}

/// `v` with two significant digits in exponent notation (`4.9e-4`, `1.8e19`).
fn sci(v: f64) -> String {
    format!("{v:.1e}")
}

/// The distance between two f16 values of one sign, in ulps (bit patterns are ordered).
fn ulps_f16(a: f16, b: f16) -> u32 {
    (i32::from(a.to_bits()) - i32::from(b.to_bits())).unsigned_abs()
}

fn ulps_bf16(a: bf16, b: bf16) -> u32 {
    (i32::from(a.to_bits()) - i32::from(b.to_bits())).unsigned_abs()
}

fn ulps_f32(a: f32, b: f32) -> u32 {
    (i64::from(a.to_bits()) - i64::from(b.to_bits())).unsigned_abs() as u32
}

/// The spacing of f16 values just above `v` (positive, finite).
fn ulp_f16(v: f16) -> f64 {
    f16::from_bits(v.to_bits() + 1).to_f64() - v.to_f64()
}

fn row<T: Float>(values: &[f32]) -> ArrayD<T> {
    ArrayD::from_shape_vec(IxDyn(&[1, values.len()]), values.iter().map(|&v| T::from_f32(v)).collect())
        .expect("one row")
}

/// eps outside the root, `x / (sqrt(mean(x²)) + eps)`, on a row of f32 (a mistake the grading
/// reads from the answer's own scale, so it has no fixed candidate to borrow; nor has the sum).
fn eps_outside(x: &ArrayD<f32>, eps: f32) -> ArrayD<f32> {
    let mean_square = x.mapv(|v| v * v).sum() / x.len() as f32;
    x.mapv(|v| v / (mean_square.sqrt() + eps))
}

/// The output of one known mistake (one way of writing it) on `x`.
fn wrong_norm<T: Float>(x: &ArrayD<T>, eps: f32, id: &str, variant: &str) -> ArrayD<f32> {
    mistakes::wrong_norms(x, eps)
        .into_iter()
        .find(|c| c.mistake == id && c.variant == variant)
        .unwrap_or_else(|| panic!("{id} / {variant} is a candidate"))
        .output
}

// ---------------------------------------------------------------------------------------------
// 00-overview and 02-norm: f16 overflow and the long row
// ---------------------------------------------------------------------------------------------

#[test]
fn f16_tops_out_at_65504_and_300_squared_overflows() {
    let max = f16::MAX.to_f64();
    assert_eq!(max, 65504.0);
    let square = 300.0 * 300.0;
    assert!(square > max);
    let in_f16 = f16::from_f32(300.0) * f16::from_f32(300.0);
    assert!(in_f16.is_infinite(), "300 × 300 in f16 is {in_f16}");
    let (max, square) = (format!("{max}"), format!("{square}"));
    states(OVERVIEW, "lesson", &format!("f16 最大只能表示 {max}"), &format!("f16 tops out at {max}"));
    states_both(OVERVIEW, "lesson", &format!("300² = {square}"));
    states(NORM, "lesson", &format!("f16 最大 {max}"), &format!("f16 tops out at {max}"));
    states(NORM, "lesson", "300 × 300 会溢出成无穷大", "300 × 300 overflows to infinity");
    // And the norm the case checks: squares in FP32 give ±1, squares in f16 give 0.
    let x = row::<f16>(&[300.0, -300.0, 300.0, -300.0]);
    let right = reference::rms_normalize(&x, 1e-6).expect("valid");
    assert!(right.iter().all(|v| (v.abs() - 1.0).abs() < 1e-6), "{right}");
    let in_t = wrong_norm(&x, 1e-6, "half-precision-statistics", "squares-in-t");
    assert!(in_t.iter().all(|&v| v == 0.0), "{in_t}");
    both_contain(case_title("f16-squares-in-fp32"), "[300, -300, …]");
    both_contain(case_title("f16-squares-in-fp32"), "±1");
    states_both(NORM, "explanation", "`[300, -300, …]`");
    states(NORM, "explanation", "得到 ±1", "gives ±1");
}

/// Adds `addend` to an f16 running sum until it stops changing (at most `limit` times): how many
/// additions changed it.
fn moves(start: f16, addend: f16, limit: usize) -> usize {
    let mut sum = start;
    let mut moved = 0;
    for _ in 0..limit {
        let next = sum + addend;
        if next == sum {
            break;
        }
        moved += 1;
        sum = next;
    }
    moved
}

#[test]
fn a_running_f16_sum_stops_once_the_addend_is_at_most_half_an_ulp() {
    // Every positive finite f16 sum whose next neighbour is finite: an addend of exactly half an
    // ulp moves it at most once more (a tie goes to the even neighbour; from an even sum it
    // stays), and the largest addend below half an ulp never moves it.
    let mut ties_that_moved = 0;
    for bits in 1..0x7BFF_u16 {
        let sum = f16::from_bits(bits);
        let half_ulp = ulp_f16(sum) / 2.0;
        if half_ulp < f16::from_bits(1).to_f64() {
            continue; // below the smallest subnormal: no such addend exists
        }
        let half = f16::from_f64(half_ulp);
        assert_eq!(half.to_f64(), half_ulp, "half an ulp is an f16 value");
        let tie_moves = moves(sum, half, 4);
        assert!(tie_moves <= 1, "{sum} + {half}: moved {tie_moves} times");
        assert_eq!(tie_moves == 1, bits % 2 == 1, "{sum} + {half}: a tie moves only an odd sum");
        ties_that_moved += tie_moves;
        let below = f16::from_bits(half.to_bits() - 1);
        assert_eq!(moves(sum, below, 4), 0, "{sum} + {below}");
    }
    assert!(ties_that_moved > 0);
    states(
        OVERVIEW,
        "lesson",
        "一旦每个加数不超过当前和的半个 ulp，和就不再增长",
        "stops growing once each addend is at most half an ulp of the sum",
    );
    states(
        OVERVIEW,
        "lesson",
        "恰好半个 ulp 时平局舍入到偶数，和最多再动一次",
        "at exactly half an ulp the tie rounds to even, and the sum moves at most once more",
    );
}

const LONG_ROW: usize = 4096;
const LONG_VALUE: f32 = 4.0;

#[test]
fn a_long_f16_row_summed_one_at_a_time_stalls_at_32768_after_2048_terms() {
    let square = f16::from_f32(LONG_VALUE) * f16::from_f32(LONG_VALUE);
    assert_eq!(square.to_f64(), 16.0);
    let mut sum = f16::ZERO;
    let mut exact_terms = 0;
    let mut history = Vec::with_capacity(LONG_ROW);
    for k in 1..=LONG_ROW {
        sum += square;
        history.push(sum);
        if sum.to_f64() == 16.0 * k as f64 {
            exact_terms = k;
        }
    }
    let stall = history[exact_terms - 1];
    // Exact up to the stall, then stuck there for good.
    assert!(history[..exact_terms].iter().enumerate().all(|(i, s)| s.to_f64() == 16.0 * (i + 1) as f64));
    assert!(history[exact_terms..].iter().all(|&s| s == stall), "the sum stays at {stall}");
    assert_eq!((exact_terms, stall.to_f64()), (2048, 32768.0));
    // 16 is exactly half an ulp at 32768, and 32768 is the even neighbour of the tie.
    assert_eq!(ulp_f16(stall), 2.0 * square.to_f64());
    assert_eq!(stall.to_bits() % 2, 0);
    // The output: 4 / sqrt(32768 / 4096 + eps), not 1.
    let output = f64::from(LONG_VALUE / (stall.to_f32() / LONG_ROW as f32 + 1e-6).sqrt());
    let x = ArrayD::from_elem(IxDyn(&[1, LONG_ROW]), f16::from_f32(LONG_VALUE));
    let candidate = wrong_norm(&x, 1e-6, "half-precision-statistics", "running-sum-in-t");
    assert!(candidate.iter().all(|&v| f64::from(v) == output), "{candidate}");
    let right = reference::rms_normalize(&x, 1e-6).expect("valid");
    assert!(right.iter().all(|&v| (v - 1.0).abs() < 1e-6));

    let (n, value, sq) = (LONG_ROW.to_string(), format!("{LONG_VALUE:.1}"), format!("{:.1}", square.to_f64()));
    let (terms, stall, out) = (exact_terms.to_string(), format!("{}", stall.to_f64()), fixed(output, 3));
    states(
        NORM,
        "lesson",
        &format!("{n} 个 {value} 的平方（每个 {sq}）"),
        &format!("the squares of {n} values of {value} ({sq} each)"),
    );
    states(
        NORM,
        "lesson",
        &format!("前 {terms} 项都是精确的，和到 {stall} 之后就再也不变"),
        &format!("exact for the first {terms} terms and then stall at {stall} for good"),
    );
    states(NORM, "lesson", "恰好是半个 ulp，平局舍入到偶数", "exactly half an ulp there, and the tie rounds to even");
    states(NORM, "lesson", &format!("输出是 {out} 而不是 1"), &format!("the output is {out} instead of 1"));
    // The case that catches it, as its title says.
    both_contain(case_title("f16-long-row"), &format!("D = {n}"));
    both_contain(case_title("f16-long-row"), &format!("{LONG_VALUE:.1}"));
}

#[test]
fn a_long_f16_row_summed_in_partial_sums_stays_exact_and_overflows_to_zero_output() {
    let square = f16::from_f32(LONG_VALUE * LONG_VALUE);
    let squares = vec![square; LONG_ROW];
    // ndarray's sum (0.16): eight partial sums over the row, then combined pairwise into one.
    let mut partial = [f16::ZERO; 8];
    for chunk in squares.chunks(8) {
        for (p, &v) in partial.iter_mut().zip(chunk) {
            let next = *p + v;
            assert_eq!(next.to_f64(), p.to_f64() + v.to_f64(), "every partial sum stays exact");
            *p = next;
        }
    }
    let mut acc = f16::ZERO;
    let mut reached = 0.0;
    for (a, b) in [(0, 4), (1, 5), (2, 6), (3, 7)] {
        let pair = partial[a] + partial[b];
        assert_eq!(pair.to_f64(), partial[a].to_f64() + partial[b].to_f64());
        reached = acc.to_f64() + pair.to_f64();
        let next = acc + pair;
        if next.is_finite() {
            assert_eq!(next.to_f64(), reached, "exact until the last step");
        }
        acc = next;
    }
    assert!(acc.is_infinite() && reached == 65536.0 && reached > f16::MAX.to_f64());
    // What a learner's code actually gets from ndarray, and what the output becomes.
    let x = ArrayD::from_elem(IxDyn(&[1, LONG_ROW]), f16::from_f32(LONG_VALUE));
    let summed = x.mapv(|v| v * v).sum_axis(Axis(1));
    assert!(summed.iter().all(|s| s.is_infinite()), "sum_axis in f16 gives {summed}");
    let output = wrong_norm(&x, 1e-6, "half-precision-statistics", "sum-axis-in-t");
    assert!(output.iter().all(|&v| v == 0.0), "{output}");
    let reached = format!("{reached}");
    states(
        NORM,
        "lesson",
        &format!("ndarray 的 `sum_axis` 就是这样），每一步都精确，最后一步到达 {reached} 时溢出成无穷大，输出是 0"),
        &format!("as ndarray's `sum_axis` does), every step is exact until the last one reaches {reached} and overflows to infinity, so the output is 0"),
    );
    states(NORM, "lesson", "这两种情况你都可能遇到", "You may meet either.");
}

#[test]
fn the_half_precision_statistics_title_says_what_the_three_ways_give() {
    // A square overflows (300²), the sum overflows (sum_axis on the long row): output 0. The
    // one-at-a-time sum stalls: output 1.414.
    let big = row::<f16>(&[300.0, -300.0, 300.0, -300.0]);
    assert!(wrong_norm(&big, 1e-6, "half-precision-statistics", "squares-in-t").iter().all(|&v| v == 0.0));
    let long = ArrayD::from_elem(IxDyn(&[1, LONG_ROW]), f16::from_f32(LONG_VALUE));
    assert!(wrong_norm(&long, 1e-6, "half-precision-statistics", "sum-axis-in-t").iter().all(|&v| v == 0.0));
    let stalled = wrong_norm(&long, 1e-6, "half-precision-statistics", "running-sum-in-t");
    assert!(stalled.iter().all(|&v| (v - std::f32::consts::SQRT_2).abs() < 1e-3), "{stalled}");
    let (zh, en) = mistake("half-precision-statistics");
    assert!(zh.contains("平方或和溢出为无穷大、输出变成 0") && zh.contains("累加停滞"), "{zh}");
    assert!(en.contains("a square or the sum overflows to infinity and the output becomes 0"), "{en}");
    assert!(en.contains("the sum stalls"), "{en}");
}

#[test]
fn fp32_statistics_cannot_overflow_for_f16_but_can_for_bf16_beyond_1_8e19() {
    // f16: the largest square, summed over a long row, is nowhere near FP32's range.
    let largest = f16::MAX.to_f32();
    let sum: f32 = (0..LONG_ROW).map(|_| largest * largest).sum();
    assert!(sum.is_finite());
    // bf16 has FP32's range: squares of values beyond sqrt(f32::MAX) overflow in FP32 too.
    let bound = f64::from(f32::MAX).sqrt();
    assert!(bf16::MAX.to_f64() > bound);
    let above = bf16::from_f64(bound * 1.01).to_f32();
    let below = bf16::from_f64(bound * 0.99).to_f32();
    assert!((above * above).is_infinite() && (below * below).is_finite());
    let bound = sci(bound);
    assert_eq!(bound, "1.8e19");
    states(
        OVERVIEW,
        "lesson",
        &format!("f16 输入不会溢出（bf16 的范围与 FP32 相同：超过约 {bound} 的值，平方在 FP32 中也会溢出）"),
        &format!("no overflow for f16 inputs (bf16 has FP32's range: values beyond about {bound} overflow when squared, even in FP32)"),
    );
    // "Less accumulated error": the long row of a standard normal f16 input, summed one at a
    // time in FP32 and in f16, against the exact sum.
    let x: ArrayD<f16> = Rng::new(3).normal_array(&[LONG_ROW]);
    let exact: f64 = x.iter().map(|v| v.to_f64() * v.to_f64()).sum();
    let in_f32: f32 = x.iter().map(|v| v.to_f32() * v.to_f32()).sum();
    let in_f16 = x.iter().fold(f16::ZERO, |acc, &v| acc + v * v);
    let error = |s: f64| ((s - exact) / exact).abs();
    assert!(error(f64::from(in_f32)) * 100.0 < error(in_f16.to_f64()), "{in_f32} / {in_f16} / {exact}");
    states(OVERVIEW, "lesson", "累计误差更小", "less accumulated error");
}

// ---------------------------------------------------------------------------------------------
// 02-norm: eps, the axis, the mean, division
// ---------------------------------------------------------------------------------------------

#[test]
fn eps_inside_the_root_gives_0_7071_and_outside_0_9990() {
    let x = row::<f32>(&[1e-3, -1e-3, 1e-3, -1e-3]);
    let inside = reference::rms_normalize(&x, 1e-6).expect("valid");
    let outside = eps_outside(&x, 1e-6);
    let (inside, outside) = (fixed(f64::from(inside[[0, 0]]), 4), fixed(f64::from(outside[[0, 0]]), 4));
    assert_eq!((inside.as_str(), outside.as_str()), ("0.7071", "0.9990"));
    states(
        NORM,
        "lesson",
        &format!("eps = 1e-6 时，正确答案是 {inside}，放在外面是 {outside}"),
        &format!("eps = 1e-6 the right answer is {inside}, eps outside gives {outside}"),
    );
    states_both(NORM, "lesson", "`[1e-3, -1e-3, …]`");
    both_contain(case_title("eps-inside-sqrt"), "[1e-3, -1e-3, …]");
    both_contain(case_title("eps-inside-sqrt"), &inside);
    // The README's walk-through shows the same case in full, with its greatest difference.
    let readme = include_str!("../../README.md");
    let difference = printed(
        eps_outside(&x, 1e-6)[[0, 0]] as f64 - reference::rms_normalize(&x, 1e-6).expect("valid")[[0, 0]] as f64,
    );
    assert!(readme.contains(&format!("must give {inside})\n")), "the README shows the eps case");
    assert!(readme.contains(&format!("Greatest absolute difference: {difference} at")), "{difference}");
    // The eps-is-used case: [1e-6, …] at eps = 1e-12 gives the same 0.7071.
    let tiny = row::<f32>(&[1e-6, -1e-6, 1e-6, -1e-6]);
    let at_tiny_eps = fixed(f64::from(reference::rms_normalize(&tiny, 1e-12).expect("valid")[[0, 0]]), 4);
    assert_eq!(at_tiny_eps, inside);
    both_contain(case_title("eps-is-used"), "[1e-6, -1e-6, …]");
    both_contain(case_title("eps-is-used"), "eps = 1e-12");
    both_contain(case_title("eps-is-used"), &at_tiny_eps);
}

#[test]
fn a_zero_row_is_finite_for_eps_above_zero_and_nan_at_eps_zero() {
    let zero = ArrayD::<f32>::zeros(IxDyn(&[2, 4]));
    for eps in rmsnorm_grade::cases::KEPT_EPS.into_iter().filter(|&e| e > 0.0) {
        let y = reference::rms_normalize(&zero, eps).expect("valid");
        assert!(y.iter().all(|&v| v == 0.0), "eps = {eps:e}: {y}");
    }
    // The kit accepts eps = 0, and then a zero row is 0 / 0.
    assert!(reference::check_config(4, 0.0).is_ok());
    assert!(rmsnorm_grade::cases::KEPT_EPS.contains(&0.0), "the checks require eps = 0 to be accepted");
    assert!(reference::rms_normalize(&zero, 0.0).expect("valid").iter().all(|v| v.is_nan()));

    both_contain(mistake("no-eps"), "0 / 0 = NaN");
    states(
        OVERVIEW,
        "lesson",
        "只要 eps > 0，全零向量就得到 0 / sqrt(eps) = 0",
        "for any eps > 0, a zero vector gives 0 / sqrt(eps) = 0",
    );
    states(
        OVERVIEW,
        "lesson",
        "kit 也接受 eps = 0：那时全零向量得到 0 / 0 = NaN",
        "The kit accepts eps = 0 too: a zero vector then gives 0 / 0 = NaN",
    );
    states(
        NORM,
        "lesson",
        "只要 eps > 0，结果就是 `0 / sqrt(eps) = 0`",
        "for any eps > 0 the result is `0 / sqrt(eps) = 0`",
    );
    states(
        NORM,
        "lesson",
        "kit 也接受 eps = 0，那时全零行同样得到 NaN",
        "the kit accepts eps = 0 too, and then a zero row gives NaN as well",
    );
    states(NORM, "explanation", "eps > 0 时全零行得到 0", "for eps > 0 a zero row gives 0");
    let solution = flat(include_str!("../../solutions/rmsnorm/02-norm.rs"));
    assert!(solution.contains("for eps > 0 a zero row gives 0 / sqrt(eps) = 0, never 0 / 0"));
    assert!(solution.contains("eps > 0 时全零行得到 0 / sqrt(eps) = 0，而不是 0 / 0"));
    assert!(solution.contains("eps = 0") && solution.contains("0 / 0 = NaN"));
}

#[test]
fn the_sum_instead_of_the_mean_is_about_sqrt_d_times_too_small() {
    for d in [4usize, 64, 4096] {
        let x: ArrayD<f32> = Rng::new(d as u64).normal_array(&[3, d]);
        let right = reference::rms_normalize(&x, 1e-6).expect("valid");
        // x / sqrt(Σx² + eps), row by row.
        let sums = x.mapv(|v| v * v).sum_axis(ndarray::Axis(1)).insert_axis(ndarray::Axis(1));
        let summed = &x / &(sums + 1e-6).mapv(f32::sqrt);
        for (r, s) in right.iter().zip(summed.iter()) {
            let ratio = f64::from(*r) / f64::from(*s);
            assert!((ratio / (d as f64).sqrt() - 1.0).abs() < 1e-4, "D = {d}: ratio {ratio}");
        }
    }
    states(
        NORM,
        "lesson",
        "用和会让结果整体约小 sqrt(D) 倍",
        "the sum makes every output about sqrt(D) times too small",
    );
    both_contain(mistake("sum-not-mean"), "sqrt(D)");
    let (zh, en) = mistake("sum-not-mean");
    assert!(zh.contains("约小了 sqrt(D) 倍") && en.contains("about sqrt(D) times too small"));
}

/// Whether `f` panics (the panic hook is left alone: tests run side by side).
fn panics(f: impl FnOnce()) -> bool {
    catch_unwind(AssertUnwindSafe(f)).is_err()
}

#[test]
fn only_the_forgotten_axis_needs_a_square_input_not_to_panic() {
    let shapes: [&[usize]; 6] = [&[5], &[3, 5], &[5, 3], &[4, 4], &[2, 3, 5], &[2, 2, 3, 6]];
    for shape in shapes {
        let x: ArrayD<f32> = Rng::new(1).normal_array(shape);
        let first = Axis(0);
        let last = Axis(x.ndim() - 1);
        // Along the first axis, kept or not, and over the whole tensor: never a panic.
        assert!(!panics(|| drop(&x / &(x.mapv(|v| v * v).sum_axis(first) + 1e-6).insert_axis(first))));
        assert!(!panics(|| drop(&x / &(x.mapv(|v| v * v).sum_axis(first) + 1e-6))));
        assert!(!panics(|| drop(&x / (x.mapv(|v| v * v).sum() + 1e-6))));
        // Along the last axis without putting it back: fine only where [..., D] / [...] happens to
        // broadcast — a 1-D input (a 0-d statistic) or a square one.
        let square = x.ndim() >= 2 && x.shape()[x.ndim() - 2] == x.shape()[x.ndim() - 1];
        let forgot = panics(|| drop(&x / &x.mapv(|v| v * v).sum_axis(last)));
        assert_eq!(forgot, x.ndim() >= 2 && !square, "{shape:?}");
    }
    states(
        NORM,
        "lesson",
        "沿第一维或对整个张量统计，会把不同 token 混在一起，而且在任何形状上都不会 panic",
        "Statistics along the first axis, or over the whole tensor, mix tokens together and never panic, whatever the shape",
    );
    states(
        NORM,
        "lesson",
        "在大多数形状上会 panic（[..., D] 与 [...] 无法广播）",
        "panic on most shapes ([..., D] and [...] do not broadcast)",
    );
    states(NORM, "lesson", "但在方阵输入上它会沿错误的方向广播", "but on a square input they broadcast the wrong way");
}

#[test]
fn reciprocal_and_division_differ_by_at_most_an_ulp_when_correctly_rounded() {
    let mut rng = Rng::new(42);
    let mut worst = 0;
    let mut differ = 0;
    const SAMPLES: usize = 1_000_000;
    for _ in 0..SAMPLES {
        // Values and mean squares over many binades; eps as in the checks.
        let x = (rng.normal() * 10f64.powf(rng.uniform() * 8.0 - 4.0)) as f32;
        let ms = (rng.uniform() * 10f64.powf(rng.uniform() * 12.0 - 6.0)) as f32;
        let root = (ms + 1e-6).sqrt();
        let (divided, multiplied) = (x / root, x * (1.0 / root));
        let d = ulps_f32(divided, multiplied);
        worst = worst.max(d);
        differ += usize::from(d > 0);
    }
    assert_eq!(worst, 1, "the bound is reached, and never passed");
    assert!(differ > SAMPLES / 10);
    states(
        NORM,
        "explanation",
        "只要每一步都是正确舍入的 f32 运算（开方、除法、乘法各舍入一次",
        "With correctly rounded f32 operations (a square root, a division and a multiplication each rounded once",
    );
    states(
        NORM,
        "explanation",
        "乘以倒数与直接相除最多差一个 ulp",
        "multiplying by the reciprocal and dividing differ by at most an ulp",
    );
}

/// The normalised row when its sum of squares is taken in the order given.
fn normalised_with(row: &[f32], sum: f32) -> Vec<f32> {
    let scale = 1.0 / (sum / row.len() as f32 + 1e-6).sqrt();
    row.iter().map(|v| v * scale).collect()
}

/// The largest distance (ulps, and relative) between normalised rows whose statistics are summed
/// one by one, backwards, and in eight partial sums (ndarray).
fn summation_orders(d: usize, rows: usize) -> (u32, f64) {
    let mut rng = Rng::new(d as u64 + 7);
    let (mut ulps, mut relative) = (0, 0.0f64);
    for _ in 0..rows {
        let row: Vec<f32> = (0..d).map(|_| rng.normal() as f32).collect();
        let forward: f32 = row.iter().map(|v| v * v).sum();
        let backward: f32 = row.iter().rev().map(|v| v * v).sum();
        let eight: f32 = ndarray::ArrayView1::from(&row).mapv(|v| v * v).sum();
        let base = normalised_with(&row, forward);
        for other in [backward, eight] {
            for (a, b) in base.iter().zip(normalised_with(&row, other)) {
                ulps = ulps.max(ulps_f32(*a, b));
                if a.abs() > 1e-3 {
                    relative = relative.max(f64::from((a - b) / a).abs());
                }
            }
        }
    }
    (ulps, relative)
}

#[test]
fn summation_order_moves_results_by_a_few_ulp_on_short_rows_and_tens_on_4096() {
    let (short, short_relative) = summation_orders(8, 2000);
    let (long, long_relative) = summation_orders(4096, 40);
    assert!((1..=5).contains(&short), "a few ulp on a short row: {short}");
    assert!((10..100).contains(&long), "tens of ulp on a row of 4096: {long}");
    let rtol = 1e-5;
    // "Well inside": a fifth of the relative tolerance at most.
    assert!(short_relative < rtol / 5.0 && long_relative < rtol / 5.0, "{short_relative:e} {long_relative:e}");
    let rtol = format!("{rtol:e}");
    states(
        NORM,
        "explanation",
        &format!("绝对误差 1e-6 加相对误差 {rtol}：换一种求和顺序，短行的 f32 结果会差几个 ulp，4096 长的行会差几十个 ulp"),
        &format!("absolute 1e-6 plus relative {rtol}: summing in another order moves an f32 result by a few ulp on a short row and by tens of ulp on a row of 4096"),
    );
}

// ---------------------------------------------------------------------------------------------
// 01-weight
// ---------------------------------------------------------------------------------------------

#[test]
fn the_rms_after_normalisation_is_only_about_1() {
    // sqrt(ms / (ms + eps)): all but 1 for ordinary inputs ...
    let rms = |y: &ArrayD<f32>| (y.iter().map(|v| f64::from(*v).powi(2)).sum::<f64>() / y.len() as f64).sqrt();
    let ordinary: ArrayD<f32> = Rng::new(5).normal_array(&[1, 64]);
    let ordinary_rms = rms(&reference::rms_normalize(&ordinary, 1e-6).expect("valid"));
    assert!((ordinary_rms - 1.0).abs() < 1e-5, "{ordinary_rms}");
    // ... but not at input scale 1e-3 with eps = 1e-6.
    let small = row::<f32>(&[1e-3, -1e-3, 1e-3, -1e-3]);
    let small_rms = rms(&reference::rms_normalize(&small, 1e-6).expect("valid"));
    let ms = 1e-6f64;
    assert!((small_rms - (ms / (ms + 1e-6)).sqrt()).abs() < 1e-6);
    let small_rms = fixed(small_rms, 4);
    states(WEIGHT, "lesson", "均方根约为 1", "a root mean square of about 1");
    states_both(WEIGHT, "lesson", "sqrt(ms / (ms + eps))");
    states(
        WEIGHT,
        "lesson",
        &format!("[1e-3, -1e-3, …] 在 eps = 1e-6 时只有 {small_rms}"),
        &format!("only {small_rms} for [1e-3, -1e-3, …] at eps = 1e-6"),
    );
}

/// Grades a wrong solution of `tests/mistakes/rmsnorm/` in process; returns its failing cases.
fn failing(name: &str) -> Vec<CaseResult> {
    let fixture = common::fixtures::MISTAKES.iter().find(|f| f.course == "rmsnorm" && f.name == name);
    let report = common::panics::graded(fixture.unwrap_or_else(|| panic!("tests/mistakes/rmsnorm/{name}.rs")), 2024);
    assert!(report.cases.iter().all(|c| c.status != Status::NotDone));
    report.cases.into_iter().filter(|c| c.status == Status::Failed).collect()
}

#[test]
fn a_frozen_weight_fails_eight_cases_and_the_explanation_names_them() {
    let failed = failing("frozen-weight");
    let ids: Vec<&str> = failed.iter().map(|c| c.id.as_str()).collect();
    assert!(failed.iter().all(|c| c.mistake.as_deref() == Some("frozen-weight")), "{ids:?}");
    let count = ids.len().to_string();
    assert_eq!(count, "8", "{ids:?}");
    states(
        WEIGHT,
        "explanation",
        &format!("用 `Param::frozen` 时会有 {count} 个用例失败"),
        &format!("With `Param::frozen` {count} cases fail"),
    );
    for id in &ids {
        states_both(WEIGHT, "explanation", &format!("`{id}`"));
    }
    // The hint names the case by the title a report shows (a report never shows case ids).
    let (zh, en) = case_title("weight-gets-gradient");
    states(
        WEIGHT,
        "hint 3",
        &format!("另一个会让 {count} 个用例失败，其中包括参数契约里的“{zh}”"),
        &format!("The other makes {count} cases fail, the parameter contract's \"{en}\" among them"),
    );
    let parameter: Vec<&str> =
        failed.iter().filter(|c| c.contract == rmsnorm_grade::cases::PARAMETER).map(|c| c.id.as_str()).collect();
    assert_eq!(parameter, ["weight-is-ones", "weight-gets-gradient", "gradient-starts-empty"]);
}

#[test]
fn the_explanation_lists_every_case_of_the_parameter_contract() {
    let cases: Vec<_> = all_cases().into_iter().filter(|c| c.contract == rmsnorm_grade::cases::PARAMETER).collect();
    let count = cases.len().to_string();
    assert_eq!(count, "5");
    states(
        WEIGHT,
        "explanation",
        &format!("参数契约有 {count} 个用例"),
        &format!("The parameter contract has {count} cases"),
    );
    for case in &cases {
        states_both(WEIGHT, "explanation", &format!("`{}`", case.id));
    }
    let kept = rmsnorm_grade::cases::KEPT_EPS;
    let lowest = kept.iter().copied().fold(f32::INFINITY, f32::min);
    let highest = kept.iter().copied().fold(0.0, f32::max);
    let (lowest, highest) = (format!("{lowest}"), format!("{highest}"));
    assert_eq!((lowest.as_str(), highest.as_str()), ("0", "0.1"));
    states(WEIGHT, "explanation", &format!("从 {lowest} 到 {highest}"), &format!("from {lowest} to {highest}"));
    let (zh, en) = case_title("eps-is-kept");
    assert!(zh.contains(&format!("从 {lowest} 到 {highest}")) && en.contains(&format!("from {lowest} to {highest}")));
    // What rejects-bad-config tries, as the explanation says.
    assert!(reference::check_config(0, 1e-6).is_err());
    for eps in [-1e-6, f32::NAN, f32::INFINITY] {
        assert!(reference::check_config(4, eps).is_err());
    }
    states(
        WEIGHT,
        "explanation",
        "hidden_size = 0，或 eps 为负数、NaN、无穷大时",
        "for hidden_size = 0 and for a negative, NaN or infinite eps",
    );
}

// ---------------------------------------------------------------------------------------------
// 03-forward
// ---------------------------------------------------------------------------------------------

/// For the rounds-once cases' inputs (64 × 64, weights exact in `T`), the share of outputs that
/// each way of rounding twice gets wrong, and by how many ulps at most.
fn rounded_twice<T: Float>(seed: u64, ulps: fn(T, T) -> u32) -> Vec<(f64, u32)> {
    let mut rng = Rng::new(seed);
    let x: ArrayD<T> = rng.normal_array(&[64, 64]);
    let weight = Param::trainable(rng.weights(64).mapv(|w| T::from_f32(w).to_f32()));
    let right = reference::forward(&x, 1e-6, &weight).expect("valid");
    mistakes::wrong_forwards(&x, 1e-6, &weight)
        .into_iter()
        // forward's three ways of rounding twice (norm's own, a normalisation rounded to T, is not
        // forward's output)
        .filter(|c| c.mistake == "double-rounding" && !c.variant.contains("norm-rounded-to-t"))
        .map(|c| {
            let wrong: Vec<u32> =
                c.output.iter().zip(right.iter()).map(|(&a, &b)| ulps(a, b)).filter(|&d| d > 0).collect();
            (wrong.len() as f64 / right.len() as f64, wrong.into_iter().max().unwrap_or(0))
        })
        .collect()
}

#[test]
fn rounding_twice_puts_about_a_quarter_of_the_outputs_one_ulp_off() {
    for seed in 1..=4 {
        let results = [rounded_twice::<f16>(seed, ulps_f16), rounded_twice::<bf16>(seed, ulps_bf16)].concat();
        assert_eq!(results.len(), 6, "three ways of rounding twice, two types");
        for (share, worst) in results {
            assert!((0.2..0.3).contains(&share), "share {share}");
            assert_eq!(worst, 1);
        }
    }
    states(
        FORWARD,
        "lesson",
        "会舍入两次，约四分之一的元素会差一个 ulp",
        "rounds twice, and about a quarter of the elements end up an ulp off",
    );
    states(FORWARD, "lesson", "误差每个元素最多一个 ulp", "off by at most one ulp per element");
}

#[test]
fn past_f16s_range_the_one_rounding_gives_inf_and_a_clamp_fails_that_case_alone() {
    assert_eq!(f16::from_f32(65519.99).to_f32(), 65504.0);
    assert!(f16::from_f32(65520.0).is_infinite() && f16::from_f32(-65520.0).is_infinite());
    let weight = Param::trainable(ndarray::array![57344.0f32, 1.0]);
    let x = ArrayD::from_shape_vec(IxDyn(&[1, 2]), vec![f16::from_f32(3.0), f16::from_f32(0.5)]).unwrap();
    assert!(reference::forward(&x, 1e-6, &weight).unwrap()[[0, 0]].is_infinite(), "57344 · 1.4 in f16");
    let failed: Vec<String> = failing("output-saturated-clamp").into_iter().map(|c| c.id).collect();
    assert_eq!(failed, ["forward-past-f16-range"]);
    states(FORWARD, "lesson", "舍入为 f16 的 ±inf", "rounds anything past 65519.99 to ±inf in f16");
    states(FORWARD, "lesson", "不要把结果截到 ±65504", "clamp to ±65504");
}

#[test]
fn the_rounds_once_cases_look_at_4096_outputs_and_the_message_counts_them() {
    let failed = failing("double-rounding");
    let rounding: Vec<&CaseResult> = failed.iter().filter(|c| c.id.ends_with("-rounds-once")).collect();
    assert_eq!(rounding.len(), 2, "{:?}", failed.iter().map(|c| &c.id).collect::<Vec<_>>());
    for case in rounding {
        let mismatch = case.mismatch.as_ref().expect("the numbers");
        assert_eq!(mismatch.total, 4096);
        let message = case.message.as_ref().expect("a message");
        let dtype = if case.id.starts_with("f16") { "float16" } else { "bfloat16" };
        let (k, n) = (mismatch.mismatched, mismatch.total);
        assert!(message.en.starts_with(&format!("{k} of {n} {dtype} outputs differ")), "{}", message.en);
        assert!(message.zh.starts_with(&format!("{n} 个 {dtype} 输出中有 {k} 个")), "{}", message.zh);
        // The message says which rounding it is, read from the bits, in both languages.
        assert!(message.en.contains("they were rounded twice"), "{}", message.en);
        assert!(message.zh.contains("舍入了两次"), "{}", message.zh);
        let share = k as f64 / n as f64;
        assert!((0.2..0.3).contains(&share), "{share}");
    }
    states(FORWARD, "explanation", "各 4096 个 f16 与 bf16 输出", "4096 f16 and of 4096 bf16 outputs");
}

/// The largest relative error of rounding to `T`, over f32 values across many binades.
fn worst_rounding<T: Float>() -> f64 {
    let mut rng = Rng::new(9);
    let mut worst = 0.0f64;
    for i in 0..200_000 {
        let v = if i < 4096 {
            // Every tie just above 1 is among them: the worst case.
            1.0 + f64::from(i) * 2f64.powi(-12)
        } else {
            (1.0 + rng.uniform()) * 2f64.powi((rng.uniform() * 20.0) as i32 - 10)
        };
        let v = v as f32;
        worst = worst.max(((T::from_f32(v).to_f64() - f64::from(v)) / f64::from(v)).abs());
    }
    worst
}

#[test]
fn f16_and_bf16_precision_and_the_tolerances_built_on_them() {
    assert_eq!((f16::MANTISSA_DIGITS, bf16::MANTISSA_DIGITS), (11, 8));
    let (u16_, ubf16) = (2f64.powi(-11), 2f64.powi(-8));
    let (worst16, worstbf) = (worst_rounding::<f16>(), worst_rounding::<bf16>());
    assert!(worst16 <= u16_ && worst16 > 0.99 * u16_, "{worst16:e}");
    assert!(worstbf <= ubf16 && worstbf > 0.99 * ubf16, "{worstbf:e}");
    let (u16_text, ubf16_text) = (sci(u16_), sci(ubf16));
    assert_eq!((u16_text.as_str(), ubf16_text.as_str()), ("4.9e-4", "3.9e-3"));
    states_both(FORWARD, "lesson", &format!("2^-11 ≈ {u16_text}"));
    states_both(FORWARD, "lesson", &format!("2^-8 ≈ {ubf16_text}"));
    states(FORWARD, "lesson", "bf16 只有 8 位有效位", "bf16 keeps only 8 significant bits");
    // Each tolerance leaves room for two roundings (expected and actual), and the lesson, the
    // explanation and the case titles give the same numbers.
    for (case, rtol, atol, unit) in [("f16-forward", 1e-3, "1e-4", u16_), ("bf16-forward", 1.6e-2, "1e-5", ubf16)] {
        assert!(rtol >= 2.0 * unit, "{case}");
        let rtol = format!("{rtol:e}");
        both_contain(case_title(case), &format!("rtol {rtol} / atol {atol}"));
        states_both(FORWARD, "explanation", &format!("rtol {rtol} / atol {atol}"));
        states(FORWARD, "lesson", &format!("rtol {rtol}、atol {atol}"), &format!("rtol {rtol} and atol {atol}"));
    }
    both_contain(case_title("f16-forward"), "2×3×4");
    states_both(FORWARD, "explanation", "2×3×4");
}

// ---------------------------------------------------------------------------------------------
// doctor and README: the harness's dependencies
// ---------------------------------------------------------------------------------------------

#[test]
fn doctor_and_readme_name_every_dependency_of_the_harness() {
    let manifest: toml::Table = toml::from_str(include_str!("../../crates/subject/Cargo.toml")).expect("TOML");
    let dependencies: Vec<&String> = manifest["dependencies"].as_table().expect("a table").keys().collect();
    assert_eq!(dependencies.len(), 3, "{dependencies:?}");
    let line = |source: &str| {
        source.lines().find(|l| l.contains("doctor_fix_dependencies:")).expect("the fix line").to_string()
    };
    let (en, zh) = (line(include_str!("../../src/text/en.rs")), line(include_str!("../../src/text/zh.rs")));
    let readme = flat(include_str!("../../README.md"));
    for name in dependencies {
        assert!(en.contains(name.as_str()) && zh.contains(name.as_str()), "doctor does not name {name}");
        assert!(readme.contains(name.as_str()), "the README does not name {name}");
    }
    assert!(readme.contains("three dependencies") && readme.contains("三个依赖"));
}

// ---------------------------------------------------------------------------------------------
// The same claims in both languages
// ---------------------------------------------------------------------------------------------

/// The numbers a text states, as written: digit runs that are not part of a name (`f16`, `x_0`),
/// with their decimals and exponent (`0.7071`, `1e-6`, `1.8e19`). The English words "ones" and
/// "zeros" count as 1 and 0 (an array of ones, 全 1).
fn numbers(text: &str) -> BTreeSet<String> {
    let mut words = String::with_capacity(text.len());
    let mut word = String::new();
    for c in text.chars().chain(std::iter::once(' ')) {
        if c.is_ascii_alphanumeric() || c == '_' {
            word.push(c);
            continue;
        }
        words.push_str(match word.to_ascii_lowercase().as_str() {
            "ones" => "1",
            "zeros" => "0",
            _ => &word,
        });
        word.clear();
        words.push(c);
    }
    let chars: Vec<char> = words.chars().collect();
    let mut found = BTreeSet::new();
    let mut i = 0;
    while i < chars.len() {
        let starts = chars[i].is_ascii_digit()
            && (i == 0 || !(chars[i - 1].is_ascii_alphanumeric() || chars[i - 1] == '_' || chars[i - 1] == '.'));
        if !starts {
            i += 1;
            continue;
        }
        let start = i;
        while i < chars.len() && chars[i].is_ascii_digit() {
            i += 1;
        }
        if i + 1 < chars.len() && chars[i] == '.' && chars[i + 1].is_ascii_digit() {
            i += 1;
            while i < chars.len() && chars[i].is_ascii_digit() {
                i += 1;
            }
        }
        if i < chars.len() && chars[i] == 'e' {
            let mut j = i + 1;
            if j < chars.len() && (chars[j] == '-' || chars[j] == '+') {
                j += 1;
            }
            if j < chars.len() && chars[j].is_ascii_digit() {
                i = j;
                while i < chars.len() && chars[i].is_ascii_digit() {
                    i += 1;
                }
            }
        }
        found.insert(chars[start..i].iter().collect());
    }
    found
}

/// The code a text quotes inline: every `backticked` span outside fenced blocks (whose labels
/// are translated; their numbers still count).
fn code_spans(text: &str) -> BTreeSet<String> {
    let mut fenced = false;
    let mut prose = String::new();
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
        } else if !fenced {
            prose.push_str(line);
            prose.push('\n');
        }
    }
    prose.split('`').skip(1).step_by(2).map(str::to_string).collect()
}

/// Both languages state the same numbers and quote the same code; the difference otherwise.
fn same_claims(what: &str, zh: &str, en: &str) -> Option<String> {
    let (zn, en_n) = (numbers(zh), numbers(en));
    let (zc, ec) = (code_spans(zh), code_spans(en));
    if zn == en_n && zc == ec {
        return None;
    }
    let only = |a: &BTreeSet<String>, b: &BTreeSet<String>| a.difference(b).cloned().collect::<Vec<_>>();
    Some(format!(
        "{what}: numbers only in zh {:?}, only in en {:?}; code only in zh {:?}, only in en {:?}",
        only(&zn, &en_n),
        only(&en_n, &zn),
        only(&zc, &ec),
        only(&ec, &zc)
    ))
}

#[test]
fn the_claim_extractors_read_numbers_and_code_as_written() {
    let found = numbers("f16 300² = 90000, 2^-11 ≈ 4.9e-4, x_0, [1e-3, -1e-3], 0.7071; bf16 1.8e19 2×3×4 D.");
    let expected = ["300", "90000", "2", "11", "4.9e-4", "1e-3", "0.7071", "1.8e19", "3", "4"];
    assert_eq!(found, expected.iter().map(|s| s.to_string()).collect());
    assert_eq!(numbers("Zeros, not ones; someones"), ["0", "1"].iter().map(|s| s.to_string()).collect());
    let spans = code_spans("use `a`\n```\nlet `b`\n```\nand `c`");
    assert_eq!(spans, ["a", "c"].iter().map(|s| s.to_string()).collect());
    // The drift issue 12 found: a code hint in the English comment only.
    let drifted = "// (`ndarray::Axis(x.ndim() - 1)`), that axis kept for broadcasting.\n// 保留该轴以便广播。\n";
    let (zh, en) = comments(drifted);
    assert!(same_claims("drifted", &zh, &en).is_some());
    assert!(same_claims("same", "全 1，eps = 1e-6，`norm`", "ones, eps = 1e-6, `norm`").is_none());
}

#[test]
fn every_lesson_section_makes_the_same_claims_in_both_languages() {
    let mut problems = Vec::new();
    for (name, source) in LESSONS {
        let all = sections(source);
        let parts: BTreeSet<&str> = all.iter().map(|s| s.part.as_str()).collect();
        for part in parts {
            let text = |language: &str| {
                all.iter()
                    .find(|s| s.part == part && s.language == language)
                    .map(|s| s.text.clone())
                    .unwrap_or_default()
            };
            problems.extend(same_claims(&format!("{name} {part}"), &text("zh"), &text("en")));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn every_mistake_and_case_title_makes_the_same_claims_in_both_languages() {
    let mut problems = Vec::new();
    for m in mistakes::ALL {
        problems.extend(same_claims(&format!("mistake {}", m.id), m.zh, m.en));
    }
    for case in all_cases() {
        problems.extend(same_claims(&format!("case {}", case.id), case.zh, case.en));
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// `key: "text",` lines of an interface text file, by key.
fn interface_lines(source: &str) -> Vec<(String, String)> {
    source
        .lines()
        .filter_map(|line| {
            let (key, rest) = line.trim().split_once(": \"")?;
            Some((key.to_string(), rest.trim_end_matches(',').trim_end_matches('"').to_string()))
        })
        .collect()
}

#[test]
fn every_interface_sentence_makes_the_same_claims_in_both_languages() {
    let zh = interface_lines(include_str!("../../src/text/zh.rs"));
    let en = interface_lines(include_str!("../../src/text/en.rs"));
    assert_eq!(zh.iter().map(|(k, _)| k).collect::<Vec<_>>(), en.iter().map(|(k, _)| k).collect::<Vec<_>>());
    let mut problems = Vec::new();
    for ((key, zh), (_, en)) in zh.iter().zip(&en) {
        problems.extend(same_claims(key, zh, en));
        let placeholders = |s: &str| -> BTreeSet<String> {
            s.split('{').skip(1).filter_map(|p| p.split_once('}')).map(|(name, _)| name.to_string()).collect()
        };
        if placeholders(zh) != placeholders(en) {
            problems.push(format!("{key}: placeholders {:?} / {:?}", placeholders(zh), placeholders(en)));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// The comments of a Rust file, Chinese and English apart: the text after `//` on each line; a
/// commented-out code line (`// let x = ???;  // note`) gives only its note.
fn comments(source: &str) -> (String, String) {
    let (mut zh, mut en) = (String::new(), String::new());
    for line in source.lines() {
        let Some((_, comment)) = line.split_once("//") else { continue };
        let comment = comment.trim_start_matches(['/', '!']);
        let comment = comment.rsplit_once("  // ").map_or(comment, |(_, note)| note);
        let target = if is_chinese(comment) { &mut zh } else { &mut en };
        target.push_str(comment);
        target.push('\n');
    }
    (zh, en)
}

/// Whether a line holds Chinese.
fn is_chinese(line: &str) -> bool {
    line.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c))
}

#[test]
fn every_exercise_and_solution_comment_makes_the_same_claims_in_both_languages() {
    let files = [
        ("exercises/rmsnorm/01-weight.rs", include_str!("../../exercises/rmsnorm/01-weight.rs")),
        ("exercises/rmsnorm/02-norm.rs", include_str!("../../exercises/rmsnorm/02-norm.rs")),
        ("exercises/rmsnorm/03-forward.rs", include_str!("../../exercises/rmsnorm/03-forward.rs")),
        ("solutions/rmsnorm/01-weight.rs", include_str!("../../solutions/rmsnorm/01-weight.rs")),
        ("solutions/rmsnorm/02-norm.rs", include_str!("../../solutions/rmsnorm/02-norm.rs")),
        ("solutions/rmsnorm/03-forward.rs", include_str!("../../solutions/rmsnorm/03-forward.rs")),
    ];
    let mut problems = Vec::new();
    for (name, source) in files {
        let (zh, en) = comments(source);
        problems.extend(same_claims(name, &zh, &en));
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

// ---------------------------------------------------------------------------------------------
// The README's walk-through
// ---------------------------------------------------------------------------------------------

/// A number as `tutor check` prints it (src/render/check.rs, `number`).
fn printed(v: f64) -> String {
    if v == 0.0 {
        return "0".into();
    }
    if (1e-4..1e5).contains(&v.abs()) {
        return format!("{v:.7}").trim_end_matches('0').trim_end_matches('.').to_string();
    }
    format!("{v:.3e}")
}

#[test]
fn the_readme_walk_through_shows_the_numbers_a_check_prints() {
    // The README shows `tutor check 02-norm --seed 7` on the eps-outside-the-root mistake: the
    // same run, in process, must give the numbers it prints for its first failing case.
    let fixture = common::fixtures::MISTAKES.iter().find(|f| f.name == "eps-outside-sqrt").expect("the fixture");
    // What `tutor check 02-norm` runs: the cases of TODO 2; shown in full, the one about eps and
    // the root (see `src/render/failures.rs`).
    let report = common::panics::graded_exercise(fixture, 7, 2);
    let first = report.cases.iter().find(|c| c.id == "eps-inside-sqrt").expect("the eps case");
    assert_eq!(first.status, rmsnorm_grade::report::Status::Failed);
    let m = first.mismatch.as_ref().expect("the numbers");
    let at = |index: &[usize]| format!("({})", index.iter().map(usize::to_string).collect::<Vec<_>>().join(", "));
    let readme = include_str!("../../README.md");
    let percent = 100.0 * m.mismatched as f64 / m.total as f64;
    let lines = [
        format!("Mismatched elements: {} / {} ({percent:.1}%)", m.mismatched, m.total),
        format!(
            "Greatest absolute difference: {} at index {} (up to {} allowed)",
            printed(m.max_abs),
            at(&m.max_abs_at),
            printed(m.atol)
        ),
        format!(
            "Greatest relative difference: {} at index {} (up to {} allowed)",
            printed(m.max_rel),
            at(&m.max_rel_at),
            printed(m.rtol)
        ),
        format!(
            "{}/{} cases pass",
            report.cases.iter().filter(|c| c.status == rmsnorm_grade::report::Status::Passed).count(),
            report.cases.len()
        ),
    ];
    for line in lines {
        assert!(readme.contains(&line), "the README does not show {line:?}");
    }
}
