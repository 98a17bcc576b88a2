//! Every course file and the kit's source, compiled into the binary, so that an installed
//! `tutor` needs nothing from the repository and edits to a workspace's copies change nothing
//! about grading.

/// A file carried inside the binary.
pub struct EmbeddedFile {
    /// Path relative to the repository root (course files) or to `src/kit` (kit files).
    pub path: &'static str,
    /// The file's text.
    pub contents: &'static str,
}

// COURSE_FILES and KIT_FILES, listed by build.rs from their folders.
include!(concat!(env!("OUT_DIR"), "/embedded.rs"));

/// The README that `tutor init` writes into a new workspace.
pub const WORKSPACE_README: &str = include_str!("workspace_readme.md");

/// The `.gitignore` that `tutor init` writes: progress and the harness stay out of version control.
pub const WORKSPACE_GITIGNORE: &str = "/.tutor\n/target\n";

/// The lock file that pins the harness's dependencies to the versions measured here.
pub const HARNESS_LOCK: &str = include_str!("../runner/harness.Cargo.lock");

/// A course file by its workspace path.
pub fn course_file(path: &str) -> Option<&'static str> {
    COURSE_FILES.iter().find(|f| f.path == path).map(|f| f.contents)
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
    fn every_kit_file_is_embedded_and_identical() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("crates/subject");
        let mut on_disk = BTreeSet::new();
        files_below(&root.join("src"), &root, &mut on_disk);
        on_disk.insert("Cargo.toml".to_string());
        let embedded: BTreeSet<String> = KIT_FILES.iter().map(|f| f.path.to_string()).collect();
        assert_eq!(on_disk, embedded, "crates/subject and KIT_FILES must list the same files");
        for file in KIT_FILES {
            assert_eq!(std::fs::read_to_string(root.join(file.path)).unwrap(), file.contents, "{}", file.path);
        }
    }

    #[test]
    fn every_course_file_on_disk_is_embedded() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        for dir in ["exercises", "solutions", "lessons"] {
            let mut on_disk = BTreeSet::new();
            files_below(&root.join(dir), root, &mut on_disk);
            for path in on_disk.iter().filter(|p| !p.ends_with("README.md")) {
                assert!(course_file(path).is_some(), "{path} is not embedded");
            }
        }
    }
}
