//! Course-specific notes under rustc's own messages, for the compile errors a beginner is likely
//! to hit in this course: mixing a generic element type with `f32`, a missing import, a `Vec`
//! where an ndarray array is expected. Recognised from rustc's JSON diagnostics (code, message,
//! labels and notes), never from its coloured rendering.

use tutor_grade::ImportNote;

use crate::runner::Diagnostic;

use super::Printer;

/// A note the course adds to one kind of compile error.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Note {
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
}

/// The names the exercises use, with the `use` line that brings each in.
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

/// The note for `diagnostic`, if it is one of the errors the course knows.
pub fn note_for(diagnostic: &Diagnostic, course: &[ImportNote]) -> Option<Note> {
    match diagnostic.code.as_deref()? {
        "E0277" => mixed_arithmetic(&diagnostic.message),
        "E0308" => mixed_types(diagnostic).or_else(|| vec_for_array(diagnostic)),
        "E0405" | "E0412" | "E0422" | "E0423" | "E0425" | "E0433" => missing_import(&diagnostic.message, course),
        _ => None,
    }
}

/// The note in the chosen languages, one line each.
pub fn render(printer: &Printer, note: &Note) -> String {
    match note {
        Note::MixedFloat { generic } => printer.lines(|u| u.note_mixed_float, &[("generic", generic)]),
        Note::MissingImport { name, import } => {
            printer.lines(|u| u.note_missing_import, &[("name", name), ("import", import)])
        }
        Note::VecForArray => printer.lines(|u| u.note_vec_for_array, &[]),
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
    let looks_generic = generic.len() <= 3
        && generic.starts_with(|c: char| c.is_ascii_uppercase())
        && generic.chars().all(|c| c.is_ascii_alphanumeric());
    looks_generic.then(|| Note::MixedFloat { generic: generic.to_string() })
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

    #[test]
    fn recognises_the_errors_beginners_hit() {
        let mixed = Some(Note::MixedFloat { generic: "T".into() });
        assert_eq!(note_for(&error("E0277", "cannot divide `T` by `f32`", &[]), &[]), mixed);
        assert_eq!(note_for(&error("E0277", "cannot multiply `f32` by `T`", &[]), &[]), mixed);
        assert_eq!(
            note_for(&error("E0308", "mismatched types", &["expected `f32`, found type parameter `T`"]), &[]),
            mixed
        );
        assert_eq!(
            note_for(&error("E0433", "failed to resolve: use of undeclared type `Axis`", &[]), &[]),
            Some(Note::MissingImport { name: "Axis", import: "use ndarray::Axis;" })
        );
        assert_eq!(
            note_for(&error("E0412", "cannot find type `Array1` in this scope", &[]), &[]),
            Some(Note::MissingImport { name: "Array1", import: "use ndarray::Array1;" })
        );
        let vec = error(
            "E0308",
            "mismatched types",
            &["expected `ArrayBase<OwnedRepr<f32>, Dim<IxDynImpl>>`, found `Vec<f32>`"],
        );
        assert_eq!(note_for(&vec, &[]), Some(Note::VecForArray));
    }

    #[test]
    fn leaves_other_errors_alone() {
        assert_eq!(note_for(&error("E0277", "cannot divide `f32` by `f64`", &[]), &[]), None);
        assert_eq!(note_for(&error("E0412", "cannot find type `Foo` in this scope", &[]), &[]), None);
        assert_eq!(note_for(&error("E0308", "mismatched types", &["expected `usize`, found `f32`"]), &[]), None);
        assert_eq!(
            note_for(&Diagnostic { message: "cannot divide `T` by `f32`".into(), ..Default::default() }, &[]),
            None
        );
    }
}
