//! What the harness held when tutor last wrote it whole, so that a check need not read its
//! 130-odd files again to know they are unchanged (about 2 ms of every check, measured).
//!
//! The stamp (`.tutor/builds/harness.json`) keeps, for the tutor binary and the workspace that
//! wrote it, the harness's fingerprint and every written file's and folder's identity as `lstat`
//! reports it: size, modification time, and on Unix the inode and its change time, which no
//! one but the kernel sets (a file changed with its modification time put back has a new change
//! time). A check trusts the harness as written when all of them are as recorded: an edited or
//! replaced file changes its own, a file or folder added or removed (a planted `build.rs`, a
//! link) its folder's. The learner copies' folders (`exercises/`) are not recorded, as each
//! check writes a copy there: they must hold nothing but copies.
//!
//! Times are trusted as git trusts its index: only those older by more than a file system's
//! coarsest tick than the stamp file's own time (the file system's clock, not this machine's).
//! A file changed within the tick it was written in could keep its time; such a stamp is not
//! trusted, and the next check compares the files (and stamps them again).

use std::fs;
use std::path::Path;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use serde::{Deserialize, Serialize};

/// The coarsest tick of a file system's modification times that tutor allows for (FAT's: 2 s).
const TICK: Duration = Duration::from_secs(2);

/// The harness as tutor last wrote it whole.
#[derive(Debug, Serialize, Deserialize)]
pub struct Stamp {
    /// Who wrote it, for which workspace and exercises ([`key`]).
    key: String,
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
    /// The inode, its device and its change time (Unix; zeros elsewhere).
    inode: (u64, u64, i64, i64),
}

/// Where the stamp of the harness under `private_dir` is kept.
fn path(private_dir: &Path) -> std::path::PathBuf {
    private_dir.join("builds").join("harness.json")
}

/// What the harness's files are a function of: this tutor binary (its courses are compiled in),
/// the harness folder (the programs name their copies by absolute path), and the workspace's
/// exercises (their copies' paths). `None` when tutor cannot tell its own binary apart: every
/// check then compares.
pub fn key(root: &Path, copies: &[String]) -> Option<String> {
    let binary = crate::fsutil::identity(&std::env::current_exe().ok()?)?;
    let build = concat!(env!("CARGO_PKG_VERSION"), " ", env!("TUTOR_COMMIT"));
    Some(format!("{build} {binary} {} {}", root.display(), copies.join(",")))
}

/// The fingerprint of the harness at `root` if its stamp, written for `key`, still holds, and
/// its copies' folder holds only the copies `copies` (paths relative to `root`).
pub fn holds(private_dir: &Path, root: &Path, key: &str, copies: &[String]) -> Option<u64> {
    let file = path(private_dir);
    let taken = nanos(fs::symlink_metadata(&file).ok()?.modified().ok()?)?;
    let text = crate::fsutil::regular::read_text(&file, crate::fsutil::regular::Links::Refuse)?;
    let stamp: Stamp = serde_json::from_str(&text).ok()?;
    let settled_before = taken.checked_sub(TICK.as_nanos())?;
    let settled = |entry: &Entry| entry.modified < settled_before && seen(root, &entry.path).as_ref() == Some(entry);
    (stamp.key == key && stamp.entries.iter().all(settled) && only_copies(root, copies)).then_some(stamp.fingerprint)
}

/// Whether `exercises/` below `root` holds the learner copies `copies` and their folders alone
/// (a copy not yet written is no stray).
fn only_copies(root: &Path, copies: &[String]) -> bool {
    let expected = |relative: &str| copies.iter().any(|c| c == relative || c.starts_with(&format!("{relative}/")));
    let Ok(courses) = fs::read_dir(root.join("exercises")) else { return true };
    courses.flatten().all(|course| {
        let name = format!("exercises/{}", course.file_name().to_string_lossy());
        let real_folder = course.file_type().is_ok_and(|t| t.is_dir());
        let Ok(files) = fs::read_dir(course.path()) else { return false };
        real_folder
            && expected(&name)
            && files.flatten().all(|f| expected(&format!("{name}/{}", f.file_name().to_string_lossy())))
    })
}

/// Stamps the harness at `root` as just written whole: `files` its files (relative paths),
/// every one but the learner copies. A failure only means the next check compares the files.
pub fn take(private_dir: &Path, root: &Path, key: &str, files: &[&str], fingerprint: u64) {
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
    let stamp = Stamp { key: key.to_string(), fingerprint, entries };
    if let Ok(text) = serde_json::to_string(&stamp) {
        // Written anew (not left as it is when equal): its time is the stamp's.
        let file = path(private_dir);
        let _ = crate::fsutil::below::remove_file_below(private_dir, &file);
        let _ = crate::fsutil::below::write_below(private_dir, &file, &text);
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
    #[cfg(unix)]
    let inode = {
        use std::os::unix::fs::MetadataExt;
        (metadata.ino(), metadata.dev(), metadata.ctime(), metadata.ctime_nsec())
    };
    #[cfg(not(unix))]
    let inode = (0, 0, 0, 0);
    let modified = nanos(metadata.modified().ok()?)?;
    Some(Entry { path: relative.to_string(), folder: kind.is_dir(), len: metadata.len(), modified, inode })
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
        let file = fs::File::options().write(true).open(path(private_dir)).unwrap();
        let taken = file.metadata().unwrap().modified().unwrap();
        file.set_modified(taken + by).unwrap();
    }

    /// Writes `fingerprint` in the stamp under `private_dir`, its time kept: a check that
    /// returns it read the stamp and compared no file.
    pub fn mark(private_dir: &Path, fingerprint: u64) {
        let taken = fs::metadata(path(private_dir)).unwrap().modified().unwrap();
        let mut stamp: Stamp = serde_json::from_str(&fs::read_to_string(path(private_dir)).unwrap()).unwrap();
        stamp.fingerprint = fingerprint;
        fs::write(path(private_dir), serde_json::to_string(&stamp).unwrap()).unwrap();
        fs::File::options().write(true).open(path(private_dir)).unwrap().set_modified(taken).unwrap();
    }
}
