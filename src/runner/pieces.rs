//! A kit's given pieces (`courses/<course>/kit/src/reference/<piece>.rs`), and the `reference`
//! module of one exercise's graded program: the pieces the exercise is given (and those that
//! answer no TODO), compiled in from the kit's files, and in place of every other piece, functions
//! of the same signatures whose bodies say that the piece is not part of this exercise's program.
//! A piece that is absent is not compiled anywhere the program links: nothing in it can be called,
//! patched or read (see `docs/protocol.md`, "One exercise, one program").
//!
//! Each piece file's first line says which TODOs it answers or lets one compute:
//! `//! Answers: TODO 2, TODO 3.` or `//! Answers: none.`

use crate::course::embedded::EmbeddedFile;

/// The panic message of an absent piece starts with this (the grader says what it means).
pub use tutor_subject::text::KIT_ABSENT_MARKER;

/// One given piece of a kit.
#[derive(Debug, Clone, PartialEq)]
pub struct Piece {
    /// Its name: its file's stem (`backward`).
    pub name: String,
    /// Its file, relative to the harness (and the repository).
    pub path: String,
    /// The TODOs it answers or lets one compute; empty for a piece every exercise gets.
    pub answers: Vec<u32>,
    /// Its file's text.
    pub source: &'static str,
}

/// The folder of a course's pieces.
fn pieces_dir(course: &str) -> String {
    format!("courses/{course}/kit/src/reference/")
}

/// The pieces of a kit, by name; empty for a kit whose reference is one module.
pub fn of_kit(course: &str, kit: &'static [EmbeddedFile]) -> Vec<Piece> {
    let dir = pieces_dir(course);
    let mut pieces: Vec<Piece> = kit
        .iter()
        .filter_map(|file| {
            let name = file.path.strip_prefix(&dir)?.strip_suffix(".rs")?;
            (!name.contains('/') && name != "mod").then(|| Piece {
                name: name.to_string(),
                path: file.path.to_string(),
                answers: answers(file.contents).unwrap_or_default(),
                source: file.contents,
            })
        })
        .collect();
    pieces.sort_by(|a, b| a.name.cmp(&b.name));
    pieces
}

/// The TODOs a piece's first line says it answers, or `None` when it says nothing readable.
pub fn answers(source: &str) -> Option<Vec<u32>> {
    let said = source.lines().next()?.strip_prefix("//! Answers:")?.trim();
    if said.starts_with("none") {
        return Some(Vec::new());
    }
    let todos: Vec<u32> = said
        .split("TODO")
        .skip(1)
        .filter_map(|part| part.trim_start().split(|c: char| !c.is_ascii_digit()).next()?.parse().ok())
        .collect();
    (!todos.is_empty()).then_some(todos)
}

/// Whether `piece` is compiled into the program of an exercise given `given` and grading `todo`:
/// listed, or answering no TODO, and never answering `todo`.
pub fn is_given(piece: &Piece, given: &[String], todo: u32) -> bool {
    !piece.answers.contains(&todo) && (piece.answers.is_empty() || given.contains(&piece.name))
}

/// The `reference` module of exercise `exercise_id`'s given library (grading `todo`, given
/// `given`), as the text of its own file: each given piece by its path in the harness below
/// `to_harness` (relative, so that the library's source is the same in every course folder, and a
/// course folder copied or moved keeps its built libraries), each absent one as a stub.
pub fn reference_module(pieces: &[Piece], given: &[String], todo: u32, exercise_id: &str, to_harness: &str) -> String {
    let mut text =
        String::from("// The kit's given pieces for this exercise; every other piece is absent from this program.\n");
    for piece in pieces {
        if is_given(piece, given, todo) {
            let path = format!("{:?}", format!("{to_harness}{}", piece.path));
            text.push_str(&format!("#[path = {path}]\nmod {name};\npub use {name}::*;\n", name = piece.name));
        } else {
            text.push_str(&format!("mod {} {{\n", piece.name));
            text.push_str(&stub(piece, exercise_id));
            text.push_str(&format!("}}\npub use {}::*;\n", piece.name));
        }
    }
    text
}

/// The body of the given library's `__instances`: every generic public function of the given
/// pieces, instantiated for the four element types a call may name. Compiled once with the
/// library (which rustc builds with its generic instances shared), the graded program links them
/// instead of compiling its own copies at every check: measured on attention 05, rustc on a
/// one-line change 111 → 74 ms. A function whose only type parameter is not alone in its `<…>`
/// is left to the program.
pub fn instances(pieces: &[Piece], given: &[String], todo: u32) -> Vec<String> {
    const ELEMENTS: [&str; 4] = ["f32", "f64", "tutor_kit_core::half::f16", "tutor_kit_core::half::bf16"];
    let generic = |f: &PublicFunction| {
        let after_name = &f.signature["pub fn ".len() + f.name.len()..];
        let generics = after_name.strip_prefix('<').and_then(|g| g.split_once('>')).map(|(g, _)| g);
        generics.is_some_and(|g| !g.contains(',') && !g.contains('\''))
    };
    let functions = pieces.iter().filter(|p| is_given(p, given, todo)).flat_map(|p| public_functions(p.source));
    functions
        .filter(generic)
        .flat_map(|f| ELEMENTS.map(|element| format!("reference::{}::<{element}> as *const ()", f.name)))
        .collect()
}

