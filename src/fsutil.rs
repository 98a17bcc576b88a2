//! Writing files so that a crash or a kill never leaves half of one, and tidying up after a
//! process that was killed between writing its temporary file and renaming it; [`regular`]
//! opens and reads every file tutor uses for itself.

pub mod below;
pub mod regular;

use std::fs;
use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::{Context, Result};

/// A write takes milliseconds: a temporary file a minute old belongs to no write in progress,
/// even when a process with its pid runs (pids are reused).
const STALE_AFTER: Duration = Duration::from_secs(60);

/// Context for a file operation that names the file, so that a refused write can be reported
/// against the file the learner knows (`.tutor/state.toml`, not its temporary twin).
#[derive(Debug)]
pub struct OnFile {
    path: PathBuf,
    writing: bool,
}

impl OnFile {
    /// Writing (or creating, renaming, removing) `path`.
    pub fn write(path: &Path) -> Self {
        OnFile { path: path.to_path_buf(), writing: true }
    }

    /// Reading `path`.
    pub fn read(path: &Path) -> Self {
        OnFile { path: path.to_path_buf(), writing: false }
    }

    /// The file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Whether it was a write (false: a read).
    pub fn writing(&self) -> bool {
        self.writing
    }
}

impl std::fmt::Display for OnFile {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let verb = if self.writing { "writing" } else { "reading" };
        write!(f, "{verb} {}", self.path.display())
    }
}

/// Every file below `dir` (cargo's `target/` folders left out), by its `/`-separated path
/// relative to `root` and its full path, sorted by the former. A folder that does not exist has
/// no files.
pub fn files_below(root: &Path, dir: &Path) -> Result<Vec<(String, PathBuf)>> {
    fn walk(root: &Path, dir: &Path, out: &mut Vec<(String, PathBuf)>) -> Result<()> {
        let entries = match fs::read_dir(dir) {
            Ok(entries) => entries,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
            Err(e) => return Err(e).with_context(|| OnFile::read(dir)),
        };
        for entry in entries {
            let path = entry.with_context(|| OnFile::read(dir))?.path();
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
    let mut out = Vec::new();
    walk(root, dir, &mut out)?;
    out.sort();
    Ok(out)
}

/// Replaces `path` with `contents` (through a renamed temporary file) unless it already holds them.
/// What is there is read only if it is a regular file of at most the new contents' size (a FIFO
/// or a device there is replaced unread); a link there is replaced, its target left as it is.
pub fn write_if_changed(path: &Path, contents: &str) -> Result<()> {
    let current = regular::read_bytes(path, contents.len() as u64, regular::Links::Refuse);
    if current.is_ok_and(|current| current == contents.as_bytes()) {
        return Ok(());
    }
    let dir = path.parent().context("a file path has a parent")?;
    fs::create_dir_all(dir).with_context(|| OnFile::write(dir))?;
    remove_leftover_temporaries(dir, |stem| stem.len() > 1 && stem.starts_with('.'), false);
    let temporary = dir.join(format!(
        ".{}.tmp-{}",
        path.file_name().and_then(|n| n.to_str()).unwrap_or("file"),
        std::process::id()
    ));
    // A name left by another process (or planted, as a link out of the folder) is removed first,
    // and the temporary is created anew: a write never goes through a link.
    let _ = fs::remove_file(&temporary);
    let written = fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&temporary)
        .and_then(|mut file| std::io::Write::write_all(&mut file, contents.as_bytes()))
        .and_then(|()| fs::rename(&temporary, path));
    if written.is_err() {
        // Best effort: a failed write (a full disk) should not leave its half behind.
        let _ = fs::remove_file(&temporary);
    }
    written.with_context(|| OnFile::write(path))
}

/// Removes the temporary files `<stem>.tmp-<pid>` in `dir` whose stem `is_ours` accepts and
/// that no write still needs: their process is gone, or they are older than a minute. With
/// `all`, the caller holds the lock every such write happens under, so none is in progress.
/// Failures are ignored: a leftover file is untidy, never harmful.
pub fn remove_leftover_temporaries(dir: &Path, is_ours: impl Fn(&str) -> bool, all: bool) {
    let Ok(entries) = fs::read_dir(dir) else { return };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some((stem, pid)) = name.to_str().and_then(|n| n.rsplit_once(".tmp-")) else { continue };
        let Ok(pid) = pid.parse::<u32>() else { continue };
        if !is_ours(stem) {
            continue;
        }
        // Our own pid: another thread of this process may be between write and rename.
        let in_use = !all && (pid == std::process::id() || process_runs(pid));
        let old =
            entry.metadata().and_then(|m| m.modified()).is_ok_and(|t| t.elapsed().is_ok_and(|age| age > STALE_AFTER));
        if !in_use || old {
            let _ = fs::remove_file(entry.path());
        }
    }
}

