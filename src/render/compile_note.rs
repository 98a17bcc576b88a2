//! Course-specific notes under rustc's own messages, for the compile errors a beginner is likely
//! to hit: a cast to the generic element type (`v as T`), an array of the wrong element type or
//! dimension, mixing a generic element type with `f32`, a missing import, a `Vec` where an
//! ndarray array is expected. Recognised from rustc's JSON diagnostics (code, message, labels and
//! notes), never from its coloured rendering. Where the course coaches the exercise on that kind
//! of error ([`Coaching`]), its note (in the exercise's own terms) is the one shown.

use tutor_grade::{Coaching, CompileError, ImportNote};

use crate::course::CourseNotes;
use crate::runner::Diagnostic;

use super::Printer;

/// The exercise's own note on `error`, when its course has one.
fn coached(notes: &CourseNotes, error: CompileError) -> Option<Note> {
    notes.coaching.iter().find(|c| c.error == error).map(|c| Note::Coached(c))
}

/// A note the course adds to one kind of compile error.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Note {
    /// The exercise's own note on this kind of error.
    Coached(&'static Coaching),
    /// Arithmetic between the generic element type (`T`) and `f32`.
    MixedFloat {
        /// The generic parameter's name, as rustc gives it.
        generic: String,
    },
    /// A name the course uses that the file does not import.
    MissingImport {
        /// The name, e.g. `Axis`.
        name: &'static str,
        /// The line that imports it, e.g. `use ndarray::Axis;`.
        import: &'static str,
    },
    /// A `Vec` where an ndarray array is expected, or the other way round.
    VecForArray,
    /// E0605, `v as T`, where the exercise has no note of its own (every chapter gets one).
    CastToGeneric {
        /// The generic parameter's name, as rustc gives it.
        generic: String,
    },
    /// E0275 from `dot` on an `ArrayD`, whose dimension rustc cannot settle.
    DotOnArrayD,
    /// A `Result` used where its value is expected: the `?` is missing.
    ResultWithoutQuestion,
}

/// The names every course's exercises may use (ndarray and half sit under every kit), with the
/// `use` line that brings each in; a course adds its own kit's names ([`ImportNote`]).
const IMPORTS: [(&str, &str); 8] = [
    ("Array1", "use ndarray::Array1;"),
    ("Array2", "use ndarray::Array2;"),
    ("ArrayD", "use ndarray::ArrayD;"),
    ("Axis", "use ndarray::Axis;"),
    ("IxDyn", "use ndarray::IxDyn;"),
    ("Zip", "use ndarray::Zip;"),
    ("f16", "use half::f16;"),
    ("bf16", "use half::bf16;"),
];

/// The note for `diagnostic`, if it is one of the errors the course knows: the exercise's own
/// when the course coaches it on that kind of error, else the note every course shares.
pub fn note_for(diagnostic: &Diagnostic, notes: &CourseNotes) -> Option<Note> {
    match diagnostic.code.as_deref()? {
        "E0277" => mixed_arithmetic(&diagnostic.message).map(|generic| coached(notes, MIXED).unwrap_or(generic)),
        "E0605" => cast_to_generic(&diagnostic.message)
            .map(|generic| coached(notes, CompileError::CastToGeneric).unwrap_or(Note::CastToGeneric { generic })),
        // `x.dot(&w.t())` on an `ArrayD`: "overflow evaluating the requirement `&ArrayBase<_, _>: …`".
        "E0275" => quoted_types(diagnostic).iter().any(|t| t.contains("ArrayBase")).then_some(Note::DotOnArrayD),
        "E0599" => diagnostic.message.contains("found for enum `Result`").then_some(Note::ResultWithoutQuestion),
        "E0308" => {
            if result_for_value(diagnostic) {
                return Some(Note::ResultWithoutQuestion);
            }
            if let Some(generic) = mixed_types(diagnostic) {
                return Some(coached(notes, MIXED).unwrap_or(generic));
            }
            let types = quoted_types(diagnostic);
            if differ_in(&types, element_f32, element_generic) {
                return coached(notes, CompileError::ElementType);
            }
            if differ_in(&types, |t| t.contains("Dim<[usize; 1]>"), |t| t.contains("Dim<IxDynImpl>")) {
                return coached(notes, CompileError::Dimension);
            }
            vec_for_array(diagnostic)
        }
        "E0405" | "E0412" | "E0422" | "E0423" | "E0425" | "E0433" => missing_import(&diagnostic.message, notes.imports),
        _ => None,
    }
}