/// An absent piece: its `use` lines, and each of its public functions with a body that says it
/// is absent. Read from its text: a `pub fn`'s signature runs to the first `{`, which rustfmt
/// writes at the end of it (no signature of a given piece holds a brace).
pub fn stub(piece: &Piece, exercise_id: &str) -> String {
    let mut text = String::new();
    for statement in top_level_uses(piece.source) {
        text.push_str(&format!("        {statement}\n"));
    }
    for function in public_functions(piece.source) {
        let message = format!("{KIT_ABSENT_MARKER} reference::{} {exercise_id}", function.name);
        text.push_str(&format!(
            "        {} {{\n            ::std::panic!({message:?})\n        }}\n",
            function.signature
        ));
    }
    text
}

/// A public function of a piece, as its text writes it.
struct PublicFunction<'a> {
    /// Its name.
    name: &'a str,
    /// From `pub fn` to the `{` that opens its body, trimmed: rustfmt writes the brace at the end
    /// of the signature, and no signature of a given piece holds one.
    signature: &'a str,
}

/// Every `pub fn` at the start of a line of `source`, in order.
fn public_functions(source: &str) -> Vec<PublicFunction<'_>> {
    let mut functions = Vec::new();
    let mut rest = source;
    while let Some(start) = find_pub_fn(rest) {
        let from = &rest[start..];
        let Some(open) = from.find('{') else { break };
        let signature = from[..open].trim_end();
        let after = &signature["pub fn ".len()..];
        let name = &after[..after.find(|c: char| !(c.is_alphanumeric() || c == '_')).unwrap_or(after.len())];
        functions.push(PublicFunction { name, signature });
        rest = &from[open..];
    }
    functions
}

/// Where the next `pub fn` at the start of a line begins.
fn find_pub_fn(text: &str) -> Option<usize> {
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        if line.starts_with("pub fn ") {
            return Some(offset);
        }
        offset += line.len();
    }
    None
}

/// The `use` statements at the top level of a file, each whole (a statement may span lines).
fn top_level_uses(source: &str) -> Vec<String> {
    let mut statements = Vec::new();
    let mut current: Option<String> = None;
    for line in source.lines() {
        match current.as_mut() {
            Some(statement) => statement.push_str(line.trim()),
            None if line.starts_with("use ") || line.starts_with("pub use ") => current = Some(line.to_string()),
            None => continue,
        }
        if line.trim_end().ends_with(';') {
            statements.extend(current.take());
        }
    }
    statements
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::course::{embedded, Catalogue};

    #[test]
    fn a_piece_says_which_todos_it_answers() {
        assert_eq!(answers("//! Answers: TODO 2, TODO 3. With …\n"), Some(vec![2, 3]));
        assert_eq!(answers("//! Answers: TODO 12.\n"), Some(vec![12]));
        assert_eq!(answers("//! Answers: none. Checks.\n"), Some(vec![]));
        assert_eq!(answers("//! The reference.\n"), None);
        assert_eq!(answers("//! Answers: everything\n"), None);
    }

    #[test]
    fn a_stub_keeps_every_public_signature_and_says_it_is_absent() {
        let source = "//! Answers: TODO 4.\n\nuse ndarray::{\n    Array1, ArrayD,\n};\n\nuse crate::Param;\n\n\
                      /// Doc.\npub fn backward<T: Float>(\n    x: &ArrayD<T>,\n    w: &mut Param,\n) -> Result<ArrayD<T>, E> {\n    \
                      let inner = { 1 };\n    todo!()\n}\n\nfn private() {}\n\npub fn other(n: usize) -> usize {\n    n\n}\n";
        let piece = Piece { name: "backward".into(), path: String::new(), answers: vec![4], source };
        let stub = stub(&piece, "02-norm");
        assert!(stub.contains("use ndarray::{Array1, ArrayD,};"), "{stub}");
        assert!(stub.contains("use crate::Param;"), "{stub}");
        assert!(
            stub.contains(
                "pub fn backward<T: Float>(\n    x: &ArrayD<T>,\n    w: &mut Param,\n) -> Result<ArrayD<T>, E> {"
            ),
            "{stub}"
        );
        assert!(stub.contains(&format!("{KIT_ABSENT_MARKER} reference::backward 02-norm")), "{stub}");
        assert!(stub.contains("pub fn other(n: usize) -> usize {"), "{stub}");
        assert!(!stub.contains("private") && !stub.contains("inner"), "{stub}");
    }

    #[test]
    fn no_exercise_is_given_a_piece_that_answers_its_todo_and_every_piece_says_what_it_answers() {
        let catalogue = Catalogue::embedded().unwrap();
        for course in embedded::courses() {
            let pieces = of_kit(course.id, course.kit);
            for piece in &pieces {
                assert!(answers(piece.source).is_some(), "{} says what it answers", piece.path);
            }
            for exercise in catalogue.exercises_of(course.id) {
                let Some(given) = &exercise.given else { continue };
                assert!(!pieces.is_empty(), "{}", exercise.id);
                let module = reference_module(&pieces, given, exercise.todo, &exercise.local, "../");
                for piece in pieces.iter().filter(|p| p.answers.contains(&exercise.todo)) {
                    assert!(!module.contains(&format!("{}.rs\"", piece.path)), "{} holds {}", exercise.id, piece.name);
                    assert!(module.contains(&format!("reference::{} {}", piece.name, exercise.local)), "{module}");
                }
            }
        }
    }
}
