//! A course folder of the previous release, upgraded in place: `tutor init` run in it (or in a
//! folder below it) upgrades it instead of writing `llm-course/` inside it, builds the new
//! chapter's kit, refreshes the README; any command's migration leaves the folder's cargo
//! workspace loadable (`cargo test`, rust-analyzer); `doctor` names a nested course.
//!
//! The previous release is simulated: its folder has rmsnorm only, an editor project naming
//! rmsnorm only, a harness holding rmsnorm's kit only, and its README (one-course heading).

use crate::common;

use std::path::Path;
use std::process::Command;

use common::Course;

/// The README the one-chapter release wrote (its heading and mark, as in git history).
const OLD_README: &str =
    "# RMSNorm course · RMSNorm 课程\n\nWritten by `tutor init`. 由 `tutor init` 创建。\n\n- `tutor watch`\n";

/// A course folder as the previous release left it, with rmsnorm's 01 passed.
fn previous_release(name: &str) -> Course {
    let course = Course::new(name);
    course.tutor(&["init", ".", "--no-build"]).expect(0);
    let root = &course.root;
    std::fs::remove_dir_all(root.join("exercises/swiglu")).unwrap();
    std::fs::remove_dir_all(root.join(".tutor/harness/courses/swiglu")).unwrap();
    std::fs::remove_dir_all(root.join(".tutor/editor/swiglu")).unwrap();
    let manifest = std::fs::read_to_string(root.join("Cargo.toml")).unwrap();
    let older = manifest.replace("\".tutor/editor/swiglu\", ", "");
    assert_ne!(older, manifest, "the editor project named swiglu");
    std::fs::write(root.join("Cargo.toml"), older).unwrap();
    std::fs::write(root.join("README.md"), OLD_README).unwrap();
    let state = "version = 2\n\n[exercises.\"rmsnorm/01-weight\"]\nstatus = \"passed\"\nchecks = 2\nhints = 1\n";
    std::fs::write(root.join(".tutor/state.toml"), state).unwrap();
    course
}

/// Whether cargo can load the folder's workspace (what `cargo test` and rust-analyzer do first):
/// every member and every path dependency, the kits in the harness included.
fn cargo_loads(root: &Path) -> (bool, String) {
    let output = Command::new("cargo")
        .args(["metadata", "--format-version", "1", "--no-deps", "--offline"])
        .current_dir(root)
        .output()
        .expect("cargo runs");
    (output.status.success(), String::from_utf8_lossy(&output.stderr).into_owned())
}

#[test]
fn init_in_a_course_folder_upgrades_it_and_builds_the_new_chapter() {
    let course = previous_release("upgrade-in-place");
    let root = &course.root;
    // The new chapter's kit is not built yet: the upgrade builds it (the rest is warm).
    let built = root.join(".tutor/harness/target/debug");
    for entry in std::fs::read_dir(&built).unwrap().chain(std::fs::read_dir(built.join("deps")).unwrap()) {
        let path = entry.unwrap().path();
        if path.file_name().unwrap().to_string_lossy().starts_with("libswiglu_kit") {
            std::fs::remove_file(path).unwrap();
        }
    }
    assert!(!built.join("libswiglu_kit.so").exists());

    // Run from a folder below the course folder, as a learner in exercises/ would.
    let run = course.tutor_with(&["init"], |c| {
        c.current_dir(root.join("exercises"));
    });
    run.expect(0).shows("added: swiglu").shows("Your files and progress are as they were");
    run.shows("README.md now describes this tutor").shows("Building");
    for dir in [root.join("llm-course"), root.join("exercises/llm-course")] {
        assert!(!dir.exists(), "{} was written: init nested a course", dir.display());
    }
    for (exercise, _) in common::exercises_of("swiglu") {
        assert!(root.join(format!("exercises/swiglu/{exercise}.rs")).is_file(), "{exercise} was not added");
    }
    assert!(built.join("libswiglu_kit.so").is_file(), "the new chapter's kit was not built");
    let readme = std::fs::read_to_string(root.join("README.md")).unwrap();
    assert!(readme.starts_with("# Your courses") && readme.contains("cargo test"), "{readme}");
    assert_eq!(std::fs::read_to_string(root.join(".tutor/README.previous.md")).unwrap(), OLD_README);
    assert!(course.state().contains("checks = 2"), "progress kept: {}", course.state());
    let (loads, why) = cargo_loads(root);
    assert!(loads, "cargo cannot load the upgraded folder: {why}");

    // Once is enough; a README of the learner's own is never replaced.
    std::fs::write(root.join("README.md"), "my own notes\n").unwrap();
    course.tutor(&["init", "--no-build"]).expect(0).shows("already has every chapter").hides("README.md now");
    assert_eq!(std::fs::read_to_string(root.join("README.md")).unwrap(), "my own notes\n");
}

#[test]
fn a_migration_by_any_command_leaves_the_cargo_workspace_working() {
    let course = previous_release("upgrade-by-list");
    let manifest = || std::fs::read_to_string(course.root.join("Cargo.toml")).unwrap();
    assert!(!manifest().contains("swiglu"));
    let run = course.tutor(&["list"]);
    // Only what happened is said: "0 progress entries" reads as loss.
    run.expect(0)
        .shows("Workspace brought up to date")
        .shows("new chapters: swiglu")
        .hides("0 progress")
        .hides("0 exercise");
    run.shows("all kept").shows(&common::done(1));
    // The migration names the new chapter's editor library, over its kit in the harness.
    assert!(manifest().contains(".tutor/editor/swiglu"), "{}", manifest());
    let (loads, why) = cargo_loads(&course.root);
    assert!(loads, "cargo cannot load the folder after `tutor list` migrated it: {why}");
}

#[test]
fn doctor_names_a_course_folder_inside_another() {
    let course = Course::new("nested");
    // What `tutor init` in a course folder did before: a second course inside the first.
    course.tutor(&["init", "llm-course", "--no-build"]).expect(0);
    let inner = course.root.join("llm-course");
    assert!(inner.join("exercises/rmsnorm/info.toml").is_file());
    let run = course.tutor(&["doctor"]);
    run.expect(1).shows("nested course").shows(&inner.display().to_string()).shows("copied over, delete");
    // Not a problem in a folder without one.
    std::fs::remove_dir_all(&inner).unwrap();
    course.tutor(&["doctor"]).hides("nested course");
}
