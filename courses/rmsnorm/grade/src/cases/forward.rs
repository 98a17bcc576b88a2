//! Exercise 03's cases (TODO 3): scale by the weight and restore the input dtype, on ordinary and
//! on edge inputs; exact ties, large values and forward's own eps in the modules below.

mod eps;
mod large;
mod ties;

use std::sync::atomic::{AtomicUsize, Ordering};

use half::{bf16, f16};
use ndarray::{Array1, ArrayD, IxDyn};
use tutor_kit::{reference, Element, Param};

use super::{assert_close, call, cases, edge_inputs, grading, weighted, Case, Failure, Outcome, Run};
use crate::evidence::{Observation, Sighting};
use crate::mistakes::{self, scale_fit, Candidate};
use crate::subject::RMSNorm;
use crate::text;
use tutor_grade::rounding::{rounded_once, rounding_text, Agreement};

/// Exercise 03's cases: scale by the weight and restore the input dtype, then ties, large values
/// and forward's own eps.
pub fn cases() -> Vec<Case> {
    let mut cases = grading(
        &[3],
        cases! { super::DTYPE_GRADIENT;
            "f32-weighted-forward",
                "f32 输入、非单位权重的 forward（以及同宽的两个层，各用各的权重）",
                "forward on f32 input with non-unit weights (and two layers of one width, each with its own)" => f32_weighted_forward;
            "f16-forward",
                "f16 输入 2×3×4：同形、同 dtype，rtol 1e-3 / atol 1e-4",
                "f16 input 2×3×4: same shape and dtype, rtol 1e-3 / atol 1e-4" => |run| seeded_forward::<f16>(run, &[2, 3, 4], 12, F16);
            "bf16-forward",
                "bf16 输入：同形、同 dtype，rtol 1.6e-2 / atol 1e-5",
                "bf16 input: same shape and dtype, rtol 1.6e-2 / atol 1e-5" => |run| seeded_forward::<bf16>(run, &[2, 3, 4], 13, BF16);
            "f16-rounds-once",
                "f16 输出只舍入一次：几乎每个值都等于正确舍入的 FP32 结果（权重可在 f16 中精确表示）",
                "f16 output rounded once: almost every value is the correctly rounded FP32 result (weights exact in f16)" => |run| rounds_once::<f16>(run, 14, F16);
            "bf16-rounds-once",
                "bf16 输出只舍入一次、就近舍入：几乎每个值都等于正确舍入的 FP32 结果（权重可在 bf16 中精确表示）",
                "bf16 output rounded once, to nearest: almost every value is the correctly rounded FP32 result (weights exact in bf16)" => |run| rounds_once::<bf16>(run, 15, BF16);
            "forward-edge-inputs",
                "forward 处理边界输入：零行、极小值、NaN 行、一维、四维、空批次，错误的最后一维返回 Err",
                "forward on edge inputs: a zero row, tiny values, a NaN row, one- and four-dimensional inputs, an empty batch; a wrong last axis is an Err" => forward_edge_inputs;
        },
    );
    cases.extend(grading(&[3], ties::cases()));
    cases.extend(grading(&[3], large::cases()));
    cases.extend(grading(&[3], eps::cases()));
    cases
}

fn f32_weighted_forward(run: &Run) -> Outcome {
    // A width no other case uses, another each time a process asks (a program graded twice in
    // one process, in tutor's own tests, keeps what it kept the first time).
    const FRESH_WIDTHS: [usize; 6] = [7, 9, 11, 13, 17, 19];
    static ASKED: AtomicUsize = AtomicUsize::new(0);
    two_layers(run, FRESH_WIDTHS[ASKED.fetch_add(1, Ordering::Relaxed) % FRESH_WIDTHS.len()], false)?;
    seeded_forward::<f32>(run, &[2, 3, 4], 11, F32)?;
    // The width of a check's first forward (weight-gets-gradient's, 3): a weight kept from that
    // call is a fresh layer's, ones, and the forward above applied its own weight.
    two_layers(run, 3, true)
}

/// Two layers of `hidden` features with their own weights, then the first again: a forward
/// follows its own layer's weight. A forward that gives, to the bit, the other layer's output (or,
/// with `ones_kept`, a fresh layer's) kept a weight from an earlier call.
fn two_layers(run: &Run, hidden: usize, ones_kept: bool) -> Outcome {
    let x: ArrayD<f32> = run.rng(13).normal_array(&[2, hidden]);
    let (first, first_weight) = weighted(run, hidden, 1e-6, 14, None)?;
    let (second, second_weight) = weighted(run, hidden, 1e-6, 15, None)?;
    let ones = Param::trainable(Array1::ones(hidden));
    let turns = [(&first, &first_weight, &second_weight), (&second, &second_weight, &first_weight)];
    for (norm, weight, other) in turns.into_iter().chain([(&first, &first_weight, &second_weight)]) {
        if let Err(failure) = forward_matches(run, norm, weight, &x, 1e-6, F32) {
            let kept_weights = if ones_kept { vec![other, &ones] } else { vec![other] };
            let earlier: Vec<_> =
                kept_weights.into_iter().filter_map(|w| reference::forward(&x, 1e-6, w).ok()).collect();
            let kept = call(&text::code("forward(x)"), norm.forward(&x)).ok().is_some_and(|y| earlier.contains(&y));
            return Err(if kept { failure.with_mistake(Some("state-kept-between-calls")) } else { failure });
        }
    }
    Ok(())
}

