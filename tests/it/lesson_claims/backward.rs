//! 04-backward: what leaving eps out of r does to a zero row and to a tiny one, computed with
//! the kit's own backward pass (at eps = 0, r has no eps), and the stub's and lesson's "for
//! eps > 0".

use super::*;

/// The tiny row the lesson names, and the eps it is taken with.
const TINY: [f32; 4] = [1e-4, -2e-4, 1e-4, 3e-4];
const EPS: f32 = 1e-6;

/// dx of one row through the kit's backward pass.
fn dx(row_values: &[f32], grad: &[f32], eps: f32) -> Vec<f32> {
    let x = row::<f32>(row_values);
    let grad_out = row::<f32>(grad);
    let mut weight = Param::trainable(ndarray::Array1::ones(row_values.len()));
    reference::backward(&x, &grad_out, eps, &mut weight).expect("valid shapes").iter().copied().collect()
}

fn norm(v: &[f32]) -> f64 {
    v.iter().map(|&a| f64::from(a) * f64::from(a)).sum::<f64>().sqrt()
}

#[test]
fn without_eps_a_zero_rows_dx_is_nan_and_with_eps_it_is_finite() {
    let zero = [0.0f32; 4];
    let grad = [0.3, -1.2, 0.8, 0.5];
    assert!(dx(&zero, &grad, 0.0).iter().all(|v| v.is_nan()), "0 · ∞: NaN, not infinite");
    for eps in rmsnorm_grade::cases::KEPT_EPS.into_iter().filter(|&e| e > 0.0) {
        assert!(dx(&zero, &grad, eps).iter().all(|v| v.is_finite()), "eps = {eps:e}");
    }
    states(BACKWARD, "lesson", "全零行的 dx 就会变成 NaN（0 · ∞）", "a zero row's dx becomes NaN (0 · ∞)");
    for language in ["zh", "en"] {
        let text = part(BACKWARD, "lesson", language);
        assert!(!text.contains("无穷大") && !text.contains("infinite"), "{language}: NaN, not infinite:\n{text}");
    }
    // The explanation, the stub and the solution say when a zero row's dx is finite.
    states(BACKWARD, "explanation", "eps > 0 时零行的 dx 有限", "for eps > 0, a zero row's dx is finite");
    for file in [
        include_str!("../../../exercises/rmsnorm/04-backward.rs"),
        include_str!("../../../solutions/rmsnorm/04-backward.rs"),
    ] {
        let file = flat(file);
        assert!(file.contains("so that, for eps > 0, a zero vector stays finite"), "{file}");
        assert!(file.contains("eps > 0 时，零向量的结果有限"), "{file}");
    }
}

#[test]
fn without_eps_a_tiny_rows_dx_is_finite_but_several_times_too_large() {
    let mean_square = TINY.iter().map(|&v| f64::from(v) * f64::from(v)).sum::<f64>() / TINY.len() as f64;
    let r_ratio = (1.0 / mean_square.sqrt()) / (1.0 / (mean_square + f64::from(EPS)).sqrt());
    let r_ratio = fixed(r_ratio, 1);
    assert_eq!(r_ratio, "5.3");
    let mut rng = Rng::new(4);
    for _ in 0..20 {
        let grad: Vec<f32> = (0..TINY.len()).map(|_| rng.normal() as f32).collect();
        let (right, wrong) = (dx(&TINY, &grad, EPS), dx(&TINY, &grad, 0.0));
        assert!(wrong.iter().all(|v| v.is_finite()), "{wrong:?}");
        let times = norm(&wrong) / norm(&right);
        assert!((2.0..10.0).contains(&times), "several times too large, not {times:.2}×: {grad:?}");
    }
    states(
        BACKWARD,
        "lesson",
        "极小值的行（比如 eps = 1e-6 时的 [1e-4, -2e-4, 1e-4, 3e-4]）的 dx 仍然有限，却大了好几倍",
        "a tiny row's (say [1e-4, -2e-4, 1e-4, 3e-4] with eps = 1e-6) stays finite but comes out several times too large",
    );
    states(
        BACKWARD,
        "lesson",
        &format!("单是 r 就大了 {r_ratio} 倍"),
        &format!("r alone is {r_ratio} times too large"),
    );
}

#[test]
fn the_kit_names_grad_out_times_gamma_h_as_lesson_04_does() {
    let kit = flat(include_str!("../../../courses/rmsnorm/kit/src/reference/backward.rs"));
    for phrase in ["`h = grad_out ⊙ γ`", "`dx = r·(h − n·mean(h ⊙ n))`"] {
        assert!(kit.contains(&flat(phrase)), "the kit's doc does not say {phrase}");
    }
    states_both(BACKWARD, "lesson", "h = g ⊙ γ");
}

/// Rows of 48 features at the scales of the f64 case, with their gradients and a weight.
fn f64_rows(seed: u64) -> (ArrayD<f64>, ArrayD<f64>, Vec<f64>) {
    let mut rng = Rng::new(seed);
    let mut x: ArrayD<f64> = rng.normal_array(&[6, 48]);
    for (mut row, scale) in x.axis_iter_mut(Axis(0)).zip([1e-2, 1.0, 1e2, 3e-2, 30.0, 0.5]) {
        row *= scale;
    }
    let g = rng.normal_array(&[6, 48]);
    let w = rng.weights(48).iter().map(|&v| f64::from(v)).collect();
    (x, g, w)
}

