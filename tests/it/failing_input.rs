//! Show the failing input (issue 32, point 4), through the built binary, in both languages: the
//! call a panic happened in with its arguments' shapes (a `grad_out` of another shape than x's
//! among them), the x that gave a NaN (an element for SiLU, a row for RMSNorm and softmax), and
//! an f64 written with its point (`Some(0.0)`, not `Some(0)`).

use crate::common;

use common::{Course, Run};

fn solution_of(course: &str, id: &str) -> String {
    std::fs::read_to_string(common::repo().join(format!("solutions/{course}/{id}.rs"))).unwrap()
}

/// `text` with `from` replaced by `to`, which must be there.
#[track_caller]
fn edited(text: &str, from: &str, to: &str) -> String {
    assert!(text.contains(from), "{from:?} is not in the solution any more");
    text.replace(from, to)
}

/// `tutor check EXERCISE --seed 3` in Chinese and in English.
fn check_in_both(course: &Course, exercise: &str) -> (Run, Run) {
    let in_language = |language: &'static str| {
        course.tutor_with(&["check", exercise, "--seed", "3"], |c| {
            c.env("TUTOR_LANG", language);
        })
    };
    (in_language("zh"), in_language("en"))
}

#[test]
fn a_panic_names_its_call_and_the_shapes_it_was_given() {
    let course = Course::new("failing-input-panic");
    let forward = std::fs::read_to_string(common::repo().join("tests/hostile/rmsnorm/panic-in-forward.rs")).unwrap();
    course.write_exercise("03-forward", &forward);
    let (zh, en) = check_in_both(&course, "03-forward");
    en.expect(1).shows("your code panicked: boom in forward").shows("in the call RMSNorm::forward(x: f32 [");
    zh.expect(1).shows("代码 panic：boom in forward").shows("出错的调用：RMSNorm::forward(x: f32 [");

    // A backward that zips x with grad_out panics on a grad_out of another shape: the report
    // says which shapes it was given.
    let zipping = edited(
        &Course::solution("04-backward"),
        "if x.shape() != grad_out.shape() {",
        "let _paired = ndarray::Zip::from(x).and(grad_out).fold(0.0, |s, a, b| s + a.to_f64() * b.to_f64());\n        if false {",
    );
    course.write_exercise("04-backward", &zipping);
    let (zh, en) = check_in_both(&course, "04-backward");
    let call = "RMSNorm::backward(x: f32 [2, 3, 4], grad_out: f32 [3, 2, 4])";
    en.expect(1).shows(&format!("in the call {call}"));
    zh.expect(1).shows(&format!("出错的调用：{call}"));
}

#[test]
fn the_x_that_gave_a_nan_is_shown() {
    let course = Course::new("failing-input-nan");
    // x·eˣ/(1+eˣ): NaN once eˣ overflows (x ≳ 88.7 in FP32): shown with the x there.
    let silu = edited(
        &solution_of("swiglu", "01-silu"),
        "T::from_f32(x32 / (1.0 + (-x32).exp()))",
        "T::from_f32(x32 * x32.exp() / (1.0 + x32.exp()))",
    );
    course.write_exercise_of("swiglu", "01-silu", &silu);
    let (zh, en) = check_in_both(&course, "swiglu/01-silu");
    en.expect(1).shows("First nan where the reference is a number: index (").shows("), from x[");
    zh.expect(1).shows("第一个参考值是数、结果却是 nan 的位置：索引 (").shows("来自 x[");
    let from = en.stdout.split("), from x[").nth(1).expect("the x");
    let x: f64 = from.split(" = ").nth(1).and_then(|v| v.split_whitespace().next()).unwrap().parse().unwrap();
    assert!(x > 88.0, "eˣ overflows FP32 only past 88.7, yet x = {x}:\n{}", en.stdout);
    // The JSON report carries it too.
    let json = course.tutor(&["check", "swiglu/01-silu", "--seed", "3", "--format", "json"]);
    let document: serde_json::Value = serde_json::from_str(&json.stdout).expect("JSON");
    let traced = document["tests"]
        .as_array()
        .into_iter()
        .flatten()
        .find_map(|test| test["mismatch"].get("non_finite"))
        .unwrap_or_else(|| panic!("no non_finite in\n{}", json.stdout));
    assert_eq!((traced["actual"].as_str(), traced["input"]["name"].as_str()), (Some("nan"), Some("x")), "{traced}");
    let value = traced["input"]["values"][0].as_f64().unwrap_or_default();
    assert!(value > 88.0, "{traced}");
    let schema: serde_json::Value =
        serde_json::from_str(include_str!("../../docs/check-report.schema.json")).expect("the schema");
    let schema = common::schema::Schema::new(schema).expect("the schema uses only what the validator knows");
    assert!(schema.is_valid(&document), "{:?}: {document}", schema.errors(&document));

    // A softmax without the maximum subtracted: a row's exp overflows; its row is shown.
    let softmax = edited(&solution_of("attention", "02-softmax"), "(v - max).exp()", "v.exp()");
    course.write_exercise_of("attention", "02-softmax", &softmax);
    let (zh, en) = check_in_both(&course, "attention/02-softmax");
    en.expect(1).shows("from the row x[").shows("values, largest |x| = ");
    zh.expect(1).shows("来自这一行 x[").shows("个值，最大 |x| = ");

    // RMSNorm without eps: a zero row is 0/0.
    let no_eps = std::fs::read_to_string(common::repo().join("tests/mistakes/rmsnorm/no-eps.rs")).unwrap();
    course.write_exercise("02-norm", &no_eps);
    let (_, en) = check_in_both(&course, "02-norm");
    en.expect(1).shows("from the row x[0, 1, :] = [0, 0] (2 values, largest |x| = 0)");
}

#[test]
fn an_f64_keeps_its_point() {
    let course = Course::new("failing-input-point");
    let accepts_zero = edited(
        &solution_of("swiglu", "03-hidden-size"),
        "if !multiplier.is_finite() || multiplier <= 0.0 {",
        "if !multiplier.is_finite() || multiplier < 0.0 {",
    );
    course.write_exercise_of("swiglu", "03-hidden-size", &accepts_zero);
    let (zh, en) = check_in_both(&course, "swiglu/03-hidden-size");
    en.expect(1).shows("hidden_size(4096, 256, Some(0.0))").hides("Some(0))");
    zh.expect(1).shows("hidden_size(4096, 256, Some(0.0))").hides("Some(0))");
}
