//! The checks of `dev check` that read files and grading data only (no build): the catalogue,
//! the lessons, the hints, the known mistakes, the case titles, and TODO(author) markers. Each
//! returns the problems it finds, naming the file and the reason.

use crate::course::lesson::{Language, Lesson, Part};
use crate::render::Printer;
use crate::runner::pieces;

use super::content::Course;
use super::{leak, Problem};

/// The marker `dev new` leaves where the author must write.
pub const AUTHOR_MARKER: &str = "TODO(author)";

/// Hints an exercise lesson must have at least.
pub const MIN_HINTS: u32 = 3;

/// The terminal widths a lesson, and a hint, must fit (what `tests/it/widths.rs` checks through
/// the binary): prose is wrapped to them, code blocks are not.
pub const LESSON_COLUMNS: usize = 80;
pub const HINT_COLUMNS: usize = 60;

/// The catalogue names files that exist, its TODO numbers run 1..n, and every stub holds its
/// `TODO n`.
pub fn catalogue(printer: &Printer, course: &Course) -> Vec<Problem> {
    let mut problems = Vec::new();
    let info = &course.info_path;
    if course.exercises().next().is_none() {
        problems.push(Problem::new(info, printer.inline(|u| u.dev_catalogue_empty, &[])));
    }
    let missing = |field: &str, path: &str, id: &str| {
        Problem::new(
            info,
            printer.inline(|u| u.dev_names_missing_file, &[("field", &field), ("path", &path), ("id", &id)]),
        )
    };
    if course.text(course.overview()).is_none() {
        problems.push(missing("overview", course.overview(), "[course]"));
    }
    for (index, exercise) in course.exercises().enumerate() {
        let expected = index + 1;
        if exercise.todo as usize != expected {
            let values: [(&str, &dyn std::fmt::Display); 3] =
                [("id", &exercise.local), ("todo", &exercise.todo), ("expected", &expected)];
            problems.push(Problem::new(info, printer.inline(|u| u.dev_todo_out_of_order, &values)));
        }
        for (field, path) in [("file", &exercise.file), ("solution", &exercise.solution), ("lesson", &exercise.lesson)]
        {
            if course.text(path).is_none() {
                problems.push(missing(field, path, &exercise.local));
            }
        }
        if let Some(stub) = course.text(&exercise.file) {
            if !holds_todo(stub, exercise.todo) {
                let reason = printer.inline(|u| u.dev_stub_lacks_marker, &[("todo", &exercise.todo)]);
                problems.push(Problem::new(&exercise.file, reason));
            }
        }
    }
    problems.extend(given(printer, course));
    problems
}

/// Every piece of the kit says which TODOs it answers, and every exercise's `given` names pieces
/// that exist and never one that answers its own TODO (see `docs/protocol.md`).
fn given(printer: &Printer, course: &Course) -> Vec<Problem> {
    let mut problems = Vec::new();
    let Some(registered) = crate::course::embedded::registered(&course.id) else { return problems };
    let pieces = pieces::of_kit(&course.id, registered.kit);
    for piece in pieces.iter().filter(|p| pieces::answers(p.source).is_none()) {
        problems.push(Problem::new(&piece.path, printer.inline(|u| u.dev_piece_unlabelled, &[("path", &piece.path)])));
    }
    for exercise in course.exercises() {
        for name in exercise.given.iter().flatten() {
            let values: [(&str, &dyn std::fmt::Display); 4] =
                [("id", &exercise.local), ("piece", name), ("course", &course.id), ("todo", &exercise.todo)];
            match pieces.iter().find(|p| &p.name == name) {
                None => {
                    problems.push(Problem::new(&course.info_path, printer.inline(|u| u.dev_given_unknown, &values)))
                }
                Some(piece) if piece.answers.contains(&exercise.todo) => {
                    problems
                        .push(Problem::new(&course.info_path, printer.inline(|u| u.dev_given_answers_todo, &values)));
                }
                Some(_) => {}
            }
        }
    }
    problems
}

/// Whether `text` holds `TODO n` (and not just `TODO n0`).
pub fn holds_todo(text: &str, todo: u32) -> bool {
    let marker = format!("TODO {todo}");
    text.match_indices(&marker).any(|(at, _)| !text[at + marker.len()..].starts_with(|c: char| c.is_ascii_digit()))
}

