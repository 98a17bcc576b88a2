//! Each exercise's own coaching under the compile errors it is likely to meet, through the built
//! binary: the note names what that exercise has in scope and the conversion it needs.

use crate::common;

use common::Course;

/// `stub` of `exercise` with `line` written where its TODO is.
fn broken(exercise: &str, line: &str) -> String {
    let stub = Course::stub(exercise);
    let todo = stub.find("todo!(").expect("the stub has a todo!");
    format!("{}{line}\n        {}", &stub[..todo], &stub[todo..])
}

#[test]
fn each_exercise_is_coached_in_its_own_terms() {
    let course = Course::new("coaching");
    // (exercise, the wrong line, what rustc says, what the note must name, what it must not)
    let cases = [
        // 03 goes back to `T`: `as T` does not exist, `T::from_f32` does.
        ("03-forward", "let _y = x.mapv(|v| v.to_f32() as T);", "E0605", "`scaled.mapv(T::from_f32)`", "to_f32())`"),
        // 03 returns `ArrayD<T>`: the f32 result must go back to `T`.
        ("03-forward", "return Ok(self.norm(x)?);", "E0308", "`scaled.mapv(T::from_f32)`", "x32"),
        // 03 mixes `T` and f32: compute in f32, then `T::from_f32`.
        ("03-forward", "let _y = x.mapv(|v| v * 2.0f32);", "E0308", "`T::from_f32`", "x32"),
        // 04's weight gradient is one-dimensional.
        (
            "04-backward",
            "let _g: Array1<f32> = x.mapv(|v| v.to_f32());",
            "E0308",
            "`Array1::<f64>::zeros(self.weight.len())`",
            "hidden_size",
        ),
        // 04 goes back to `T` at the end.
        ("04-backward", "let _y = x.mapv(|v| v.to_f32() as T);", "E0605", "`dx.mapv(T::from_f64)`", "scaled"),
        // E0277, `f32 * T`: 04 converts both ways, 02 only into f32.
        ("04-backward", "let _y = x.mapv(|v| 2.0f32 * v);", "E0277", "`dx.mapv(T::from_f64)`", "hidden_size"),
        ("02-norm", "let _y = x.mapv(|v| 2.0f32 * v);", "E0277", "`let x32 = x.mapv(|v| v.to_f32());`", "from_f32"),
        // 02 goes into f32 and stays there.
        ("02-norm", "let _y: ArrayD<T> = x.mapv(|v| v.to_f32());", "E0308", "the result stays in f32", "from_f32"),
        // 01 has no `x`: its note speaks of `hidden_size`.
        (
            "01-weight",
            "let _w = Param::trainable(ArrayD::<f32>::ones(ndarray::IxDyn(&[hidden_size])));",
            "E0308",
            "`Array1::ones(hidden_size)`",
            "`x",
        ),
    ];
    for (exercise, line, code, names, not) in cases {
        course.write_exercise(exercise, &broken(exercise, line));
        let run = course.tutor_with(&["check", exercise], |c| {
            c.env("TUTOR_LANG", "both");
        });
        run.expect(1).shows("does not compile").shows(code).shows(names).shows("课程提示");
        let note = run.stdout.split("Course note").nth(1).unwrap_or_default();
        let note = note.split("\n\n").next().unwrap_or_default();
        assert!(!note.is_empty(), "{exercise}: no note for {line:?}:\n{}", run.stdout);
        assert!(!note.contains(not), "{exercise}: the note names {not:?}, not in scope or the wrong way:\n{note}");
        assert_eq!(run.stdout.matches("Course note").count(), 1, "one note for {line:?}:\n{}", run.stdout);
    }
}
