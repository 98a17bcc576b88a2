//! Chapter 2's Rust traps get a course note, through the built binary (issue 32): `x.dot(&w.t())`
//! on an `ArrayD` (rustc's E0275, "consider increasing the recursion limit", a dead end), `as T`
//! (E0605) in a chapter with no coaching of its own, and a `Result` used without `?`.

use crate::common;

use common::Course;

/// `stub` of swiglu's `exercise` with `lines` written where its last TODO is.
fn broken(exercise: &str, lines: &str) -> String {
    let stub = std::fs::read_to_string(common::repo().join(format!("exercises/swiglu/{exercise}.rs"))).unwrap();
    // The last TODO: 02-linear's `forward`, after `new`.
    let todo = stub.rfind("todo!(").expect("the stub has a todo!");
    format!("{}{lines}\n        {}", &stub[..todo], &stub[todo..])
}

#[test]
fn chapter_two_traps_are_explained() {
    let course = Course::new("chapter2-traps");
    // (exercise, the wrong lines, rustc's code, what the note must say)
    let cases = [
        (
            "02-linear",
            "let x32 = x.mapv(|v| v.to_f32());\n        let _y = x32.dot(&self.weight.value.t());",
            "E0275",
            "into_dimensionality::<Ix2>()",
        ),
        ("01-silu", "let _y = x.mapv(|v| v.to_f32() as T);", "E0605", "`T::from_f32(v)`"),
        ("04-forward", "let g = self.gate.forward(x);\n        let _a = silu(&g);", "E0308", "`self.gate.forward(x)?`"),
    ];
    for (exercise, lines, code, names) in cases {
        course.write_exercise_of("swiglu", exercise, &broken(exercise, lines));
        let run = course.tutor_with(&["check", &format!("swiglu/{exercise}")], |c| {
            c.env("TUTOR_LANG", "both");
        });
        run.expect(1).shows("does not compile").shows(code).shows(names).shows("课程提示");
        assert_eq!(run.stdout.matches("Course note").count(), 1, "one note for {lines:?}:\n{}", run.stdout);
    }
}