/// Whether a process with this pid exists (signal 0 checks without sending anything).
#[cfg(unix)]
fn process_runs(pid: u32) -> bool {
    // 0 and negative pids name process groups, not one process.
    let Ok(pid) = libc::pid_t::try_from(pid) else { return false };
    if pid <= 0 {
        return false;
    }
    // SAFETY: kill with signal 0 sends nothing; it only reports whether the pid exists.
    let result = unsafe { libc::kill(pid, 0) };
    result == 0 || std::io::Error::last_os_error().raw_os_error() == Some(libc::EPERM)
}

/// Without a way to ask, assume it runs: the age rule still cleans up.
#[cfg(not(unix))]
fn process_runs(_pid: u32) -> bool {
    true
}

/// A folder tutor manages (`.tutor/`, its harness, its backups) that is a symbolic link: tutor
/// removes stray files there, writes and locks, and does none of it through a link, so that
/// nothing outside the course folder is ever deleted or written. Refused rather than replaced,
/// so that a link the learner made on purpose (build output on another disk) is theirs to undo.
#[derive(Debug)]
pub struct LinkedFolder {
    /// The folder.
    pub path: PathBuf,
    /// Where the link points.
    pub target: PathBuf,
}

impl std::fmt::Display for LinkedFolder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} is a link to {}", self.path.display(), self.target.display())
    }
}

impl std::error::Error for LinkedFolder {}

/// Makes sure `dir` is a real folder (creating it and its parents if need be): a symbolic link
/// there is refused with [`LinkedFolder`].
pub fn real_folder(dir: &Path) -> Result<()> {
    if let Ok(metadata) = fs::symlink_metadata(dir) {
        if metadata.file_type().is_symlink() {
            let target = fs::read_link(dir).unwrap_or_default();
            return Err(LinkedFolder { path: dir.to_path_buf(), target }.into());
        }
    }
    fs::create_dir_all(dir).with_context(|| OnFile::write(dir))
}

/// Whether `path` is a file someone may run (an executable bit set; any file elsewhere than Unix).
pub fn is_executable(path: &Path) -> bool {
    let Ok(metadata) = fs::metadata(path) else { return false };
    #[cfg(unix)]
    let runnable = std::os::unix::fs::PermissionsExt::mode(&metadata.permissions()) & 0o111 != 0;
    #[cfg(not(unix))]
    let runnable = true;
    metadata.is_file() && runnable
}

/// Which file `path` is, by what any change to it changes: its real path (links followed), size
/// and modification time. `None` if it cannot be read.
pub fn identity(path: &Path) -> Option<String> {
    let real = fs::canonicalize(path).ok()?;
    let metadata = fs::metadata(&real).ok()?;
    let modified = metadata.modified().ok()?.duration_since(std::time::UNIX_EPOCH).ok()?;
    Some(format!("{} {} {}", real.display(), metadata.len(), modified.as_nanos()))
}

