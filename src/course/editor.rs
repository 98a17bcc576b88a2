//! What makes a course folder something an editor understands: a `Cargo.toml` whose workspace has
//! one library per course, each including that course's exercise files as modules over the same
//! kit the grader builds on, so that rust-analyzer resolves `tutor_kit`, `ndarray` and `half` in
//! the exercises with completion and types. tutor itself never grades through it (rustlings writes
//! such a file too).

use std::path::Path;

use anyhow::Result;

use super::{cargo_habits, Catalogue};
use crate::fsutil::below::write_below;
use crate::fsutil::regular::Links;
use crate::runner::harness;

/// The first line of the course `Cargo.toml` that tutor writes, to recognise its own file.
const MARKER: &str = "# Written by `tutor init` for editors (rust-analyzer)";

/// Where a course's editor library lives, relative to the workspace.
pub fn project_dir(course: &str) -> String {
    format!(".tutor/editor/{course}")
}

/// A library root that includes every exercise of `course` by `#[path]`, with paths relative to
/// the library root's folder (`prefix`, e.g. `../../../` for [`project_dir`]).
pub fn library_root(catalogue: &Catalogue, course: &str, prefix: &str) -> String {
    let mut text = String::from(
        "//! Written by tutor so that editors understand the exercises; tutor grades them through its\n\
         //! own harness, not through this file.\n",
    );
    for exercise in catalogue.exercises_of(course) {
        let module = format!("exercise_{}", exercise.local.replace('-', "_"));
        text.push_str(&format!("\n#[path = \"{prefix}{}\"]\npub mod {module};\n", exercise.file));
    }
    text
}

/// The `#[path = "…"]` lines of a library root, trimmed, in order: the exercises it includes.
pub fn path_lines(text: &str) -> Vec<&str> {
    text.lines().map(str::trim).filter(|l| l.starts_with("#[path")).collect()
}

/// The workspace's `Cargo.toml`: one member per course, and the package that makes `cargo run`
/// and `cargo test` useful (see [`cargo_habits`]), which is what cargo builds by default.
pub fn manifest(catalogue: &Catalogue) -> String {
    let mut members: Vec<String> = catalogue.courses.iter().map(|c| format!("\"{}\"", project_dir(&c.id))).collect();
    members.push(format!("\"{}\"", cargo_habits::DIR));
    format!(
        "{MARKER}: each course is a library whose\n\
         # modules are its exercises, over the grading kit tutor keeps in .tutor/harness. tutor does not\n\
         # grade through these files; `tutor check` does, and `cargo test` runs it for every exercise.\n\
         [workspace]\nmembers = [{}]\ndefault-members = [\"{}\"]\nresolver = \"2\"\n",
        members.join(", "),
        cargo_habits::DIR
    )
}

/// One course's library manifest, in [`project_dir`].
pub fn course_manifest(course: &str) -> String {
    let kit = harness::Kit::of(course);
    format!(
        "# Written by tutor for editors: the exercises of `{course}` as one library.\n\
         [package]\nname = \"tutor-course-{course}\"\nversion = \"0.0.0\"\nedition = \"2021\"\npublish = false\n\n\
         [lib]\npath = \"lib.rs\"\n# The kit is a dylib: a test binary could not link it.\ntest = false\ndoctest = false\n\n\
         [dependencies]\ntutor_kit = {{ path = \"../../../{}\", package = \"{}\" }}\n{}\n",
        kit.in_workspace(),
        kit.package(),
        kit.registry_dependency_lines(),
    )
}

/// Writes each course's library (manifest and root) under `root`, and the workspace manifest
/// unless `root` has a `Cargo.toml` that is not tutor's; returns false in that case.
pub fn write_project(root: &Path, catalogue: &Catalogue) -> Result<bool> {
    for course in &catalogue.courses {
        let dir = root.join(project_dir(&course.id));
        write_below(root, &dir.join("Cargo.toml"), &course_manifest(&course.id))?;
        write_below(root, &dir.join("lib.rs"), &library_root(catalogue, &course.id, "../../../"))?;
    }
    let habits = root.join(cargo_habits::DIR);
    // The tutor that runs the checks: this one, while it is where it is now.
    let tutor = std::env::current_exe().map(|p| p.to_string_lossy().into_owned()).unwrap_or_default();
    write_below(root, &habits.join("Cargo.toml"), &cargo_habits::manifest())?;
    write_below(root, &habits.join("main.rs"), &cargo_habits::main_rs())?;
    write_below(root, &habits.join("checks.rs"), &cargo_habits::checks_rs(catalogue, &tutor))?;
    let path = root.join("Cargo.toml");
    // A manifest tutor cannot read as text (or something that is not a file) is not tutor's:
    // left alone, like a learner's own.
    let kind = crate::fsutil::regular::kind_at(&path, Links::Follow);
    let existing = crate::fsutil::regular::read_text(&path, Links::Follow);
    match (kind, existing) {
        (Ok(Some(_)), _) => Ok(false),
        (_, Some(existing)) if !is_ours(&existing) => Ok(false),
        _ => {
            write_below(root, &path, &manifest(catalogue))?;
            Ok(true)
        }
    }
}

/// Whether the folder at `root` uses tutor's editor project (its `Cargo.toml` is tutor's).
pub fn in_use(root: &Path) -> bool {
    crate::fsutil::regular::read_text(&root.join("Cargo.toml"), Links::Follow).is_some_and(|text| is_ours(&text))
}

/// Whether a course `Cargo.toml` is tutor's own (and may be rewritten).
pub fn is_ours(manifest: &str) -> bool {
    manifest.starts_with(MARKER)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_courses_editor_example_lists_every_exercise() {
        // The repository's own editor support: each course's grading crate has the same library
        // root as an example, with paths from `courses/<id>/grade/`.
        let catalogue = Catalogue::embedded().unwrap();
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        for course in &catalogue.courses {
            let example = root.join("courses").join(&course.id).join("grade/editor.rs");
            let expected = library_root(&catalogue, &course.id, "../../../");
            let on_disk = match std::fs::read_to_string(&example) {
                Ok(text) => text,
                Err(e) => {
                    panic!("courses/{}/grade/editor.rs cannot be read ({e}); it should read:\n\n{expected}", course.id)
                }
            };
            let (wanted, found) = (path_lines(&expected), path_lines(&on_disk));
            let listed = |lines: Vec<&&str>| {
                if lines.is_empty() {
                    " none".to_string()
                } else {
                    lines.iter().map(|l| format!("\n    {l}")).collect()
                }
            };
            let missing = listed(wanted.iter().filter(|l| !found.contains(l)).collect());
            let extra = listed(found.iter().filter(|l| !wanted.contains(l)).collect());
            assert!(
                on_disk == expected,
                "courses/{id}/grade/editor.rs must hold exactly what tutor writes for the exercises of \
                 exercises/{id}/info.toml (crate::course::editor::library_root): one `#[path]` module per \
                 exercise, in the catalogue's order.\n  missing:{missing}\n  not in the catalogue:{extra}\n\
                 (`cargo run -- dev check {id}` says the same.) It should read:\n\n{expected}",
                id = course.id,
            );
            for exercise in catalogue.exercises_of(&course.id) {
                assert!(library_root(&catalogue, &course.id, "").contains(&format!("#[path = \"{}\"]", exercise.file)));
            }
            let manifest: toml::Table = toml::from_str(&course_manifest(&course.id)).unwrap();
            assert!(manifest["dependencies"]["tutor_kit"]["package"].as_str().is_some_and(|p| !p.is_empty()));
        }
        assert!(is_ours(&manifest(&catalogue)));
    }
}
