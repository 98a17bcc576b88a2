//! A course folder whose harness an earlier release wrote (every exercise's program in one
//! package over the whole kit, the kit's reference one file, the kit a dependency named
//! `tutor_kit`) keeps working:
//! the next check writes and builds the harness the new way without a word about it, and leaves
//! the learner's files and progress as they were.

use crate::common;

use std::path::Path;

use common::Course;

/// Turns the folder's harness into what the releases before wrote: one package of every
/// exercise's program over the whole kit (a dependency named `tutor_kit`), no package per program
/// and no given libraries, the programs' sources without `main`'s prelude, and the kit's
/// reference as one file.
fn make_harness_old(harness: &Path) {
    let mut manifest =
        String::from("[package]\nname = \"tutor-harness\"\nversion = \"0.0.0\"\nedition = \"2021\"\nbuild = false\n\n");
    for (id, _) in common::exercises() {
        manifest.push_str(&format!("[[bin]]\nname = \"ex-rmsnorm-{id}\"\npath = \"bins/ex-rmsnorm-{id}.rs\"\n\n"));
    }
    manifest.push_str("[dependencies]\ntutor_kit = { path = \"courses/rmsnorm/kit\" }\n\n[workspace]\n");
    std::fs::write(harness.join("Cargo.toml"), manifest).unwrap();
    for folder in ["programs", "given"] {
        assert!(harness.join(folder).is_dir(), "this release writes {folder}/");
        std::fs::remove_dir_all(harness.join(folder)).unwrap();
    }
    for entry in std::fs::read_dir(harness.join("bins")).unwrap() {
        let path = entry.unwrap().path();
        let source = std::fs::read_to_string(&path).unwrap();
        let start = source.find("#[path").expect("the learner's module");
        std::fs::write(
            &path,
            format!("// Written by tutor: the graded program. Edits here are overwritten.\n{}", &source[start..]),
        )
        .unwrap();
    }
    let reference = harness.join("courses/rmsnorm/kit/src/reference.rs");
    std::fs::write(reference, "//! The reference maths, as one module (the previous release's kit).\n").unwrap();
}

#[test]
fn a_harness_written_by_the_previous_release_is_rebuilt_silently_and_nothing_of_the_learner_changes() {
    let course = Course::new("harness-migration");
    course.write_exercise("01-weight", &Course::solution("01-weight"));
    course.tutor(&["check", "rmsnorm/01-weight"]).expect(0);
    course.write_exercise("02-norm", "// my own notes, not yet code\n");
    let harness = course.root.join(".tutor/harness");
    make_harness_old(&harness);
    let state = course.state();
    let files = |c: &Course| -> Vec<(String, String)> {
        common::exercises()
            .into_iter()
            .map(|(id, _)| {
                let text = std::fs::read_to_string(c.root.join(format!("exercises/rmsnorm/{id}.rs"))).unwrap();
                (id, text)
            })
            .collect()
    };
    let before = files(&course);

    let run = course.tutor(&["check", "rmsnorm/01-weight"]);
    run.expect(0).shows("01-weight passes every check").hides("harness").hides("rebuil").hides("warning");
    assert!(run.stderr.trim().is_empty(), "{}", run.stderr);
    assert_eq!(files(&course), before, "the learner's files are untouched");
    let after = course.state();
    assert!(after.contains("[exercises.\"rmsnorm/01-weight\"]") && after.contains("status = \"passed\""), "{after}");
    assert_eq!(
        state.lines().filter(|l| l.starts_with("[exercises")).count(),
        after.lines().filter(|l| l.starts_with("[exercises")).count()
    );
    // The harness is this release's: the stray file gone, a workspace of programs, each over its
    // given library, which holds the kit's core.
    assert!(!harness.join("courses/rmsnorm/kit/src/reference.rs").exists());
    let manifest = std::fs::read_to_string(harness.join("Cargo.toml")).unwrap();
    assert!(manifest.contains("[workspace]") && manifest.contains("programs/ex-rmsnorm-01-weight"), "{manifest}");
    let program = std::fs::read_to_string(harness.join("programs/ex-rmsnorm-01-weight/Cargo.toml")).unwrap();
    assert!(program.contains("tutor_given = {"), "{program}");
    let library = std::fs::read_to_string(harness.join("given/rmsnorm-01-weight/Cargo.toml")).unwrap();
    assert!(library.contains("tutor_kit_core = {"), "{library}");
    course.tutor(&["list"]).expect(0).shows(&common::done(1));
}
