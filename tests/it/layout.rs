//! Every file under `tests/` is read by a test: a test module of this binary (declared in
//! `main.rs`), a file those modules include, the learner-files crate, the learner files of a
//! registered course (graded through `common::fixtures`), or the miniature course of
//! `second_course`. A file anywhere else is never read, or (`tests/<topic>.rs`) would become a
//! test binary of its own.

use crate::common;

use std::path::{Path, PathBuf};

/// Every file below `dir`, as paths relative to `base`.
fn files_below(dir: &Path, base: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())).flatten() {
        let path = entry.path();
        if path.is_dir() {
            files.extend(files_below(&path, base));
        } else {
            files.push(path.strip_prefix(base).expect("below base").to_path_buf());
        }
    }
    files.sort();
    files
}

/// Why a file of `tests/` (by its path below `tests/`) is read, or `None`.
fn read_by(path: &str, modules: &str, courses: &[String]) -> Option<&'static str> {
    let parts: Vec<&str> = path.split('/').collect();
    match parts.as_slice() {
        ["README.md"] => Some("the layout's notes"),
        ["it", "main.rs"] => Some("the binary"),
        ["it", file] => file
            .strip_suffix(".rs")
            .filter(|m| modules.lines().any(|l| l.trim() == format!("mod {m};")))
            .map(|_| "a module of main.rs"),
        ["it", folder, ..] if ["common", "lesson_claims", "privileged"].contains(folder) => {
            Some("included by a module")
        }
        ["learners", "Cargo.toml" | "build.rs"] | ["learners", "src", "lib.rs"] => Some("the learner-files crate"),
        [kind, course, file]
            if ["alternates", "mistakes", "hostile"].contains(kind)
                && courses.iter().any(|c| c == course)
                && file.ends_with(".rs") =>
        {
            Some("a learner file, listed by tests/learners/build.rs")
        }
        ["fixtures", "courses", ..] => Some("the miniature course of second_course"),
        _ => None,
    }
}

#[test]
fn every_file_under_tests_is_read() {
    let tests = common::repo().join("tests");
    let modules = std::fs::read_to_string(tests.join("it/main.rs")).expect("tests/it/main.rs");
    let courses = common::courses();
    let unread: Vec<String> = files_below(&tests, &tests)
        .iter()
        .map(|p| p.to_string_lossy().into_owned())
        .filter(|p| read_by(p, &modules, &courses).is_none())
        .collect();
    assert!(unread.is_empty(), "files under tests/ that no test reads (see tests/it/main.rs):\n{}", unread.join("\n"));
}

#[test]
fn a_stray_file_is_refused() {
    let modules = "mod cli;\n";
    let courses = vec!["rmsnorm".to_string()];
    assert!(read_by("it/cli.rs", modules, &courses).is_some());
    for stray in
        ["topic.rs", "it/undeclared.rs", "mistakes/nocourse/a.rs", "acceptance/README.md", "mistakes/rmsnorm/notes.txt"]
    {
        assert_eq!(read_by(stray, modules, &courses), None, "{stray}");
    }
}