/// The learner's forward on `x` against the explicit FP32 reference rounded once to `T`,
/// recording what the output says about known mistakes.
pub(super) fn forward_matches<T: Element>(
    run: &Run,
    norm: &RMSNorm,
    weight: &Param,
    x: &ArrayD<T>,
    eps: f32,
    (atol, rtol): (f64, f64),
) -> Outcome {
    let (actual, expected) = forward_and_reference(norm, weight, x, eps)?;
    let (actual, expected) = (actual.mapv(T::to_f64), expected.mapv(T::to_f64));
    let rows = x.mapv(T::to_f64);
    let (case, seen, right, x, weight) = (run.case(), actual.clone(), expected.clone(), x.clone(), weight.clone());
    run.observe(move || {
        // With the statistics and weight mistakes read from forward's own numbers (`scale_fit`),
        // scoped to forward (a forward may compute what its norm gets right), but for no eps, whose
        // forward-only form is `forward-without-eps`, a candidate of its own.
        let (x64, w) = (x.mapv(T::to_f64), weight.value.mapv(f64::from).to_vec());
        let precision = if std::mem::size_of::<T>() < 4 { 1e-2 } else { 1e-6 };
        let mut fitted = scale_fit::candidates(&x64, &w, f64::from(eps), &seen, true, precision);
        fitted.extend(scale_fit::weight_candidates(&x64, &w, f64::from(eps)));
        let scoped =
            |c: &Candidate<f64>| if c.mistake == "no-eps" { c.variant } else { mistakes::in_forward(c.variant) };
        let mut candidates = mistakes::wrong_forwards(&x, eps, &weight);
        candidates.extend(fitted.into_iter().map(|c| Candidate { variant: scoped(&c), ..c.map(T::from_f64) }));
        vec![Observation::by_tolerance(case, &seen, &right, candidates, atol, rtol)]
    });
    assert_close(&text::code("forward(x)"), T::NAME, &actual, &expected, atol, rtol)
        .map_err(tutor_grade::origin::traced(tutor_grade::origin::Input::Rows("x", &rows)))?;
    if T::NAME != "float64" {
        return Ok(());
    }
    // For f64 input the FP32 product widens exactly: every value is an f32. Evidence, not a
    // direct finding: a product in T after a first rounding (double rounding) is in f64 too.
    let off = actual.iter().filter(|&&v| f64::from(v as f32) != v && !v.is_nan()).count();
    let case = run.case();
    run.observe(move || {
        let in_f64 = Sighting {
            mistake: "product-not-in-fp32",
            variant: mistakes::PRODUCT_IN_F64,
            matches: off > 0,
            wrong: true,
        };
        vec![Observation { case, learner_wrong: off > 0, sightings: vec![in_f64] }]
    });
    if off > 0 {
        return Err(Failure::new(text::product_not_in_fp32(off, actual.len())));
    }
    Ok(())
}

/// The learner's `forward(x)`, of `x`'s shape, and the reference: FP32 rounded once to `T`.
pub(super) fn forward_and_reference<T: Element>(
    norm: &RMSNorm,
    weight: &Param,
    x: &ArrayD<T>,
    eps: f32,
) -> Result<(ArrayD<T>, ArrayD<T>), Failure> {
    let actual = call(&text::code("forward(x)"), norm.forward(x))?;
    super::shape::same_as_input("forward(x)", actual.shape(), x.shape())?;
    Ok((actual, reference::forward(x, eps, weight).expect("test inputs are valid")))
}

/// Records what forward's bits say: at least `share` of them equal makes a match. Bits judge only
/// the candidates that round as a learner's program would (the fitted ones are for tolerances).
pub(super) fn observe_bits<T: Element>(
    run: &Run,
    x: &ArrayD<T>,
    eps: f32,
    weight: &Param,
    seen: &ArrayD<T>,
    share: f64,
) {
    let (case, x, weight, seen) = (run.case(), x.clone(), weight.clone(), seen.clone());
    run.observe(move || {
        let right = reference::forward(&x, eps, &weight).expect("test inputs are valid");
        vec![Observation::by_bits(case, &seen, &right, mistakes::wrong_forwards(&x, eps, &weight), share)]
    });
}

fn seeded_forward<T: Element>(run: &Run, shape: &[usize], salt: u64, tolerance: (f64, f64)) -> Outcome {
    let hidden = *shape.last().expect("test shapes have a last axis");
    let (norm, weight) = weighted(run, hidden, 1e-6, salt, None)?;
    let x: ArrayD<T> = run.rng(salt + 100).normal_array(shape);
    forward_matches(run, &norm, &weight, &x, 1e-6, tolerance)
}