const MIXED: CompileError = CompileError::MixedFloat;

/// "non-primitive cast: `f32` as `T`": a cast to a generic parameter, whose name it returns.
fn cast_to_generic(message: &str) -> Option<String> {
    let names = quoted(message);
    match names.as_slice() {
        [_, target] if looks_generic(target) => Some(target.to_string()),
        _ => None,
    }
}

/// "expected `ArrayBase<…>`, found `Result<ArrayBase<…>, MlpError>`": a `Result` where the value
/// it holds is expected (not a function returning the wrong `Result`: then both are `Result`s).
fn result_for_value(diagnostic: &Diagnostic) -> bool {
    diagnostic.details.iter().any(|detail| {
        let names = quoted(detail);
        let is_result = |t: &str| t.trim_start_matches('&').starts_with("Result<");
        matches!(names.as_slice(), [expected, found] if is_result(found) && !is_result(expected))
    })
}

/// Every backquoted type rustc names in the error's message, labels and notes.
fn quoted_types(diagnostic: &Diagnostic) -> Vec<&str> {
    std::iter::once(diagnostic.message.as_str())
        .chain(diagnostic.details.iter().map(String::as_str))
        .flat_map(quoted)
        .collect()
}

/// Whether one of `types` is `a` and another `b` (the two sides of a mismatch).
fn differ_in(types: &[&str], a: impl Fn(&str) -> bool, b: impl Fn(&str) -> bool) -> bool {
    types.iter().any(|t| a(t) && !b(t)) && types.iter().any(|t| b(t) && !a(t))
}

/// An ndarray array of `f32` (`ArrayBase<OwnedRepr<f32>, …>`).
fn element_f32(ty: &str) -> bool {
    ty.contains("Repr<f32>")
}

/// An ndarray array of a generic element type (`ArrayBase<OwnedRepr<T>, …>`).
fn element_generic(ty: &str) -> bool {
    ty.split("Repr<").skip(1).any(|rest| rest.split_once('>').is_some_and(|(name, _)| looks_generic(name)))
}

/// The note in the chosen languages, one line each.
pub fn render(printer: &Printer, note: &Note) -> String {
    match note {
        Note::MixedFloat { generic } => printer.lines(|u| u.note_mixed_float, &[("generic", generic)]),
        Note::MissingImport { name, import } => {
            printer.lines(|u| u.note_missing_import, &[("name", name), ("import", import)])
        }
        Note::VecForArray => printer.lines(|u| u.note_vec_for_array, &[]),
        Note::CastToGeneric { generic } => printer.lines(|u| u.note_cast_to_generic, &[("generic", generic)]),
        Note::DotOnArrayD => printer.lines(|u| u.note_dot_on_arrayd, &[]),
        Note::ResultWithoutQuestion => printer.lines(|u| u.note_result_without_question, &[]),
        Note::Coached(coaching) => printer.per_language(|ui, language| {
            format!("{}{}", ui.course_note, super::pick(language, coaching.zh, coaching.en))
        }),
    }
}

/// "cannot divide `T` by `f32`", "cannot multiply `f32` by `T`", "cannot add `f32` to `T`" …
fn mixed_arithmetic(message: &str) -> Option<Note> {
    let rest = message.strip_prefix("cannot ")?;
    let names = quoted(rest);
    let [a, b] = names.as_slice() else { return None };
    generic_beside_f32(a, b)
}

