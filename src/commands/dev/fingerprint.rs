//! The fingerprint of a course's grading side: FNV-1a (64 bits) over every file of
//! `courses/<id>/kit/` and `courses/<id>/grade/` (any `target/` folder left out), in the order of
//! their repository paths, each fed as its path, a zero byte, its length (8 bytes, little
//! endian) and its bytes.
//!
//! `courses/build.rs` computes the same value when tutor is built and compiles it into the
//! registry (`Registered::grading_fingerprint`); `dev check` computes it again over a checkout, to
//! tell an author whose grading code changed since tutor was built. The build script cannot use
//! this module, so it keeps its own copy of [`of_checkout`]; a test holds the two to the same
//! value over this repository.

use std::path::Path;

use anyhow::{Context, Result};

use crate::errors::OnFile;
use crate::fsutil::files_below;

/// FNV-1a's 64-bit offset basis.
const OFFSET_BASIS: u64 = 0xcbf2_9ce4_8422_2325;

/// FNV-1a's 64-bit prime.
const PRIME: u64 = 0x0000_0100_0000_01b3;

/// The folders the fingerprint of `course` covers, by their repository paths.
pub fn folders(course: &str) -> [String; 2] {
    [format!("courses/{course}/kit"), format!("courses/{course}/grade")]
}

/// Whether the checkout at `root` has the course's grading side at all (`courses/<id>/`): a
/// folder holding only content has nothing to compare.
pub fn has_grading_side(root: &Path, course: &str) -> bool {
    root.join("courses").join(course).is_dir()
}

/// The fingerprint of `course`'s kit and grading crate in the checkout at `root`.
pub fn of_checkout(root: &Path, course: &str) -> Result<u64> {
    let mut files = Vec::new();
    for folder in folders(course) {
        files.extend(files_below(root, &root.join(folder))?);
    }
    files.sort_by(|a, b| a.0.cmp(&b.0));
    let mut hash = OFFSET_BASIS;
    for (path, full) in &files {
        let bytes = std::fs::read(full).with_context(|| OnFile::read(full))?;
        for chunk in [path.as_bytes(), &[0], &(bytes.len() as u64).to_le_bytes(), &bytes] {
            hash = fnv1a(hash, chunk);
        }
    }
    Ok(hash)
}

/// `hash` continued over `bytes`.
fn fnv1a(mut hash: u64, bytes: &[u8]) -> u64 {
    for &byte in bytes {
        hash ^= u64::from(byte);
        hash = hash.wrapping_mul(PRIME);
    }
    hash
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fnv1a_matches_its_published_values() {
        assert_eq!(fnv1a(OFFSET_BASIS, b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a(OFFSET_BASIS, b"a"), 0xaf63_dc4c_8601_ec8c);
        assert_eq!(fnv1a(OFFSET_BASIS, b"foobar"), 0x85944171f73967e8);
    }

    #[test]
    fn the_build_scripts_fingerprint_is_the_one_computed_here() {
        // courses/build.rs has its own copy of the hashing: over this repository, both agree.
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        for course in crate::course::embedded::courses() {
            let here = of_checkout(root, course.id).unwrap();
            assert_eq!(
                here, course.grading_fingerprint,
                "courses/build.rs and src/commands/dev/fingerprint.rs hash courses/{}/{{kit,grade}} differently",
                course.id
            );
        }
    }

    #[test]
    fn any_change_of_a_grading_file_changes_the_fingerprint() {
        let root = std::env::temp_dir().join(format!("tutor-fingerprint-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        let grade = root.join("courses/demo/grade/src");
        std::fs::create_dir_all(&grade).unwrap();
        std::fs::create_dir_all(root.join("courses/demo/grade/target")).unwrap();
        std::fs::write(grade.join("lib.rs"), "pub fn a() {}").unwrap();
        let first = of_checkout(&root, "demo").unwrap();
        std::fs::write(root.join("courses/demo/grade/target/junk"), "built").unwrap();
        assert_eq!(of_checkout(&root, "demo").unwrap(), first, "target/ is left out");
        std::fs::write(grade.join("lib.rs"), "pub fn b() {}").unwrap();
        assert_ne!(of_checkout(&root, "demo").unwrap(), first);
        assert_ne!(of_checkout(&root, "other").unwrap(), first);
        let _ = std::fs::remove_dir_all(&root);
    }
}