/// Creates and removes a small file in `dir`: can tutor write there?
pub fn probe_writable(dir: &Path) -> std::io::Result<()> {
    let probe = dir.join(format!(".tutor-probe.tmp-{}", std::process::id()));
    let written = fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&probe)
        .and_then(|mut file| std::io::Write::write_all(&mut file, &[0; 4096]).and_then(|()| file.sync_all()));
    let removed = fs::remove_file(&probe);
    written?;
    removed
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp_dir(name: &str) -> std::path::PathBuf {
        let dir = std::env::temp_dir().join(format!("tutor-fsutil-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn unchanged_files_are_not_rewritten() {
        let dir = temp_dir("unchanged");
        let file = dir.join("a.rs");
        write_if_changed(&file, "fn a() {}").unwrap();
        let before = fs::metadata(&file).unwrap().modified().unwrap();
        std::thread::sleep(std::time::Duration::from_millis(20));
        write_if_changed(&file, "fn a() {}").unwrap();
        assert_eq!(fs::metadata(&file).unwrap().modified().unwrap(), before);
        write_if_changed(&file, "fn b() {}").unwrap();
        assert_eq!(fs::read_to_string(&file).unwrap(), "fn b() {}");
        fs::remove_dir_all(&dir).unwrap();
    }

    /// The pid of a process that has ended (and been waited for).
    fn dead_pid() -> u32 {
        let mut child = std::process::Command::new("true").spawn().unwrap();
        let pid = child.id();
        child.wait().unwrap();
        pid
    }

    #[test]
    fn leftovers_of_a_killed_writer_are_removed_and_live_ones_kept() {
        let dir = temp_dir("leftovers");
        let mut alive = std::process::Command::new("sleep").arg("30").spawn().unwrap();
        let dead = dir.join(format!(".a.rs.tmp-{}", dead_pid()));
        let live = dir.join(format!(".b.rs.tmp-{}", alive.id()));
        let learners = dir.join(format!("notes.tmp-{}", dead_pid()));
        for f in [&dead, &live, &learners] {
            fs::write(f, "half a file").unwrap();
        }
        write_if_changed(&dir.join("c.rs"), "fn c() {}").unwrap();
        let _ = alive.kill();
        let _ = alive.wait();
        assert!(!dead.exists(), "a dead process's temporary is removed");
        assert!(live.exists(), "a running process's temporary is kept");
        assert!(learners.exists(), "a file that is not one of ours is kept");
        assert_eq!(fs::read_to_string(dir.join("c.rs")).unwrap(), "fn c() {}");
        fs::remove_dir_all(&dir).unwrap();
    }

    #[cfg(unix)]
    #[test]
    fn nothing_is_written_through_a_link() {
        let dir = temp_dir("links");
        let outside = temp_dir("links-outside");
        fs::write(outside.join("theirs.rs"), "their text").unwrap();
        // A link in place of the file is replaced; a planted temporary name is not written through.
        std::os::unix::fs::symlink(outside.join("theirs.rs"), dir.join("a.rs")).unwrap();
        let planted = dir.join(format!(".a.rs.tmp-{}", std::process::id()));
        std::os::unix::fs::symlink(outside.join("planted.rs"), &planted).unwrap();
        write_if_changed(&dir.join("a.rs"), "ours").unwrap();
        assert_eq!(fs::read_to_string(dir.join("a.rs")).unwrap(), "ours");
        assert!(!fs::symlink_metadata(dir.join("a.rs")).unwrap().file_type().is_symlink());
        assert_eq!(fs::read_to_string(outside.join("theirs.rs")).unwrap(), "their text");
        assert!(!outside.join("planted.rs").exists());
        // A FIFO in place of the file is replaced without waiting on it.
        regular::tests::mkfifo(&dir.join("b.rs"));
        write_if_changed(&dir.join("b.rs"), "ours").unwrap();
        assert_eq!(fs::read_to_string(dir.join("b.rs")).unwrap(), "ours");
        // A managed folder that is a link is refused, and nothing is made through it.
        std::os::unix::fs::symlink(&outside, dir.join("harness")).unwrap();
        let error = real_folder(&dir.join("harness")).unwrap_err();
        assert_eq!(error.downcast_ref::<LinkedFolder>().map(|l| l.target.clone()), Some(outside.clone()));
        real_folder(&dir.join("new/deeper")).unwrap();
        assert!(dir.join("new/deeper").is_dir());
        fs::remove_dir_all(&dir).unwrap();
        fs::remove_dir_all(&outside).unwrap();
    }

    #[test]
    fn a_failed_write_names_the_file_and_leaves_no_temporary() {
        let dir = temp_dir("failed");
        // A path component that is a file fails for root too.
        fs::write(dir.join("blocker"), "").unwrap();
        let error = write_if_changed(&dir.join("blocker").join("x.rs"), "x").unwrap_err();
        assert!(format!("{error:#}").contains("blocker"), "{error:#}");
        assert!(probe_writable(&dir).is_ok());
        assert!(probe_writable(&dir.join("blocker")).is_err());
        assert_eq!(fs::read_dir(&dir).unwrap().count(), 1, "the probe leaves nothing behind");
        fs::remove_dir_all(&dir).unwrap();
    }
}
