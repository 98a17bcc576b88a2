//! What the harness held when tutor last wrote it whole, so that a check need not read its
//! 130-odd files again to know they are unchanged (about 2 ms of every check, measured).
//!
//! The stamp (`.tutor/builds/harness.json`) keeps, for the tutor binary and the workspace that
//! wrote it, the harness's fingerprint and every written file's and folder's size and
//! modification time as `lstat` reports them. A check trusts the harness as written when all of
//! them are as recorded: an edited or replaced file changes its own time, a file or folder added
//! or removed (a planted `build.rs`, a link) its folder's. The learner copies' folders
//! (`exercises/`) are not recorded: each check writes a copy there.
//!
//! Times are trusted as git trusts its index: only those older than the stamp by more than a
//! file system's coarsest tick. A file changed within the tick it was written in could keep its
//! time; such a stamp is not trusted, and the next check compares the files (and stamps them
//! again).

use std::fs;
use std::path::Path;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use serde::{Deserialize, Serialize};

/// The coarsest tick of a file system's modification times that tutor allows for (FAT's: 2 s).
const TICK: Duration = Duration::from_secs(2);

/// The harness as tutor last wrote it whole.
#[derive(Debug, Serialize, Deserialize)]
pub struct Stamp {
    /// Who wrote it, for which workspace and courses ([`key`]).
    key: String,
    /// When it was taken, in nanoseconds since the Unix epoch.
    taken: u128,
    /// The harness's fingerprint (`super::Layout::fingerprint`).
    pub fingerprint: u64,
    /// Every file written and every folder holding one, but the learner copies' folders.
    entries: Vec<Entry>,
}

/// One file or folder of the harness, as `lstat` saw it.
#[derive(Debug, PartialEq, Serialize, Deserialize)]
struct Entry {
    path: String,
    folder: bool,
    len: u64,
    modified: u128,
}

/// Where the stamp of the harness under `private_dir` is kept.
fn path(private_dir: &Path) -> std::path::PathBuf {
    private_dir.join("builds").join("harness.json")
}

/// What the harness's files are a function of: this tutor binary (its courses are compiled in),
/// the harness folder (the programs name their copies by absolute path), and the workspace's
/// exercises. `None` when tutor cannot tell its own binary apart: every check then compares.
pub fn key(root: &Path, exercises: &[String]) -> Option<String> {
    let executable = std::env::current_exe().ok()?;
    let metadata = fs::metadata(&executable).ok()?;
    let (len, modified) = (metadata.len(), nanos(metadata.modified().ok()?)?);
    Some(format!(
        "{} {} {} {len} {modified} {} {}",
        env!("CARGO_PKG_VERSION"),
        env!("TUTOR_COMMIT"),
        executable.display(),
        root.display(),
        exercises.join(",")
    ))
}

/// The fingerprint of the harness at `root` if its stamp, written for `key`, still holds.
pub fn holds(private_dir: &Path, root: &Path, key: &str) -> Option<u64> {
    let text = crate::fsutil::regular::read_text(&path(private_dir), crate::fsutil::regular::Links::Refuse)?;
    let stamp: Stamp = serde_json::from_str(&text).ok()?;
    let settled_before = stamp.taken.checked_sub(TICK.as_nanos())?;
    let holds = stamp.key == key
        && stamp
            .entries
            .iter()
            .all(|entry| entry.modified < settled_before && seen(root, &entry.path).as_ref() == Some(entry));
    holds.then_some(stamp.fingerprint)
}

/// Stamps the harness at `root` as just written whole: `files` its files (relative paths),
/// every one but the learner copies. A failure only means the next check compares the files.
pub fn take(private_dir: &Path, root: &Path, key: &str, files: &[&str], fingerprint: u64) {
    let Some(taken) = nanos(SystemTime::now()) else { return };
    let mut paths: Vec<String> = vec![String::new()];
    for file in files {
        paths.push(file.to_string());
        let mut folder = Path::new(file).parent();
        while let Some(dir) = folder.filter(|d| !d.as_os_str().is_empty()) {
            paths.push(dir.to_string_lossy().into_owned());
            folder = dir.parent();
        }
    }
    paths.sort();
    paths.dedup();
    let entries: Option<Vec<Entry>> = paths.iter().map(|p| seen(root, p)).collect();
    let Some(entries) = entries else { return };
    let stamp = Stamp { key: key.to_string(), taken, fingerprint, entries };
    if let Ok(text) = serde_json::to_string(&stamp) {
        let _ = crate::fsutil::below::write_below(private_dir, &path(private_dir), &text);
    }
}

/// The file or folder at `relative` below `root` as `lstat` sees it (`""`: `root` itself).
fn seen(root: &Path, relative: &str) -> Option<Entry> {
    let metadata =
        fs::symlink_metadata(if relative.is_empty() { root.to_path_buf() } else { root.join(relative) }).ok()?;
    let kind = metadata.file_type();
    if kind.is_symlink() || !(kind.is_dir() || kind.is_file()) {
        return None;
    }
    Some(Entry {
        path: relative.to_string(),
        folder: kind.is_dir(),
        len: metadata.len(),
        modified: nanos(metadata.modified().ok()?)?,
    })
}

fn nanos(time: SystemTime) -> Option<u128> {
    time.duration_since(UNIX_EPOCH).ok().map(|d| d.as_nanos())
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;

    /// Moves the stamp under `private_dir` forward by `by`, as if taken that much later: the
    /// files it records have settled.
    pub fn settle(private_dir: &Path, by: Duration) {
        let text = fs::read_to_string(path(private_dir)).unwrap();
        let mut stamp: Stamp = serde_json::from_str(&text).unwrap();
        stamp.taken += by.as_nanos();
        fs::write(path(private_dir), serde_json::to_string(&stamp).unwrap()).unwrap();
    }
}