/// The forward cases' tolerances, (atol, rtol), as lesson 03 states them. They are not
/// `torch.testing.assert_close`'s defaults (float32: atol 1e-5 / rtol 1.3e-6; float16: atol 1e-5
/// / rtol 1e-3): FP32 allows the few ulp another summation order gives, f16 a looser atol (the
/// tutorial's), and bf16 matches assert_close's, since one bf16 rounding alone moves a value by up
/// to 2^-8 ≈ 3.9e-3 relative.
pub(super) const F32: (f64, f64) = (1e-6, 1e-5);
pub(super) const F16: (f64, f64) = (1e-4, 1e-3);
pub(super) const BF16: (f64, f64) = (1e-5, 1.6e-2);

/// With weights exactly representable in `T`, multiplying in FP32 and rounding once lands on the
/// correctly rounded value almost everywhere (another summation order moves the FP32 value by an
/// ulp or two, which crosses a rounding boundary about once in two thousand values), whether the
/// weight was kept in FP32 or cast to `T` first (the tutorial's own TODO 3). Rounding the
/// normalised values first, or truncating, misses on a large share of the elements.
fn rounds_once<T: Element>(run: &Run, salt: u64, tolerance: (f64, f64)) -> Outcome {
    const SHAPE: [usize; 2] = [64, 64];
    const ALLOWED_SHARE: f64 = 0.01;
    let exact: fn(f32) -> f32 = |w| T::from_f32(w).to_f32();
    let (norm, weight) = weighted(run, SHAPE[1], 1e-6, salt, Some(exact))?;
    let x: ArrayD<T> = run.rng(salt + 100).normal_array(&SHAPE);
    let (actual, expected) = forward_and_reference(&norm, &weight, &x, 1e-6)?;
    observe_bits(run, &x, 1e-6, &weight, &actual, 1.0 - ALLOWED_SHARE);
    // A forward that is wrong for another reason fails as such: rounding is not its problem.
    let (atol, rtol) = tolerance;
    assert_close(&text::code("forward(x)"), T::NAME, &actual.mapv(T::to_f64), &expected.mapv(T::to_f64), atol, rtol)?;
    let unrounded = mistakes::unrounded_forward(&x, 1e-6, &weight).map(|u| u.mapv(f64::from));
    let Err((agreement, rounding)) = rounded_once(&actual, &expected, unrounded.as_ref(), ALLOWED_SHARE) else {
        return Ok(());
    };
    let Err(mut failure) =
        assert_close(&text::code("forward(x)"), T::NAME, &actual.mapv(T::to_f64), &expected.mapv(T::to_f64), 0.0, 0.0)
    else {
        return Ok(());
    };
    // Say which rounding it is, from the bits: a wrong conversion of the right FP32 values, two
    // roundings, or the whole forward in `T`; otherwise, the plain mismatch.
    let (differing, total) = (agreement.differing, agreement.total);
    let candidates = mistakes::wrong_forwards(&x, 1e-6, &weight);
    let shows = |mistake: &str| {
        let same = |c: &ArrayD<T>| c.shape() == x.shape() && Agreement::of(&actual, c).at_least(1.0 - ALLOWED_SHARE);
        candidates.iter().any(|c| c.mistake == mistake && same(&c.output))
    };
    if let Some(rounding) = rounding {
        failure.message = rounding_text(rounding, T::NAME, differing, total);
    } else if shows("double-rounding") {
        failure.message = text::rounded_twice(T::NAME, differing, total, agreement.worst_ulps.round() as i32);
    } else if shows("half-precision-statistics") {
        failure.message = text::computed_in(T::NAME, differing, total);
    }
    Err(failure)
}

fn forward_edge_inputs(run: &Run) -> Outcome {
    let (norm, weight) = weighted(run, 4, 1e-6, 18, None)?;
    for x in edge_inputs(run) {
        if let Err(failure) = forward_matches(run, &norm, &weight, &x, 1e-6, F32) {
            return Err(match without_eps(&norm, &x) {
                Some(mistake) => failure.with_mistake(Some(mistake)),
                None => failure,
            });
        }
    }
    let wrong_width = ArrayD::<f32>::zeros(IxDyn(&[2, 5]));
    tutor_grade::refused(&text::call_on_wrong_width("forward(x)", &[2, 5], 4), norm.forward(&wrong_width))
}

/// `forward-without-eps`, when a zero row's forward is NaN where the layer's own `norm` of it is
/// finite: the forward recomputed the statistics without eps (0/0), which is exact evidence.
fn without_eps(norm: &RMSNorm, x: &ArrayD<f32>) -> Option<&'static str> {
    let forward = norm.forward(x).ok()?;
    let normalized = norm.norm(x).ok()?;
    let (mut nan_in_forward, mut finite_in_norm) = (false, true);
    for ((y, n), row) in forward.rows().into_iter().zip(normalized.rows()).zip(x.rows()) {
        if row.iter().all(|&v| v == 0.0) {
            nan_in_forward |= y.iter().all(|v| v.is_nan());
            finite_in_norm &= n.iter().all(|v| v.is_finite());
        }
    }
    (nan_in_forward && finite_in_norm).then_some("forward-without-eps")
}
