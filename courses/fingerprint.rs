//! The fingerprint of a course's grading side: FNV-1a (64 bits) over every file of
//! `courses/<id>/kit/` and `courses/<id>/grade/` (any `target/` folder left out), in the order of
//! their repository paths, each fed as its path, a zero byte, its length (8 bytes, little endian)
//! and its bytes.
//!
//! Defined once, here: `build.rs` compiles this file in (`#[path]`) to fingerprint each course
//! when tutor is built (`Registered::grading_fingerprint`), and the registry exports it, so that
//! `tutor dev check` computes the same value over a checkout, to tell an author whose grading code
//! changed since tutor was built. Standard library only, for the build script.

use std::path::{Path, PathBuf};

/// FNV-1a's 64-bit offset basis.
const OFFSET_BASIS: u64 = 0xcbf2_9ce4_8422_2325;

/// FNV-1a's 64-bit prime.
const PRIME: u64 = 0x0000_0100_0000_01b3;

/// A file or folder that could not be read, with the reason.
#[derive(Debug)]
pub struct Unreadable {
    /// The file or folder.
    pub path: PathBuf,
    /// Why.
    pub error: std::io::Error,
}

/// The folders the fingerprint of `course` covers, by their repository paths.
pub fn folders(course: &str) -> [String; 2] {
    [format!("courses/{course}/kit"), format!("courses/{course}/grade")]
}

/// The fingerprint of `course`'s kit and grading crate in the checkout at `root` (a folder that
/// does not exist holds no files).
pub fn of_checkout(root: &Path, course: &str) -> Result<u64, Unreadable> {
    let mut files = Vec::new();
    for folder in folders(course) {
        walk(root, &root.join(folder), &mut files)?;
    }
    files.sort_by(|a, b| a.0.cmp(&b.0));
    let mut hash = OFFSET_BASIS;
    for (path, full) in &files {
        let bytes = std::fs::read(full).map_err(|error| Unreadable { path: full.clone(), error })?;
        for chunk in [path.as_bytes(), &[0], &(bytes.len() as u64).to_le_bytes(), &bytes] {
            hash = fnv1a(hash, chunk);
        }
    }
    Ok(hash)
}

/// Every file below `dir` but in `target/` folders, as its `/`-separated path relative to `root`
/// and its full path.
fn walk(root: &Path, dir: &Path, out: &mut Vec<(String, PathBuf)>) -> Result<(), Unreadable> {
    let unreadable = |error| Unreadable { path: dir.to_path_buf(), error };
    let entries = match std::fs::read_dir(dir) {
        Ok(entries) => entries,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
        Err(e) => return Err(unreadable(e)),
    };
    for entry in entries {
        let path = entry.map_err(unreadable)?.path();
        if path.is_dir() {
            if path.file_name().is_some_and(|n| n != "target") {
                walk(root, &path, out)?;
            }
        } else {
            let relative = path.strip_prefix(root).unwrap_or(&path).to_string_lossy().replace('\\', "/");
            out.push((relative, path));
        }
    }
    Ok(())
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
