//! Every number the SwiGLU lessons state, computed (from the course's own oracle, fixtures and
//! mistakes where it has them); and both languages state the same numbers.

use std::collections::BTreeSet;

use half::{bf16, f16};
use swiglu_grade::cases::linear::INIT_SIZES;
use swiglu_grade::cases::{PER_OP_SHARE, ROUNDED_ONCE};
use swiglu_grade::mistakes::hidden_candidates;
use swiglu_grade::{fixtures, oracle};
use tutor_courses::swiglu as swiglu_grade;

const LESSONS: [(&str, &str); 6] = [
    ("00-overview", include_str!("../../lessons/swiglu/00-overview.md")),
    ("01-silu", include_str!("../../lessons/swiglu/01-silu.md")),
    ("02-linear", include_str!("../../lessons/swiglu/02-linear.md")),
    ("03-hidden-size", include_str!("../../lessons/swiglu/03-hidden-size.md")),
    ("04-forward", include_str!("../../lessons/swiglu/04-forward.md")),
    ("05-backward", include_str!("../../lessons/swiglu/05-backward.md")),
];

/// The lesson's text in one language, all its sections together (markers: lessons/README.md),
/// each run of whitespace as one space, so that a claim may cross a line break.
fn language(lesson: &str, wanted: &str) -> String {
    let mut keep = false;
    let mut out = String::new();
    for line in lesson.lines() {
        if let Some(marker) = line.trim().strip_prefix("<!-- tutor:").and_then(|m| m.strip_suffix("-->")) {
            keep = marker.split_whitespace().last() == Some(wanted);
        } else if keep {
            out.push_str(line);
            out.push('\n');
        }
    }
    out.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn lesson(id: &str) -> &'static str {
    LESSONS.iter().find(|(name, _)| *name == id).map(|(_, text)| *text).expect("a lesson")
}

/// Asserts that both languages of lesson `id` state `claim`.
fn states(id: &str, claim: &str) {
    for lang in ["zh", "en"] {
        assert!(language(lesson(id), lang).contains(claim), "{id} ({lang}) does not state {claim:?}");
    }
}

/// Asserts that lesson `id` states `zh` in Chinese and `en` in English.
fn states_each(id: &str, zh: &str, en: &str) {
    assert!(language(lesson(id), "zh").contains(zh), "{id} (zh) does not state {zh:?}");
    assert!(language(lesson(id), "en").contains(en), "{id} (en) does not state {en:?}");
}

fn round(v: f64, digits: i32) -> String {
    format!("{:.*}", digits as usize, v)
}

#[test]
fn the_overview_counts_parameters() {
    let hidden = oracle::hidden_size(4096, 256, None);
    let swiglu = 3 * 4096 * hidden;
    let classic = 2 * 4096 * 4 * 4096;
    let with_commas = |n: usize| {
        let digits = n.to_string();
        let mut out = String::new();
        for (i, c) in digits.chars().enumerate() {
            if i > 0 && (digits.len() - i).is_multiple_of(3) {
                out.push(',');
            }
            out.push(c);
        }
        out
    };
    states("00-overview", &hidden.to_string());
    states("00-overview", &with_commas(swiglu));
    states("00-overview", &with_commas(classic));
    states("00-overview", &format!("{}%", round(100.0 * (swiglu as f64 / classic as f64 - 1.0), 2)));
    for part in ["x + attn(norm(x))", "h + mlp(norm(h))", "down( silu(gate(x)) ⊙ up(x) )"] {
        states("00-overview", part);
    }
}

