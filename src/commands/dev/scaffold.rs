//! The files of a new course, from the templates in `template/` with the course's id put in for
//! `{{NAME}}`: a catalogue with one exercise, its stub and solution, the lessons, the kit crate
//! and the grading crate on the chapter layout every course has (`lib.rs`, `cases/<exercise>.rs`,
//! `mistakes.rs`, `text.rs`, `oracle.rs`; with the editor's library root, as tutor writes it).

use anyhow::{Context, Result};

use crate::course::catalogue::info_path;
use crate::course::{editor, Catalogue};

/// What stands for the course's id in the templates.
const PLACEHOLDER: &str = "{{NAME}}";

/// Each template, and where it goes (both with the placeholder).
const TEMPLATES: [(&str, &str); 14] = [
    ("exercises/{{NAME}}/info.toml", include_str!("template/info.toml.tmpl")),
    ("exercises/{{NAME}}/01-scale.rs", include_str!("template/stub.rs.tmpl")),
    ("solutions/{{NAME}}/01-scale.rs", include_str!("template/solution.rs.tmpl")),
    ("lessons/{{NAME}}/00-overview.md", include_str!("template/overview.md.tmpl")),
    ("lessons/{{NAME}}/01-scale.md", include_str!("template/lesson.md.tmpl")),
    ("courses/{{NAME}}/kit/Cargo.toml", include_str!("template/kit.Cargo.toml.tmpl")),
    ("courses/{{NAME}}/kit/src/lib.rs", include_str!("template/kit.lib.rs.tmpl")),
    ("courses/{{NAME}}/grade/Cargo.toml", include_str!("template/grade.Cargo.toml.tmpl")),
    ("courses/{{NAME}}/grade/src/lib.rs", include_str!("template/grade.lib.rs.tmpl")),
    ("courses/{{NAME}}/grade/src/cases/mod.rs", include_str!("template/grade.cases.mod.rs.tmpl")),
    ("courses/{{NAME}}/grade/src/cases/scale.rs", include_str!("template/grade.cases.scale.rs.tmpl")),
    ("courses/{{NAME}}/grade/src/mistakes.rs", include_str!("template/grade.mistakes.rs.tmpl")),
    ("courses/{{NAME}}/grade/src/oracle.rs", include_str!("template/grade.oracle.rs.tmpl")),
    ("courses/{{NAME}}/grade/src/text.rs", include_str!("template/grade.text.rs.tmpl")),
];

/// Every file of course `name`, by its path in the repository.
pub fn files(name: &str) -> Result<Vec<(String, String)>> {
    let fill = |text: &str| text.replace(PLACEHOLDER, name);
    let mut files: Vec<(String, String)> = TEMPLATES.iter().map(|(path, text)| (fill(path), fill(text))).collect();
    // The editor's library root is exactly what tutor writes (a unit test holds every course's
    // to it), so it is made the same way rather than kept as a template.
    let info = files.iter().find(|(path, _)| *path == info_path(name)).map(|(_, text)| text.as_str());
    let catalogue =
        Catalogue::from_sources([(name, info.unwrap_or_default())]).context("the catalogue template parses")?;
    files.push((format!("courses/{name}/grade/editor.rs"), editor::library_root(&catalogue, name, "../../../")));
    Ok(files)
}

/// The registration line of course `name` in `courses/Cargo.toml`.
pub fn registration(name: &str) -> String {
    format!("{name} = {{ path = \"{name}/grade\", package = \"{name}_grade\" }}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::course::lesson::Lesson;

    #[test]
    fn every_placeholder_is_filled_and_the_catalogue_names_the_files() {
        let files = files("demo").unwrap();
        for (path, text) in &files {
            assert!(!path.contains(PLACEHOLDER) && !text.contains(PLACEHOLDER), "{path}");
        }
        let info = &files.iter().find(|(p, _)| p == "exercises/demo/info.toml").unwrap().1;
        let catalogue = Catalogue::from_sources([("demo", info.as_str())]).unwrap();
        let exercise = &catalogue.exercises[0];
        assert_eq!(exercise.local, "01-scale");
        for path in [&exercise.file, &exercise.solution, &exercise.lesson, &catalogue.courses[0].info.overview] {
            assert!(files.iter().any(|(p, _)| p == path), "{path} is written");
        }
        let stub = &files.iter().find(|(p, _)| *p == exercise.file).unwrap().1;
        // The panic message of the stub's `todo!` is what the grader reads as "not done".
        let message = stub.split("todo!(\"").nth(1).and_then(|rest| rest.split("\")").next()).unwrap();
        assert!(tutor_subject::text::is_not_done(&format!("not yet implemented: {message}")), "{message}");
        assert!(message.contains("TODO 1 "), "{message}");
        for (path, text) in files.iter().filter(|(p, _)| p.ends_with(".md")) {
            let lesson = Lesson::parse(text).unwrap();
            let is_exercise = !path.ends_with("00-overview.md");
            lesson.validate(is_exercise, if is_exercise { 3 } else { 0 }).unwrap_or_else(|e| panic!("{path}: {e}"));
        }
        let kit: toml::Table =
            toml::from_str(&files.iter().find(|(p, _)| p.ends_with("kit/Cargo.toml")).unwrap().1).unwrap();
        assert_eq!(kit["package"]["name"].as_str(), Some("demo_kit"));
        let registration: toml::Table = toml::from_str(&registration("demo")).unwrap();
        assert_eq!(registration["demo"]["path"].as_str(), Some("demo/grade"));
    }
}
