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
    // x·eˣ/(1 + eˣ) in f32: +inf once x·eˣ overflows, NaN once eˣ itself does (at ln(f32::MAX)).
    let naive = |x: f32| x * x.exp() / (1.0 + x.exp());
    let first = |from: f32, found: &dyn Fn(f32) -> bool| {
        let mut x = from;
        while !found(x) {
            x = f32::from_bits(x.to_bits() + 1);
        }
        x
    };
    let inf_from = first(80.0, &|x| naive(x) == f32::INFINITY);
    let nan_from = first(80.0, &|x| naive(x).is_nan());
    assert!((nan_from - f32::MAX.ln()).abs() < 1e-4 && naive(inf_from - 0.01).is_finite());
    states("01-silu", &format!("x ≈ {}", round(f64::from(inf_from), 1)));
    states("01-silu", &format!("x ≈ {}", round(f64::from(nan_from), 2)));
    states("01-silu", &format!("{}·10³⁸", round(f64::from(f32::MAX) / 1e38, 1)));
    // At −100 the true value is about −3.7e−42, and the stable form gives −0 in f32.
    let at = -100f32;
    assert_eq!((at / (1.0 + (-at).exp())).to_bits(), (-0.0f32).to_bits());
    states("01-silu", &format!("−{}·10⁻⁴²", round(-oracle::silu(-100.0) / 1e-42, 1)));
    // The cancelling forms of σ: exactly 0 in FP32 from about −16.6 (1 − 1/(1 + eˣ)) and −18.0
    // (tanh), counting down (x rises towards them from below: the last x where σ is 0).
    let one_minus = |x: f32| 1.0 - 1.0 / (1.0 + x.exp());
    let tanh_form = |x: f32| 0.5 * (1.0 + (0.5 * x).tanh());
    let zero_until = |sigma: &dyn Fn(f32) -> f32| {
        let mut x = -30.0f32;
        while sigma(f32::from_bits(x.to_bits() - 1)) == 0.0 {
            x = f32::from_bits(x.to_bits() - 1);
        }
        x
    };
    let (one_minus_zero, tanh_zero) = (zero_until(&one_minus), zero_until(&tanh_form));
    assert!(
        one_minus(-30.0) == 0.0 && one_minus(one_minus_zero - 0.01) == 0.0 && one_minus(one_minus_zero + 0.01) > 0.0
    );
    states("01-silu", &format!("−{}", round(-f64::from(one_minus_zero), 1)));
    states("01-silu", &format!("−{}", round(-f64::from(tanh_zero), 1)));
    // The stable form at −20 is still a tiny negative number.
    assert!((-20f32 / (1.0 + 20f32.exp())) < 0.0);
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

/// Issue 32's additions to the overview: the gate's negative range, the FLOPs per token.
#[test]
fn the_gate_can_flip_signs_and_the_block_costs_six_dim_hidden() {
    let mut minimum = 0.0f64;
    for i in 0..40_000 {
        minimum = minimum.min(oracle::silu(-4.0 + f64::from(i) * 1e-4));
    }
    states("00-overview", &format!("−{}", round(-minimum, 2)));
    let (dim, hidden) = (4096, oracle::hidden_size(4096, 256, None));
    // Two FLOPs (a multiply and an add) per weight per token; three [hidden, dim] weights.
    let flops = 2 * 3 * dim * hidden;
    assert_eq!(flops, 6 * dim * hidden);
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
    states("00-overview", &with_commas(flops));
    states("00-overview", "6·dim·hidden");
}

/// PyTorch's default init against the 0.02 of Hugging Face's N(0, 0.02).
#[test]
fn the_default_init_is_narrower_than_hugging_faces() {
    let std = (1.0 / 4096f64.sqrt()) / 3f64.sqrt();
    // The standard deviation of U(−b, b) is b/√3: checked on draws too.
    let mut rng = swiglu_grade::tutor_kit::Rng::new(3);
    let draws: Vec<f64> = (0..200_000).map(|_| f64::from(rng.uniform(-1.0 / 64.0, 1.0 / 64.0))).collect();
    let measured = (draws.iter().map(|v| v * v).sum::<f64>() / draws.len() as f64).sqrt();
    assert!((measured / std - 1.0).abs() < 0.01, "{measured} against {std}");
    assert!(std < 0.02 / 2.0);
    states("02-linear", &format!("≈ {}", round(std, 4)));
    states("02-linear", "N(0, 0.02)");
}