/// Every lesson parses, with every section in both languages, each `zh` section in Chinese: the
/// overview has the lesson part only; an exercise's lesson has the lesson, at least
/// [`MIN_HINTS`] hints and an explanation.
pub fn lessons(printer: &Printer, course: &Course) -> Vec<Problem> {
    let mut problems = Vec::new();
    let describe = |path: &str, error: &crate::course::lesson::LessonError| {
        let reason = printer.languages().iter().map(|&l| error.describe(l)).collect::<Vec<_>>().join(" / ");
        Problem::new(path, reason)
    };
    let overview = course.overview();
    if let Some(text) = course.text(overview) {
        match Lesson::parse(text).and_then(|lesson| lesson.validate(false, 0).map(|()| lesson)) {
            Err(error) => problems.push(describe(overview, &error)),
            Ok(lesson) => {
                problems.extend(not_chinese(printer, overview, &lesson));
                problems.extend(code_too_wide(printer, overview, &lesson));
                let extra = (1..=lesson.hint_count()).map(Part::Hint).chain([Part::Explanation]);
                let extra = extra.flat_map(|part| Language::BOTH.map(|l| (part, l)));
                if let Some((part, language)) = extra.into_iter().find(|(p, l)| lesson.text(*p, *l).is_some()) {
                    let section = part.marker(language);
                    problems.push(Problem::new(
                        overview,
                        printer.inline(|u| u.dev_overview_extra, &[("section", &section)]),
                    ));
                }
            }
        }
    }
    for exercise in course.exercises() {
        let Some(text) = course.text(&exercise.lesson) else { continue };
        match Lesson::parse(text).and_then(|lesson| lesson.validate(true, MIN_HINTS).map(|()| lesson)) {
            Err(error) => problems.push(describe(&exercise.lesson, &error)),
            Ok(lesson) => {
                problems.extend(not_chinese(printer, &exercise.lesson, &lesson));
                problems.extend(code_too_wide(printer, &exercise.lesson, &lesson));
            }
        }
    }
    problems
}

/// A problem for every code block line of `lesson` (at `path`) too wide to fit the terminal it
/// is read on: [`LESSON_COLUMNS`], or [`HINT_COLUMNS`] in a hint (code is shown as written).
fn code_too_wide(printer: &Printer, path: &str, lesson: &Lesson) -> Vec<Problem> {
    let parts = [Part::Lesson].into_iter().chain((1..=lesson.hint_count()).map(Part::Hint)).chain([Part::Explanation]);
    let mut problems = Vec::new();
    for part in parts {
        let columns = if matches!(part, Part::Hint(_)) { HINT_COLUMNS } else { LESSON_COLUMNS };
        let max = crate::render::markdown::code_fits(columns);
        for language in Language::BOTH {
            let Some(text) = lesson.text(part, language) else { continue };
            for (width, line) in crate::render::markdown::code_lines(text).into_iter().filter(|(w, _)| *w > max) {
                let section = part.marker(language);
                let values: [(&str, &dyn std::fmt::Display); 4] =
                    [("section", &section), ("width", &width), ("max", &max), ("line", &line.trim())];
                problems.push(Problem::new(path, printer.inline(|u| u.dev_code_too_wide, &values)));
            }
        }
    }
    problems
}

/// A problem for every `zh` section of `lesson` (at `path`) with no Chinese character in it: an
/// English text under a `zh` marker is a translation still to write.
fn not_chinese(printer: &Printer, path: &str, lesson: &Lesson) -> Vec<Problem> {
    let parts = [Part::Lesson].into_iter().chain((1..=lesson.hint_count()).map(Part::Hint)).chain([Part::Explanation]);
    parts
        .filter(|&part| lesson.text(part, Language::Zh).is_some_and(|text| !text.chars().any(is_chinese)))
        .map(|part| {
            let section = part.marker(Language::Zh);
            Problem::new(path, printer.inline(|u| u.dev_section_not_chinese, &[("section", &section)]))
        })
        .collect()
}

/// No hint, in either language, holds a line of code the solution adds to its stub (see
/// [`leak::written_lines`]), whitespace aside.
pub fn hints(printer: &Printer, course: &Course) -> Vec<Problem> {
    let mut problems = Vec::new();
    for exercise in course.exercises() {
        let (Some(stub), Some(solution), Some(text)) =
            (course.text(&exercise.file), course.text(&exercise.solution), course.text(&exercise.lesson))
        else {
            continue;
        };
        let Ok(lesson) = Lesson::parse(text) else { continue };
        let written = leak::written_lines(stub, solution);
        for level in 1..=lesson.hint_count() {
            for language in Language::BOTH {
                let Some(hint) = lesson.text(Part::Hint(level), language) else { continue };
                if let Some(line) = leak::leaked(hint, &written) {
                    let section = Part::Hint(level).marker(language);
                    let values: [(&str, &dyn std::fmt::Display); 3] =
                        [("section", &section), ("code", &line), ("solution", &exercise.solution)];
                    problems.push(Problem::new(&exercise.lesson, printer.inline(|u| u.dev_hint_gives_away, &values)));
                }
            }
        }
    }
    problems
}