/// "expected `f32`, found type parameter `T`" (or the other way round) in a label or note.
fn mixed_types(diagnostic: &Diagnostic) -> Option<Note> {
    diagnostic.details.iter().find_map(|detail| {
        let names = quoted(detail);
        let [a, b] = names.as_slice() else { return None };
        detail.contains("type parameter").then(|| generic_beside_f32(a, b)).flatten()
    })
}

/// A `Vec<…>` on one side of a type mismatch and an ndarray array on the other.
fn vec_for_array(diagnostic: &Diagnostic) -> Option<Note> {
    let all = diagnostic.details.join("\n");
    (all.contains("`Vec<") && all.contains("ArrayBase<")).then_some(Note::VecForArray)
}

/// "cannot find type `Array1` in this scope", "failed to resolve: use of undeclared type `Axis`" …
fn missing_import(message: &str, course: &[ImportNote]) -> Option<Note> {
    let names = quoted(message);
    let name = names.first()?;
    let course = course.iter().map(|n| (n.missing, n.import));
    IMPORTS
        .iter()
        .copied()
        .chain(course)
        .find(|(known, _)| known == name)
        .map(|(name, import)| Note::MissingImport { name, import })
}

/// `generic` when one of the two is `f32` and the other a generic parameter's name (`T`, `F` …).
fn generic_beside_f32(a: &str, b: &str) -> Option<Note> {
    let generic = match (a, b) {
        ("f32", other) | (other, "f32") => other,
        _ => return None,
    };
    looks_generic(generic).then(|| Note::MixedFloat { generic: generic.to_string() })
}

/// A generic parameter's name as beginners and the exercises write them (`T`, `F`, `T2`).
fn looks_generic(name: &str) -> bool {
    name.len() <= 3
        && name.starts_with(|c: char| c.is_ascii_uppercase())
        && name.chars().all(|c| c.is_ascii_alphanumeric())
}