/// The 1.3 multiplier's parameter count, and a width of 0 before rounding.
#[test]
fn the_multiplier_breaks_the_parameter_match_and_zero_stays_zero() {
    for (dim, multiple_of) in [(8192, 4096), (4096, 1024)] {
        let hidden = oracle::hidden_size(dim, multiple_of, Some(1.3));
        let above = 100.0 * ((3 * dim * hidden) as f64 / (8 * dim * dim) as f64 - 1.0);
        states("03-hidden-size", &format!("3·{dim}·{hidden}"));
        states("03-hidden-size", &format!("{above}%"));
    }
    // Without it the match holds within a few percent (7B: 0.78%, said in the overview).
    let hidden = oracle::hidden_size(4096, 256, None);
    assert!(((3 * hidden) as f64 / (8 * 4096) as f64 - 1.0).abs() < 0.01);
    // dim 1, multiplier 0.3: int(0.3·2) = 0, which stays 0, in the oracle and the kit alike.
    let dim = 1;
    assert_eq!(2 * (4 * dim) / 3, 2);
    assert_eq!((0.3f64 * 2.0) as usize, 0);
    assert_eq!(oracle::hidden_size(1, 256, Some(0.3)), 0);
    assert_eq!(swiglu_grade::tutor_kit::reference::hidden_size(1, 256, Some(0.3)).ok(), Some(0));
    states("03-hidden-size", "int(0.3·2) = 0");
    states("03-hidden-size", "`Ok(0)`");
}

/// The product of two T values in FP32 is exact for f16 always and for bf16 within FP32's normal
/// range; the fused road's distance from the op-by-op module in ulps.
#[test]
fn the_product_rounds_once_and_the_fused_road_is_ulps_away() {
    use swiglu_grade::tutor_kit::Rng;
    let mut rng = Rng::new(11);
    let exact = |a: f32, b: f32| f64::from(a * b) == f64::from(a) * f64::from(b);
    for _ in 0..200_000 {
        let (a, b) = (f16::from_bits(rng.next_u64() as u16), f16::from_bits(rng.next_u64() as u16));
        if a.is_finite() && b.is_finite() {
            assert!(exact(a.to_f32(), b.to_f32()), "{a} · {b}");
        }
        let (a, b) = (bf16::from_f32(rng.uniform(-100.0, 100.0)), bf16::from_f32(rng.uniform(-100.0, 100.0)));
        assert!(exact(a.to_f32(), b.to_f32()), "{a} · {b}");
    }
    // Outside FP32's normal range bf16 products are not exact: the caveat is real.
    let tiny = bf16::from_f32(1e-30).to_f32();
    assert!(!exact(tiny, tiny));
    states("04-forward", "11 + 11");
    states("04-forward", "8 + 8");
    states("04-forward", "24");

    let weights = ["block.gate", "block.up", "block.down"].map(fixtures::matrix);
    let mut rng = Rng::new(7);
    let x = ndarray::ArrayD::from_shape_fn(ndarray::IxDyn(&[4096, 16]), |_| bf16::from_f32(rng.uniform(-2.0, 2.0)));
    let per_op = oracle::round::<bf16>(&oracle::block(&x, &weights, true, true));
    let fused = oracle::round::<bf16>(&oracle::block(&x, &weights, false, true));
    let ulps = |a: f64, b: f64| {
        // Ordered bits: the distance in representable values, across zero too.
        let ordered = |v: f64| {
            let bits = i32::from(bf16::from_f64(v).to_bits());
            if bits & 0x8000 != 0 {
                -(bits & 0x7fff)
            } else {
                bits
            }
        };
        (ordered(a) - ordered(b)).abs()
    };
    let n = per_op.len() as f64;
    let one = per_op.iter().zip(&fused).filter(|(a, b)| ulps(**a, **b) == 1).count() as f64 / n;
    let more = per_op.iter().zip(&fused).filter(|(a, b)| ulps(**a, **b) > 1).count() as f64 / n;
    states("04-forward", &format!("{:.0}%", 100.0 * one));
    states("04-forward", &format!("{:.0}%", 100.0 * more));
    states("04-forward", "−2");
}

/// An empty batch accumulates zeros, not `None`.
#[test]
fn an_empty_batch_accumulates_zero_gradients() {
    use swiglu_grade::tutor_kit::{reference, Param};
    let [gate, up, down] = ["block.gate", "block.up", "block.down"].map(fixtures::matrix);
    let (mut gate, mut up, mut down) = (Param::trainable(gate), Param::trainable(up), Param::trainable(down));
    let x = ndarray::ArrayD::<f32>::zeros(ndarray::IxDyn(&[0, 16]));
    let dx = reference::backward(&x, &x, &mut gate, &mut up, &mut down).expect("an empty batch is fine");
    assert_eq!(dx.shape(), &[0, 16]);
    for param in [&gate, &up, &down] {
        let grad = param.grad.as_ref().expect("a gradient, not None");
        assert_eq!(grad.shape(), param.value.shape());
        assert!(grad.iter().all(|&g| g == 0.0));
    }
    states_each("05-backward", "空批次（0 行）", "An empty batch (0 rows)");
    states("05-backward", "`None`");
}

