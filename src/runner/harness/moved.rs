//! A harness copied or moved to another folder (a course folder copied with `cp -a`, or renamed).
//!
//! cargo remembers the files a program was built from by absolute path when they lie outside
//! its package (`bins/…`, the learner's copy under `exercises/`): in a copy of the folder, it
//! would go on comparing the original folder's files, and, while those are unchanged, call the
//! copy's program fresh, built from the other folder's learner file. So the harness notes the
//! folder it was built in (`target/tutor-folder`), and where that is not this folder, cargo's
//! memory of the graded programs is forgotten: each is built again, once. The libraries' sources
//! are the same in every folder, and stay built. Looked at when the harness is written whole
//! only: a moved harness never keeps its stamp (`super::stamp`, which names the folder).

use std::fs;
use std::path::Path;

use anyhow::{Context, Result};

use crate::fsutil::OnFile;

/// Where the harness at `root` notes the folder it was built in.
fn note(root: &Path) -> std::path::PathBuf {
    root.join("target").join("tutor-folder")
}

/// Forgets cargo's fingerprints of the graded programs (`ex-…`) when the harness at `root` was
/// built in another folder, and notes this one. Nothing to do before its first build.
pub fn forget_programs_built_elsewhere(root: &Path) -> Result<()> {
    let fingerprints = root.join("target").join("debug").join(".fingerprint");
    let here = root.to_string_lossy();
    let noted = crate::fsutil::regular::read_text(&note(root), crate::fsutil::regular::Links::Refuse);
    if noted.as_deref() == Some(&*here) || !root.join("target").is_dir() {
        return Ok(());
    }
    if let Ok(entries) = fs::read_dir(&fingerprints) {
        for entry in entries.flatten() {
            let program = entry.file_name().to_string_lossy().starts_with("ex-");
            // Never through a link: only cargo's own folders go.
            if program && entry.file_type().is_ok_and(|t| t.is_dir()) {
                fs::remove_dir_all(entry.path()).with_context(|| OnFile::write(&entry.path()))?;
            }
        }
    }
    crate::fsutil::below::write_below(root, &note(root), &here)
}
