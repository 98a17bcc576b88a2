//! Every course's files and the subject crates, compiled into the binary (through the registry,
//! `tutor_courses`), so that an installed `tutor` needs nothing from the repository and edits to a
//! workspace's copies change nothing about grading.

pub use tutor_courses::{EmbeddedFile, Registered, SUBJECT_FILES};

/// Every registered course.
pub fn courses() -> &'static [Registered] {
    tutor_courses::COURSES
}

/// A registered course by its id.
pub fn registered(id: &str) -> Option<&'static Registered> {
    courses().iter().find(|c| c.id == id)
}

/// The README that `tutor init` writes into a new workspace.
pub const WORKSPACE_README: &str = include_str!("workspace_readme.md");

/// The `.gitignore` that `tutor init` writes: progress and the harness stay out of version control.
pub const WORKSPACE_GITIGNORE: &str = "/.tutor\n/target\n";

/// The lock file that pins the harness's dependencies to the versions measured here (its
/// registry packages; the path packages are written from the manifests, see `runner::harness`).
pub const HARNESS_LOCK: &str = include_str!("../runner/harness.Cargo.lock");

/// A course file (catalogue, stub, solution, lesson) by its workspace path, in any course.
pub fn course_file(path: &str) -> Option<&'static str> {
    courses().iter().find_map(|c| c.file(path))
}

/// Every course file of every course.
pub fn course_files() -> impl Iterator<Item = &'static EmbeddedFile> {
    courses().iter().flat_map(|c| c.files.iter())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeSet;
    use std::path::Path;

    fn files_below(dir: &Path, base: &Path, out: &mut BTreeSet<String>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                files_below(&path, base, out);
            } else {
                out.insert(path.strip_prefix(base).unwrap().to_string_lossy().replace('\\', "/"));
            }
        }
    }

    #[test]
    fn every_kit_and_subject_file_is_embedded_and_identical() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        let mut crates: Vec<(String, Vec<&EmbeddedFile>)> =
            vec![("crates/subject".into(), SUBJECT_FILES.iter().collect())];
        for course in courses() {
            crates.push((format!("courses/{}/kit", course.id), course.kit.iter().collect()));
        }
        for (dir, files) in crates {
            let mut on_disk = BTreeSet::new();
            files_below(&root.join(&dir).join("src"), root, &mut on_disk);
            on_disk.insert(format!("{dir}/Cargo.toml"));
            let embedded: BTreeSet<String> = files.iter().map(|f| f.path.to_string()).collect();
            assert_eq!(on_disk, embedded, "{dir} and its embedded copy must list the same files");
            for file in files {
                assert_eq!(std::fs::read_to_string(root.join(file.path)).unwrap(), file.contents, "{}", file.path);
            }
        }
    }

    #[test]
    fn every_course_file_on_disk_is_embedded() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        for course in courses() {
            for dir in ["exercises", "solutions", "lessons"] {
                let mut on_disk = BTreeSet::new();
                files_below(&root.join(dir).join(course.id), root, &mut on_disk);
                assert!(!on_disk.is_empty(), "{dir}/{} is empty", course.id);
                for path in on_disk.iter().filter(|p| !p.ends_with("README.md")) {
                    assert!(course_file(path).is_some(), "{path} is not embedded");
                }
            }
        }
    }
}