#[test]
fn silu_values_and_the_overflow() {
    let (mut lo, mut hi) = (-2.0f64, -1.0f64);
    for _ in 0..100 {
        let mid = (lo + hi) / 2.0;
        if oracle::silu_grad(mid) < 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    states("01-silu", &format!("x ≈ −{}", round(-lo, 4)));
    states("01-silu", &format!("−{}", round(-oracle::silu(lo), 4)));
    states("01-silu", &format!("silu(1) = {}", round(oracle::silu(1.0), 4)));
    states("01-silu", &format!("silu(−1) = −{}", round(-oracle::silu(-1.0), 4)));
    states("05-backward", &format!("x ≈ −{}", round(-lo, 4)));
    // e^89 overflows f32, e^88.7 does not; the naive form is NaN there.
    assert!(89f32.exp().is_infinite() && 88.7f32.exp().is_finite());
    let x = 89f32;
    assert!((x * x.exp() / (1.0 + x.exp())).is_nan());
    states("01-silu", "x = 89");
    states("01-silu", &format!("{}·10³⁸", round(f64::from(f32::MAX) / 1e38, 1)));
    states("01-silu", &format!("{}·10³⁸", round(89f64.exp() / 1e38, 1)));
    // At −100 the true value is about −3.7e−42, and the stable form gives −0 in f32.
    let at = -100f32;
    assert_eq!((at / (1.0 + (-at).exp())).to_bits(), (-0.0f32).to_bits());
    states("01-silu", &format!("−{}·10⁻⁴²", round(-oracle::silu(-100.0) / 1e-42, 1)));
    // Below about −17 the cancelling forms lose every digit in FP32 (0 from −20); the stable one does not.
    let cancelling = |x: f32| [x * (1.0 - 1.0 / (1.0 + x.exp())), x * 0.5 * (1.0 + (0.5 * x).tanh())];
    let off = |x: f32| cancelling(x).map(|y| (f64::from(y) / oracle::silu(f64::from(x)) - 1.0).abs());
    assert!(off(-16.0).iter().all(|&e| e < 0.1) && off(-18.0).iter().all(|&e| e > 0.5), "{:?}", off(-18.0));
    assert!(cancelling(-20.0).iter().all(|&y| y == 0.0) && (-20f32 / (1.0 + 20f32.exp())) < 0.0);
    states("01-silu", "−17");
    states("01-silu", "−20");
    states("01-silu", &format!("silu(−20) = −{}·10⁻⁸", round(-oracle::silu(-20.0) / 1e-8, 1)));
}

#[test]
fn linear_bounds_and_low_precision_sums() {
    states("02-linear", &format!("1/64 = {}", 1.0 / 4096f64.sqrt()));
    let stall = |add: fn(f32) -> f32| {
        let mut sum = 0.0f32;
        for _ in 0..10_000 {
            let next = add(sum);
            if next == sum {
                return sum;
            }
            sum = next;
        }
        sum
    };
    let bf16_stall = stall(|s| (bf16::from_f32(s) + bf16::ONE).to_f32());
    let f16_stall = stall(|s| (f16::from_f32(s) + f16::ONE).to_f32());
    assert_eq!((bf16_stall, f16_stall), (256.0, 2048.0));
    states("02-linear", &format!("{bf16_stall}"));
    states("02-linear", &format!("{f16_stall}"));
    let (fan_in, fan_out) = INIT_SIZES;
    states("02-linear", &format!("{} {:03}", fan_in * fan_out / 1000, fan_in * fan_out % 1000));
    let (rows, cols) = fixtures::matrix("linear.w").dim();
    states("02-linear", &format!("[{rows}, {cols}]"));
}

#[test]
fn hidden_sizes_in_the_table_and_the_mistakes() {
    for (dim, multiple_of, multiplier, hidden) in [
        (4096, 256, None, 11008),
        (5120, 256, None, 13824),
        (8192, 256, None, 22016),
        (8192, 4096, Some(1.3), 28672),
        (4096, 1024, Some(1.3), 14336),
    ] {
        assert_eq!(oracle::hidden_size(dim, multiple_of, multiplier), hidden);
        let two_thirds = 2 * 4 * dim / 3;
        let row = match multiplier {
            None => format!("| {dim} | {multiple_of} | – | {two_thirds} | {hidden} |"),
            Some(m) => format!(
                "| {dim} | {multiple_of} | {m} | {two_thirds} → {} | {hidden} |",
                (m * two_thirds as f64) as usize
            ),
        };
        states("03-hidden-size", &row);
    }
    let of =
        |dim, multiple, m, id| hidden_candidates(dim, multiple, m).into_iter().find(|(i, _, _)| *i == id).unwrap().2;
    let without = of(4096, 256, None, "hidden-no-two-thirds");
    states_each("03-hidden-size", &format!("4096 得到 {without}"), &format!("4096 gives {without}"));
    let down = of(4096, 256, None, "hidden-rounded-down");
    states_each("03-hidden-size", &format!("4096 得到 {down}"), &format!("4096 gives {down}"));
    let after = of(8192, 4096, Some(1.3), "hidden-multiplier-after-rounding");
    assert_ne!(after % 4096, 0);
    states_each("03-hidden-size", &format!("得到 {after}"), &format!("gives {after}"));
}

#[test]
fn the_block_fixture_and_the_derivative() {
    let (hidden, dim) = fixtures::matrix("block.gate").dim();
    states("04-forward", &format!("dim {dim}"));
    states("04-forward", &format!("hidden {hidden}"));
    states("04-forward", &format!("{:.0}%", 100.0 * PER_OP_SHARE));
    states("05-backward", &format!("silu′(0) = {}", oracle::silu_grad(0.0)));
    assert!((oracle::silu_grad(40.0) - 1.0).abs() < 1e-15 && oracle::silu_grad(-40.0).abs() < 1e-15);
    // Central differences at x = 0.7 with h = 1e-5 miss by about 1e-11.
    let (x, h) = (0.7, 1e-5);
    let central = (oracle::silu(x + h) - oracle::silu(x - h)) / (2.0 * h);
    let miss = ((central - oracle::silu_grad(x)) / oracle::silu_grad(x)).abs();
    assert!((3e-12..3e-11).contains(&miss), "{miss}");
    states("05-backward", "h = 10⁻⁵");
    states("05-backward", "10⁻¹¹");
    states("05-backward", "1e-12");
}

#[test]
fn the_roundings_and_the_tails() {
    states("01-silu", &format!("{:.0}%", 100.0 * ROUNDED_ONCE));
    states("02-linear", &format!("{:.0}%", 100.0 * ROUNDED_ONCE));
    // Where e^(−x) overflows: below −ln(MAX) of each type.
    let (f64_tail, f32_tail) = (f64::MAX.ln(), f64::from(f32::MAX.ln()));
    assert!((-(-f64_tail - 0.01)).exp().is_infinite() && (-(-f64_tail + 0.01)).exp().is_finite());
    assert!((f32_tail as f32 + 0.01).exp().is_infinite() && (f32_tail as f32 - 0.01).exp().is_finite());
    states("05-backward", &format!("−{}", round(f64_tail, 1)));
    states("05-backward", &format!("−{}", round(f32_tail, 1)));
    // σ′ as a quotient of exponentials is inf/inf there; through σ it stays finite.
    let x = -710.0f64;
    let e = (-x).exp();
    assert!((e / ((1.0 + e) * (1.0 + e))).is_nan());
    let s = 1.0 / (1.0 + e);
    assert!((s * (1.0 + x * (1.0 - s))).is_finite());
}

/// Every number (digits, with their decimals) in one language's sections appears in the other's.
#[test]
fn both_languages_state_the_same_numbers() {
    let numbers = |text: &str| -> BTreeSet<String> {
        let mut out = BTreeSet::new();
        let mut current = String::new();
        for c in text.chars().chain(std::iter::once(' ')) {
            if c.is_ascii_digit() || (c == '.' && !current.is_empty()) {
                current.push(c);
            } else if !current.is_empty() {
                out.insert(current.trim_end_matches('.').to_string());
                current.clear();
            }
        }
        out
    };
    for (id, text) in LESSONS {
        let (zh, en) = (numbers(&language(text, "zh")), numbers(&language(text, "en")));
        assert_eq!(zh, en, "{id}: numbers differ between zh and en");
    }
}