/// What the lesson says of `dot` and an `ArrayD` holds: the 2-D views it names multiply, and the
/// result goes back to x's leading shape (E0275 itself is shown through the binary, in
/// tests/chapter2_traps.rs).
#[test]
fn the_two_dimensional_views_of_an_arrayd_multiply() {
    use ndarray::{Array2, ArrayD, Axis, Ix2, IxDyn};
    let x = ArrayD::from_shape_fn(IxDyn(&[2, 3, 4]), |i| (i[0] * 12 + i[1] * 4 + i[2]) as f32);
    let w = Array2::from_shape_fn((5, 4), |(j, k)| (j + k) as f32);
    let rows = x.to_shape((6, 4)).unwrap().dot(&w.t());
    let back = rows.into_shape_with_order(IxDyn(&[2, 3, 5])).unwrap();
    for (lane, out) in x.lanes(Axis(2)).into_iter().zip(back.lanes(Axis(2))) {
        assert_eq!(w.dot(&lane), out);
    }
    let two = x.index_axis(Axis(0), 0).to_owned().into_dyn();
    assert!(two.view().into_dimensionality::<Ix2>().is_ok() && x.view().into_dimensionality::<Ix2>().is_err());
    states("02-linear", "E0275");
    states("02-linear", "`x.lanes(Axis(x.ndim() - 1))`");
    states("02-linear", "`x.view().into_dimensionality::<Ix2>()`");
}

/// Issue 33's edges of the width rule: the multiplier in f32 at dim 34, and the round-up that
/// underflows at 0; each a candidate the grader computes.
#[test]
fn the_multiplier_in_f32_loses_one_at_dim_34() {
    let h = 2 * (4 * 34) / 3;
    assert_eq!(h, 90);
    assert_eq!((1.3f64 * h as f64) as usize, 117);
    assert_eq!((1.3f32 * h as f32) as usize, 116);
    assert_eq!(format!("{:.8}", 1.3f32), "1.29999995");
    assert_eq!(oracle::hidden_size(34, 1, Some(1.3)), 117);
    let f32_candidate = hidden_candidates(34, 1, Some(1.3)).into_iter().find(|c| c.0 == "hidden-multiplier-in-f32");
    assert_eq!(f32_candidate.map(|c| c.2), Some(116));
    for claim in ["1.3·90", "117", "116", "1.29999995", "((h − 1)/m + 1)·m", "`div_ceil`"] {
        states("03-hidden-size", claim);
    }
}

/// silu′'s negative tail, graded relatively: how far the cancelling forms of σ are off there,
/// and the complex-step derivative, which no check of values tells from the analytic one.
#[test]
fn the_tail_of_silu_grad_and_the_complex_step() {
    let through = |x: f64, s: f64| s * (1.0 + x * (1.0 - s));
    let tanh_error = |x: f64| {
        let wrong = through(x, 0.5 * (1.0 + (0.5 * x).tanh()));
        ((wrong - oracle::silu_grad(x)) / oracle::silu_grad(x)).abs()
    };
    assert_eq!(round(tanh_error(-30.5) / 1e-4, 0), "4");
    assert_eq!(through(-37.0, 1.0 - 1.0 / (1.0 + (-37f64).exp())), 0.0);
    assert!(oracle::silu_grad(-30.5).abs() < 2e-12 && oracle::silu_grad(-300.0).abs() < 1e-127);
    for claim in ["−30.5", "−300", "1e-12", "4·10⁻⁴", "−37", "10⁻¹²⁸"] {
        states("05-backward", claim);
    }
    // Im(silu(x + ih))/h with h = 1e-20, in complex arithmetic written out: exact to rounding.
    let complex_step = |x: f64| {
        let h = 1e-20f64;
        let e = (-x).exp();
        // 1 + e^(−x−ih) = a − ib; (x + ih)/(a − ib) = (x + ih)(a + ib)/(a² + b²).
        let (a, b) = (1.0 + e * h.cos(), e * h.sin());
        (x * b + h * a) / (a * a + b * b) / h
    };
    for x in [-300.0, -37.0, -5.0, -1.0, 0.0, 0.7, 3.0, 40.0] {
        let (step, exact) = (complex_step(x), oracle::silu_grad(x));
        assert!((step - exact).abs() <= 1e-13 * exact.abs() + 1e-300, "{x}: {step} vs {exact}");
    }
    states_each("05-backward", "复步长导数", "complex-step derivative");
    states("05-backward", "10⁻²⁰");
}