/// The largest error of `dx` against the f64 oracle, each row in units of its terms' scale.
fn error_in_term_units(x: &ArrayD<f64>, g: &ArrayD<f64>, w: &[f64], eps: f64, dx: &ArrayD<f64>) -> f64 {
    let (right, _) = rmsnorm_grade::oracle::backward(x, g, w, eps);
    let scales = rmsnorm_grade::oracle::term_scales(x, g, w, eps);
    let rows = dx.axis_iter(Axis(0)).zip(right.axis_iter(Axis(0))).zip(scales);
    rows.flat_map(|((a, e), s)| a.iter().zip(e.iter()).map(move |(a, e)| (a - e).abs() / s).collect::<Vec<_>>())
        .fold(0.0, f64::max)
}

#[test]
fn a_derived_f64_gradient_is_about_1e_15_off_in_fp32_1e_7_and_central_differences_1e_10_at_best() {
    const EPS: f64 = 1e-12;
    let (mut derived, mut in_fp32, mut differences) = (0.0f64, 0.0f64, f64::INFINITY);
    for seed in 1..6 {
        let (x, g, w) = f64_rows(seed);
        // The kit's backward computes in f64; the same derivation in FP32 for comparison.
        let mut weight = Param::trainable(w.iter().map(|&v| v as f32).collect());
        let dx = reference::backward(&x, &g, EPS as f32, &mut weight).expect("valid shapes");
        derived = derived.max(error_in_term_units(&x, &g, &w, EPS, &dx));
        let dx32 = reference::backward(&x.mapv(|v| v as f32), &g.mapv(|v| v as f32), EPS as f32, &mut weight)
            .expect("valid shapes");
        let (x32, g32) = (x.mapv(|v| f64::from(v as f32)), g.mapv(|v| f64::from(v as f32)));
        in_fp32 = in_fp32.max(error_in_term_units(&x32, &g32, &w, EPS, &dx32.mapv(f64::from)));
        // Central differences of an f64 forward at their best step, each row's step scaled to it.
        let loss = |x: &ArrayD<f64>| (rmsnorm_grade::oracle::forward(x, &w, EPS).0 * &g).sum();
        let best = (2..9)
            .map(|k| {
                let mut dx = ArrayD::zeros(x.raw_dim());
                for (i, slot) in dx.iter_mut().enumerate() {
                    let row = i / 48;
                    let scale = x.index_axis(Axis(0), row).iter().fold(0.0f64, |m, v| m.max(v.abs()));
                    let step = scale * 10f64.powi(-k);
                    let (mut plus, mut minus) = (x.clone(), x.clone());
                    plus.as_slice_mut().expect("standard layout")[i] += step;
                    minus.as_slice_mut().expect("standard layout")[i] -= step;
                    *slot = (loss(&plus) - loss(&minus)) / (2.0 * step);
                }
                error_in_term_units(&x, &g, &w, EPS, &dx)
            })
            .fold(f64::INFINITY, f64::min);
        differences = differences.min(best);
    }
    assert!(derived < 1e-14, "derived in f64: {derived:e}");
    assert!((1e-8..1e-6).contains(&in_fp32), "derived in FP32: {in_fp32:e}");
    assert!((1e-11..1e-9).contains(&differences), "central differences at best: {differences:e}");
    // The case's 1e-12 sits between them.
    states_both(BACKWARD, "lesson", "1e-12");
    states(BACKWARD, "lesson", "约 1e-15", "about 1e-15");
    states(BACKWARD, "lesson", "约差 1e-7", "about 1e-7 off");
    states(BACKWARD, "lesson", "最好也只到约 1e-10", "about 1e-10 at best");
}

#[test]
fn the_width_case_is_last_and_its_d_squared_is_67_million_steps() {
    // Last of all: a run whose time runs out there ends no other case.
    let last = all_cases().last().map(|c| c.id).expect("cases");
    assert_eq!(last, "backward-at-model-width");
    let width = rmsnorm_grade::cases::width::WIDTH;
    let limit = rmsnorm_grade::cases::width::CALL_LIMIT.as_secs();
    both_contain(case_title(last), &width.to_string());
    let (zh, en) = case_title(last);
    assert!(zh.contains(&format!("{limit} 秒内")) && en.contains(&format!("within {limit} s")), "{zh} / {en}");
    let steps = (width * width) as f64;
    assert_eq!(format!("{:.1}", steps / 1e7), "6.7", "D² ≈ 6.7·10⁷");
    states_both(BACKWARD, "lesson", &width.to_string());
    states_both(BACKWARD, "lesson", "6.7·10⁷");
    states(BACKWARD, "lesson", &format!("限时 {limit} 秒"), &format!("given {limit} s"));
    // A derived backward (the kit's) answers on that row.
    let x = row::<f32>(&vec![0.5; width]);
    let mut weight = Param::trainable(ndarray::Array1::ones(width));
    let dx = reference::backward(&x, &x, 1e-5, &mut weight).expect("valid shapes");
    assert!(dx.iter().all(|v| v.is_finite()));
}