/// The `backquoted` parts of rustc's text.
fn quoted(text: &str) -> Vec<&str> {
    text.split('`').skip(1).step_by(2).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn error(code: &str, message: &str, details: &[&str]) -> Diagnostic {
        Diagnostic {
            level: "error".into(),
            code: Some(code.into()),
            message: message.into(),
            details: details.iter().map(|d| d.to_string()).collect(),
            rendered: String::new(),
        }
    }

    fn none() -> CourseNotes {
        CourseNotes::default()
    }

    const CAST: Coaching = Coaching { exercise: "03", error: CompileError::CastToGeneric, zh: "转换", en: "cast" };
    const ELEMENT: Coaching =
        Coaching { exercise: "03", error: CompileError::ElementType, zh: "元素", en: "element" };
    const DIM: Coaching = Coaching { exercise: "03", error: CompileError::Dimension, zh: "维度", en: "dimension" };
    const MIX: Coaching = Coaching { exercise: "03", error: CompileError::MixedFloat, zh: "混合", en: "mixed" };

    fn coached() -> CourseNotes {
        CourseNotes { imports: &[], coaching: vec![&CAST, &ELEMENT, &DIM, &MIX] }
    }

    #[test]
    fn the_exercise_own_note_comes_for_each_kind_of_error() {
        let cast = error(
            "E0605",
            "non-primitive cast: `f32` as `T`",
            &["an `as` expression can only be used to convert between primitive types"],
        );
        assert_eq!(note_for(&cast, &coached()), Some(Note::Coached(&CAST)));
        // Without the exercise's own note, every chapter's.
        assert_eq!(note_for(&cast, &none()), Some(Note::CastToGeneric { generic: "T".into() }));
        let cast_to_usize = error("E0605", "non-primitive cast: `Foo` as `usize`", &[]);
        assert_eq!(note_for(&cast_to_usize, &coached()), None);
        let element = error(
            "E0308",
            "mismatched types",
            &[
                "expected `Result<ArrayBase<OwnedRepr<T>, Dim<IxDynImpl>>, NormError>`, found `Result<ArrayBase<OwnedRepr<f32>, Dim<IxDynImpl>>, _>`",
            ],
        );
        assert_eq!(note_for(&element, &coached()), Some(Note::Coached(&ELEMENT)));
        let dimension = error(
            "E0308",
            "mismatched types",
            &["expected `ArrayBase<OwnedRepr<f32>, Dim<[usize; 1]>>`, found `ArrayBase<OwnedRepr<f32>, Dim<IxDynImpl>>`"],
        );
        assert_eq!(note_for(&dimension, &coached()), Some(Note::Coached(&DIM)));
        let mixed = error("E0277", "cannot multiply `T` by `f32`", &[]);
        assert_eq!(note_for(&mixed, &coached()), Some(Note::Coached(&MIX)));
        assert_eq!(note_for(&mixed, &none()), Some(Note::MixedFloat { generic: "T".into() }));
    }

    #[test]
    fn recognises_the_errors_beginners_hit() {
        let mixed = Some(Note::MixedFloat { generic: "T".into() });
        assert_eq!(note_for(&error("E0277", "cannot divide `T` by `f32`", &[]), &none()), mixed);
        assert_eq!(note_for(&error("E0277", "cannot multiply `f32` by `T`", &[]), &none()), mixed);
        assert_eq!(
            note_for(&error("E0308", "mismatched types", &["expected `f32`, found type parameter `T`"]), &none()),
            mixed
        );
        assert_eq!(
            note_for(&error("E0433", "failed to resolve: use of undeclared type `Axis`", &[]), &none()),
            Some(Note::MissingImport { name: "Axis", import: "use ndarray::Axis;" })
        );
        assert_eq!(
            note_for(&error("E0412", "cannot find type `Array1` in this scope", &[]), &none()),
            Some(Note::MissingImport { name: "Array1", import: "use ndarray::Array1;" })
        );
        let vec = error(
            "E0308",
            "mismatched types",
            &["expected `ArrayBase<OwnedRepr<f32>, Dim<IxDynImpl>>`, found `Vec<f32>`"],
        );
        assert_eq!(note_for(&vec, &none()), Some(Note::VecForArray));
    }

    #[test]
    fn dot_on_an_arrayd_and_a_result_without_question_mark() {
        // As rustc 1.9x words them (seen through the built binary on `x32.dot(&w.t())`).
        let dot = error(
            "E0275",
            "overflow evaluating the requirement `&ArrayBase<_, _>: Not`",
            &["required for `&ArrayBase<OwnedRepr<f32>, Dim<IxDynImpl>>` to implement `Not`"],
        );
        assert_eq!(note_for(&dot, &none()), Some(Note::DotOnArrayD));
        assert_eq!(note_for(&error("E0275", "overflow evaluating the requirement `Foo: Bar`", &[]), &none()), None);
        let used = error(
            "E0308",
            "mismatched types",
            &["expected `&ArrayBase<OwnedRepr<T>, Dim<IxDynImpl>>`, found `&Result<ArrayBase<OwnedRepr<T>, Dim<IxDynImpl>>, MlpError>`"],
        );
        assert_eq!(note_for(&used, &none()), Some(Note::ResultWithoutQuestion));
        let method = error("E0599", "no method named `mapv` found for enum `Result` in the current scope", &[]);
        assert_eq!(note_for(&method, &none()), Some(Note::ResultWithoutQuestion));
        // A function returning the wrong Result is another matter.
        let both =
            error("E0308", "mismatched types", &["expected `Result<usize, MlpError>`, found `Result<f64, MlpError>`"]);
        assert_eq!(note_for(&both, &none()), None);
    }

    #[test]
    fn leaves_other_errors_alone() {
        assert_eq!(note_for(&error("E0277", "cannot divide `f32` by `f64`", &[]), &none()), None);
        assert_eq!(note_for(&error("E0412", "cannot find type `Foo` in this scope", &[]), &none()), None);
        assert_eq!(note_for(&error("E0308", "mismatched types", &["expected `usize`, found `f32`"]), &none()), None);
        assert_eq!(
            note_for(&Diagnostic { message: "cannot divide `T` by `f32`".into(), ..Default::default() }, &none()),
            None
        );
    }
}
