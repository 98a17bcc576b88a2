//! The server of one exercise's graded program, for the calls its cases make alone.
//!
//! A course's kit declares every call of the course once (`course_protocol!`); serving them all,
//! each generic one for four element types, makes rustc expand, check and instantiate the
//! learner's code for all of them at every check. Its grading lists which of the learner's
//! functions and methods each exercise's cases call, and in which element types (the courses'
//! `served.rs`, recorded over every learner file of the tests); the harness writes the server of
//! that exercise from the kit's declaration with those alone (constructors and field reads and
//! writes are always served), `<T>` narrowed to `<T in [f32 f16]>`. Measured on attention 04:
//! rustc on a one-line change 74 → 69 ms
//! (its forward is still served in three element types; with f32 alone it would be 57).

use crate::course::{embedded, Exercise};

/// The `main` of `exercise`'s graded program: serves the calls its course's grading lists for
/// it, or, for an exercise it does not list, every call the kit declares.
pub fn main_body(exercise: &Exercise) -> String {
    match server(exercise) {
        Some(server) => format!(
            "    tutor_kit::__tutor_subject::serve::serve(\n        {todo},\n        \
             tutor_kit::__tutor_subject::__serve! {{\n{server}        }},\n    )\n",
            todo = exercise.todo
        ),
        None => format!("    tutor_kit::graded_main!(exercise, {})\n", exercise.todo),
    }
}

/// The `__serve!` input of `exercise`'s program, if its course lists what it calls.
fn server(exercise: &Exercise) -> Option<String> {
    let course = embedded::registered(&exercise.course)?;
    let (_, pairs) = course.grading.served().iter().find(|(todo, _)| *todo == exercise.todo)?;
    let path = format!("courses/{}/kit/src/lib.rs", exercise.course);
    let kit = course.kit.iter().find(|f| f.path == path)?.contents;
    narrowed(kit, pairs)
}

/// The declaration in `kit` (a kit's `lib.rs`) with only the functions and methods of `pairs`
/// (`(tag, bits)`, see `tutor_grade::served`), as `__serve!` takes it after the kit's name and
/// the exercise module's: `[tutor_kit] [exercise] handles { … } calls { … }`. `None` when the
/// declaration cannot be read as `docs/protocol.md` writes it (one call a line).
pub fn narrowed(kit: &str, pairs: &[(u8, u8)]) -> Option<String> {
    let start = kit.find("course_protocol!")?;
    let body = &kit[start..];
    let handles = body.lines().find_map(|l| l.trim().strip_prefix("handles {"))?.trim_end_matches('}').trim();
    let calls_at = body.find("calls {")?;
    let mut text =
        format!("            [tutor_kit] [exercise]\n            handles {{ {handles} }}\n            calls {{\n");
    for line in body[calls_at + "calls {".len()..].lines().map(str::trim) {
        if line.starts_with('}') {
            break;
        }
        let Some(call) = Call::read(line) else { continue };
        let kept = match call.kind {
            Kind::Always => Some(line.to_string()),
            Kind::Served { name_end } => {
                let bits = pairs.iter().filter(|(tag, _)| *tag == call.tag).fold(0u8, |all, (_, bits)| all | bits);
                (bits != 0).then(|| narrow_elements(line, name_end, bits))
            }
        };
        if let Some(kept) = kept {
            text.push_str(&format!("                {kept}\n"));
        }
    }
    text.push_str("            }\n");
    Some(text)
}

/// One declared call, as far as serving it goes.
struct Call {
    tag: u8,
    kind: Kind,
}

enum Kind {
    /// A constructor or a field read or write: served by every program.
    Always,
    /// A function or a method, served where its exercise's cases call it; its name ends at
    /// `name_end` in the line (where `<T>` follows, for a generic one).
    Served { name_end: usize },
}

impl Call {
    /// `[#[grades(N)]] TAG => …;`, or `None` for anything else (a comment, a blank line).
    fn read(line: &str) -> Option<Call> {
        let after_attribute = match line.strip_prefix("#[grades(") {
            Some(rest) => rest.split_once(")]")?.1.trim_start(),
            None => line,
        };
        let (tag, rest) = after_attribute.split_once("=>")?;
        let tag: u8 = tag.trim().parse().ok()?;
        let rest = rest.trim_start();
        // Where a name that starts at `rest[from..]` ends, as an offset in `line`.
        let name_end = |from: &str| {
            let length = from.find(|c: char| !(c.is_alphanumeric() || c == '_')).unwrap_or(from.len());
            line.len() - from.len() + length
        };
        if let Some(name) = rest.strip_prefix("fn ") {
            return Some(Call { tag, kind: Kind::Served { name_end: name_end(name) } });
        }
        // `Type.method<T>(&self, …)` or `(&mut self, …)` is a method; `Type::ctor(…)`,
        // `Type.field -> R = get …`, `Type.name(v: V) = set …`, `Type.name() = call …` are not.
        let Some((_, name)) = rest.split_once('.').filter(|(receiver, _)| !receiver.contains(['(', ':', ' '])) else {
            return Some(Call { tag, kind: Kind::Always });
        };
        let end = name_end(name);
        let after_name = &line[end..];
        let parameters = after_name.trim_start_matches(|c| c != '(');
        let method =
            (parameters.starts_with("(&self") || parameters.starts_with("(&mut self")) && !after_name.contains(" = ");
        let kind = if method { Kind::Served { name_end: end } } else { Kind::Always };
        Some(Call { tag, kind })
    }
}

