//! Wrong-shaped answers in chapter 2, through the built binary: whatever shape a learner's
//! `silu` returns (one element, a 0-d array, flattened, transposed), the check ends in a verdict
//! (exit 1, the shape named), never a crash of the trusted side. RMSNorm's answers of any shape
//! are fed through every case by `courses/rmsnorm/grade/tests/it/every_answer_gets_a_verdict.rs`.

use crate::common;

use common::Course;

/// The SwiGLU solution of 01 with `silu`'s body replaced by `body`.
fn silu_returning(body: &str) -> String {
    let solution = std::fs::read_to_string(common::repo().join("solutions/swiglu/01-silu.rs")).unwrap();
    let head = "pub fn silu<T: Float>(x: &ArrayD<T>) -> ArrayD<T> {";
    let start = solution.find(head).expect("the solution defines silu");
    let end = start + solution[start..].find("\n}\n").expect("silu ends") + 3;
    format!("{}{head}\n    let _ = x;\n    {body}\n}}\n{}", &solution[..start], &solution[end..])
}

#[test]
fn a_silu_of_any_shape_gets_a_verdict() {
    let course = Course::new("wrong-shapes");
    // The shape named where every case's input has another; flattened or transposed, some
    // inputs keep their shape and the values are compared instead.
    for (body, named) in [
        ("ArrayD::from_elem(ndarray::IxDyn(&[1]), T::from_f32(0.5))", true),
        ("ArrayD::from_elem(ndarray::IxDyn(&[]), T::from_f32(0.5))", true),
        ("x.iter().copied().collect::<ndarray::Array1<T>>().into_dyn()", false),
        ("x.t().to_owned()", false),
    ] {
        course.write_exercise_of("swiglu", "01-silu", &silu_returning(body));
        let run = course.tutor(&["check", "swiglu/01"]);
        run.expect(1).shows("cases pass").hides("internal error");
        if named {
            run.shows("has shape");
        }
    }
}
