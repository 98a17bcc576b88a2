//! Nothing outside the course folder is written or deleted through a symbolic link: one test
//! per place tutor writes in (`.tutor`, `.tutor/editor`, `.tutor/harness`, `exercises/<course>`,
//! the backups). Each links the place to a folder outside, runs the commands that write there,
//! and finds them refused (exit 2, the link named in both languages) and the outside as it was.

use crate::common;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use common::{Course, Run};

/// A folder outside the course with files of its own, removed on drop.
struct Outside {
    dir: PathBuf,
}

impl Outside {
    fn new(name: &str) -> Outside {
        let dir = std::env::temp_dir().join(format!("tutor-e2e-outside-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("sub")).unwrap();
        std::fs::write(dir.join("lib.rs"), "// not tutor's\n").unwrap();
        std::fs::write(dir.join("sub/deeper.rs"), "// not tutor's either\n").unwrap();
        // What tutor takes for a temporary file of its own, left by a process that has ended.
        std::fs::write(dir.join(".01-linear.rs.tmp-999999999"), "half a file").unwrap();
        Outside { dir }
    }

    /// Every file below the folder with its contents.
    fn snapshot(&self) -> BTreeMap<PathBuf, Vec<u8>> {
        fn walk(dir: &Path, out: &mut BTreeMap<PathBuf, Vec<u8>>) {
            for entry in std::fs::read_dir(dir).unwrap().flatten() {
                let path = entry.path();
                if entry.file_type().unwrap().is_dir() {
                    out.insert(path.clone(), Vec::new());
                    walk(&path, out);
                } else {
                    out.insert(path.clone(), std::fs::read(&path).unwrap());
                }
            }
        }
        let mut out = BTreeMap::new();
        walk(&self.dir, &mut out);
        out
    }
}

impl Drop for Outside {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// Replaces `place` in the course (whatever is there) with a link to `outside`.
fn link(course: &Course, place: &str, outside: &Outside) {
    let path = course.root.join(place);
    if path.is_dir() {
        std::fs::remove_dir_all(&path).unwrap();
    }
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::os::unix::fs::symlink(&outside.dir, &path).unwrap();
}

/// `tutor ARGS` in both languages.
fn both(course: &Course, args: &[&str]) -> Run {
    course.tutor_with(args, |c| {
        c.env("TUTOR_LANG", "both");
    })
}

/// The run was refused for the link at `place`, in both languages.
#[track_caller]
fn refused(run: &Run, place: &str) {
    run.expect(2).shows(&format!("{place} is a symbolic link (to ")).shows(&format!("{place} 是符号链接"));
}

#[test]
fn a_linked_private_folder_is_refused_by_every_command() {
    let course = Course::new("link-private");
    let outside = Outside::new("private");
    link(&course, ".tutor", &outside);
    let before = outside.snapshot();
    for args in [&["list"][..], &["hint", "02"], &["check", "02"], &["reset", "02", "--yes"], &["init", "."]] {
        refused(&both(&course, args), ".tutor");
        assert_eq!(outside.snapshot(), before, "{args:?} changed the folder outside");
    }
}

#[test]
fn a_linked_editor_project_is_refused_and_its_target_kept() {
    let course = Course::new("link-editor");
    // The editor project as `init` writes it in a course folder.
    course.tutor(&["init", "."]).expect(0);
    assert!(course.root.join(".tutor/editor").is_dir(), "init wrote the editor project");
    let outside = Outside::new("editor");
    link(&course, ".tutor/editor", &outside);
    let before = outside.snapshot();
    for args in [&["list"][..], &["init", "."]] {
        refused(&both(&course, args), ".tutor/editor");
        assert_eq!(outside.snapshot(), before, "{args:?} changed the folder outside");
    }
}

#[test]
fn a_linked_harness_below_its_top_is_refused() {
    let course = Course::new("link-harness");
    course.tutor(&["check", "rmsnorm/01"]).expect(1);
    let outside = Outside::new("harness");
    // One folder down, inside tutor's own harness: a stray the check removes (the link, never
    // what it points to) before writing the harness's files in a real folder.
    link(&course, ".tutor/harness/courses", &outside);
    let before = outside.snapshot();
    course.tutor(&["check", "rmsnorm/01"]).expect(1);
    assert_eq!(outside.snapshot(), before);
    let courses = std::fs::symlink_metadata(course.root.join(".tutor/harness/courses")).unwrap();
    assert!(courses.is_dir(), "the harness's folder is a real one again");
    // The harness itself is refused.
    link(&course, ".tutor/harness", &outside);
    refused(&both(&course, &["check", "rmsnorm/01"]), ".tutor/harness");
    assert_eq!(outside.snapshot(), before);
}

#[test]
fn a_linked_course_of_exercises_is_refused_and_its_target_kept() {
    let course = Course::new("link-exercises");
    let outside = Outside::new("exercises");
    // A chapter whose folder is a link to one without its catalogue: tutor would add the
    // chapter's files back, there.
    link(&course, "exercises/swiglu", &outside);
    let before = outside.snapshot();
    for args in [&["list"][..], &["check", "rmsnorm/01"], &["init", "."]] {
        refused(&both(&course, args), "exercises/swiglu");
        assert_eq!(outside.snapshot(), before, "{args:?} changed the folder outside");
    }
    // With its catalogue there (the learner moved the chapter): nothing is read or written
    // through the link either.
    std::fs::remove_file(course.root.join("exercises/swiglu")).unwrap();
    let moved = Outside::new("exercises-moved");
    std::fs::remove_dir_all(&moved.dir).unwrap();
    let copied = std::process::Command::new("cp")
        .arg("-r")
        .arg(common::repo().join("exercises/swiglu"))
        .arg(&moved.dir)
        .status()
        .unwrap();
    assert!(copied.success());
    link(&course, "exercises/swiglu", &moved);
    let before = moved.snapshot();
    for args in [&["check", "swiglu"][..], &["reset", "swiglu", "--yes"]] {
        refused(&both(&course, args), "exercises/swiglu");
        assert_eq!(moved.snapshot(), before, "{args:?} changed the folder outside");
    }
}

#[test]
fn linked_backups_are_refused_and_the_exercise_kept() {
    let course = Course::new("link-backups");
    let outside = Outside::new("backups");
    course.write_exercise("02-norm", "// my work\n");
    link(&course, ".tutor/backups", &outside);
    let before = outside.snapshot();
    refused(&both(&course, &["reset", "02", "--yes"]), ".tutor/backups");
    assert_eq!(outside.snapshot(), before);
    let kept = std::fs::read_to_string(course.root.join("exercises/rmsnorm/02-norm.rs")).unwrap();
    assert_eq!(kept, "// my work\n", "the exercise is not reset without its backup");
}