/// `line` with its `<T>` after the name narrowed to the element types of `bits`
/// (`<T in [f32 bf16]>`); a call that is not generic as it is.
fn narrow_elements(line: &str, name_end: usize, bits: u8) -> String {
    const ELEMENTS: [&str; 4] = ["f32", "f64", "f16", "bf16"];
    let after = &line[name_end..];
    let Some(generic) = after.strip_prefix('<').and_then(|g| g.split_once('>')).map(|(g, _)| g) else {
        return line.to_string();
    };
    let elements: Vec<&str> = (0..4).filter(|i| bits & (1 << i) != 0).map(|i| ELEMENTS[i]).collect();
    format!("{}<{generic} in [{}]>{}", &line[..name_end], elements.join(" "), &after[generic.len() + 2..])
}

#[cfg(test)]
mod tests {
    use super::*;

    const KIT: &str = "tutor_subject::course_protocol! {\n    crate;\n    handles { Linear, Block }\n    calls {\n        \
        #[grades(1)] 1 => fn silu<T>(x: &ndarray::ArrayD<T>) -> ndarray::ArrayD<T>;\n        \
        // a comment\n        \
        #[grades(3)] 3 => fn hidden_size(dim: usize) -> Result<usize, MlpError>;\n        \
        #[grades(2)] 4 => Linear::new(in_features: usize, seed: u64) -> Result<Self, MlpError>;\n        \
        5 => Linear.weight -> Param = get weight;\n        \
        6 => Linear.set_weight(value: ndarray::Array2<f32>) = set weight.value;\n        \
        #[grades(2)] 7 => Linear.forward<T>(&self, x: &ndarray::ArrayD<T>) -> Result<ndarray::ArrayD<T>, MlpError>;\n        \
        8 => Block.clear() = call gate.clear_grad, up.clear_grad;\n        \
        #[grades(4)] 9 => Block.backward<E>(&mut self, x: &ndarray::ArrayD<E>) -> ndarray::ArrayD<f64>;\n    }\n}\n";

    #[test]
    fn an_exercise_serves_its_calls_in_its_element_types_and_every_constructor_and_field() {
        let server = narrowed(KIT, &[(7, 0b0101), (9, 0b1000), (3, 0b1_0000)]).unwrap();
        assert!(server.contains("[tutor_kit] [exercise]\n            handles { Linear, Block }\n"), "{server}");
        let calls: Vec<&str> = server.lines().map(str::trim).filter(|l| l.contains("=>")).collect();
        assert_eq!(
            calls,
            [
                "#[grades(3)] 3 => fn hidden_size(dim: usize) -> Result<usize, MlpError>;",
                "#[grades(2)] 4 => Linear::new(in_features: usize, seed: u64) -> Result<Self, MlpError>;",
                "5 => Linear.weight -> Param = get weight;",
                "6 => Linear.set_weight(value: ndarray::Array2<f32>) = set weight.value;",
                "#[grades(2)] 7 => Linear.forward<T in [f32 f16]>(&self, x: &ndarray::ArrayD<T>) -> Result<ndarray::ArrayD<T>, MlpError>;",
                "8 => Block.clear() = call gate.clear_grad, up.clear_grad;",
                "#[grades(4)] 9 => Block.backward<E in [bf16]>(&mut self, x: &ndarray::ArrayD<E>) -> ndarray::ArrayD<f64>;",
            ]
        );
        assert!(server.trim_end().ends_with('}'), "{server}");
        assert_eq!(narrowed("no declaration here", &[]), None);
    }

    #[test]
    fn every_course_s_declaration_reads_and_every_exercise_it_lists_serves_something() {
        for course in embedded::courses() {
            let kit = course.kit.iter().find(|f| f.path.ends_with("kit/src/lib.rs")).expect("a kit").contents;
            for (todo, pairs) in course.grading.served() {
                let server = narrowed(kit, pairs).unwrap_or_else(|| panic!("{} reads", course.id));
                for (tag, _) in *pairs {
                    let line = format!(" {tag} => ");
                    assert!(server.contains(&line), "{} exercise {todo}: call {tag} served in\n{server}", course.id);
                }
            }
        }
    }
}