/// Every known mistake of the grading code points at an exercise of the catalogue and at a
/// hint level its lesson has. A problem is the grading code's, where the mistake is declared.
pub fn mistakes(printer: &Printer, course: &Course) -> Vec<Problem> {
    let mut problems = Vec::new();
    for mistake in course.grading.mistakes() {
        let Some(exercise) = course.exercises().find(|e| e.local == mistake.exercise) else {
            let values: [(&str, &dyn std::fmt::Display); 2] =
                [("mistake", &mistake.id), ("exercise", &mistake.exercise)];
            problems.push(Problem::new(course.grading_dir(), printer.inline(|u| u.dev_mistake_no_exercise, &values)));
            continue;
        };
        let Some(Ok(lesson)) = course.text(&exercise.lesson).map(Lesson::parse) else { continue };
        let count = lesson.hint_count();
        if mistake.hint == 0 || mistake.hint > count {
            let values: [(&str, &dyn std::fmt::Display); 5] = [
                ("mistake", &mistake.id),
                ("level", &mistake.hint),
                ("exercise", &exercise.local),
                ("lesson", &exercise.lesson),
                ("count", &count),
            ];
            // The mistake is declared in the grading code: that is where it is fixed (or the lesson
            // gains the hint, which the reason names).
            problems.push(Problem::new(course.grading_dir(), printer.inline(|u| u.dev_mistake_no_hint, &values)));
        }
    }
    problems
}

/// Every case and every known mistake has a title in both languages, the Chinese one in
/// Chinese (not the English copied), and none still says TODO(author).
pub fn titles(printer: &Printer, course: &Course) -> Vec<Problem> {
    let file = course.grading_dir();
    let cases = course.grading.case_titles();
    let mut problems = Vec::new();
    if cases.is_empty() {
        problems.push(Problem::new(&file, printer.inline(|u| u.dev_no_cases, &[])));
    }
    let titled =
        cases.iter().map(|c| (c.id, c.zh, c.en)).chain(course.grading.mistakes().iter().map(|m| (m.id, m.zh, m.en)));
    for (id, zh, en) in titled {
        for (language, title) in [("zh", zh), ("en", en)] {
            if title.trim().is_empty() {
                let values: [(&str, &dyn std::fmt::Display); 2] = [("id", &id), ("language", &language)];
                problems.push(Problem::new(&file, printer.inline(|u| u.dev_untitled, &values)));
            }
        }
        if !zh.trim().is_empty() && !zh.chars().any(is_chinese) {
            let values: [(&str, &dyn std::fmt::Display); 2] = [("id", &id), ("title", &zh)];
            problems.push(Problem::new(&file, printer.inline(|u| u.dev_title_not_chinese, &values)));
        }
        if zh.contains(AUTHOR_MARKER) || en.contains(AUTHOR_MARKER) {
            problems.push(Problem::new(&file, printer.inline(|u| u.dev_author_marker_in_title, &[("id", &id)])));
        }
    }
    problems
}

/// A CJK ideograph.
fn is_chinese(c: char) -> bool {
    matches!(c as u32, 0x3400..=0x4DBF | 0x4E00..=0x9FFF | 0xF900..=0xFAFF | 0x20000..=0x3134F)
}

/// No file the author writes still holds a TODO(author) marker.
pub fn author_markers(printer: &Printer, files: &[(String, String)]) -> Vec<Problem> {
    files
        .iter()
        .filter_map(|(path, text)| {
            let lines: Vec<usize> =
                text.lines().enumerate().filter(|(_, l)| l.contains(AUTHOR_MARKER)).map(|(i, _)| i + 1).collect();
            let first = lines.first()?;
            let values: [(&str, &dyn std::fmt::Display); 2] = [("n", &lines.len()), ("line", first)];
            Some(Problem::new(path, printer.inline(|u| u.dev_author_marker, &values)))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_todo_number_is_found_whole() {
        assert!(holds_todo("// TODO 1: write it\ntodo!(\"TODO 1 is not done yet\")", 1));
        assert!(!holds_todo("// TODO 10: later", 1));
        assert!(holds_todo("// TODO 10 and TODO 1", 1));
        assert!(!holds_todo("// TODO: later", 1));
    }

    #[test]
    fn chinese_is_recognised() {
        assert!("缩放".chars().any(is_chinese));
        assert!(!"scale (zh)".chars().any(is_chinese));
    }

    #[test]
    fn markers_are_counted_per_file() {
        let printer = Printer::new(crate::text::LangChoice::En, true);
        let files = vec![
            ("a.md".to_string(), "ok\nTODO(author): x\nTODO(author): y\n".to_string()),
            ("b.md".to_string(), "done".to_string()),
        ];
        let problems = author_markers(&printer, &files);
        assert_eq!(problems.len(), 1);
        assert_eq!(problems[0].file, "a.md");
        assert!(
            problems[0].reason.contains("2 TODO(author) marker(s) left, the first on line 2"),
            "{}",
            problems[0].reason
        );
    }
}
