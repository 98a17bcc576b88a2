//! The learner's progress in `.tutor/state.toml`: read leniently, written atomically.
//!
//! Every change goes through [`ProgressStore::update`], which holds an exclusive lock on a
//! separate lock file while it reads, changes and writes, so two `tutor` processes never lose
//! each other's updates. The write goes to a temporary file that is synced and renamed over the
//! old one: a kill at any moment leaves either the old or the new state on disk.

use std::collections::BTreeMap;
use std::fs::{self, File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use serde::{Deserialize, Serialize};

use crate::fsutil::regular::{self, FileError, Kind, Links};
use crate::fsutil::remove_leftover_temporaries;
use crate::fsutil::OnFile;

/// Where an exercise stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ExerciseStatus {
    /// Never checked.
    #[default]
    NotStarted,
    /// Checked, never passed, and the last check failed.
    Failing,
    /// A check passed. A pass is kept (as rustlings keeps it): a later failing check, an
    /// experiment after passing, is remembered in [`ExerciseProgress::failed_after_pass`] and
    /// shown, but does not send the learner back.
    Passed,
}

/// One exercise's progress.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct ExerciseProgress {
    /// Result of the last check.
    pub status: ExerciseStatus,
    /// How many checks ran.
    pub checks: u32,
    /// The highest hint level shown.
    pub hints: u32,
    /// Whether the solution was revealed.
    pub revealed: bool,
    /// When the last check failed after the exercise had passed (seconds since the Unix epoch);
    /// `None` once a check passes again.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub failed_after_pass: Option<u64>,
}

/// The whole progress file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct State {
    /// Format version.
    pub version: u32,
    /// Progress by exercise, keyed `course/exercise` (version 2; version 1 keyed by exercise id
    /// alone, and is migrated on open).
    pub exercises: BTreeMap<String, ExerciseProgress>,
    /// The course (chapter) of the last exercise checked: the one being taken, where short names
    /// and "the current exercise" are looked up first (a learner may take chapter 2 before
    /// finishing chapter 1).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub taking: Option<String>,
}

impl Default for State {
    fn default() -> Self {
        State { version: 2, exercises: BTreeMap::new(), taking: None }
    }
}

impl State {
    /// The progress of one exercise (default when never touched).
    pub fn of(&self, id: &str) -> ExerciseProgress {
        self.exercises.get(id).cloned().unwrap_or_default()
    }
}

impl ExerciseProgress {
    /// Counts one check, made at `now` (seconds since the Unix epoch), and keeps its result; a
    /// pass is kept through later failures, which are remembered. The count stops at
    /// `u32::MAX` instead of overflowing: the file is the learner's to edit, so it may already
    /// hold the maximum.
    pub fn record_check(&mut self, passed: bool, now: u64) {
        self.checks = self.checks.saturating_add(1);
        match (passed, self.status) {
            (true, _) => {
                self.status = ExerciseStatus::Passed;
                self.failed_after_pass = None;
            }
            (false, ExerciseStatus::Passed) => self.failed_after_pass = Some(now),
            (false, _) => self.status = ExerciseStatus::Failing,
        }
    }

    /// The hint level to show next: one past the highest seen, at most `total`.
    pub fn next_hint(&self, total: u32) -> u32 {
        self.hints.saturating_add(1).min(total)
    }
}

/// Seconds since the Unix epoch, as the progress file records times.
pub fn now() -> u64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs())
}

/// `secs` (since the Unix epoch) as the learner's wall clock shows it, `14:02`; UTC where the
/// local time zone cannot be read.
pub fn clock(secs: u64) -> String {
    let time = libc::time_t::try_from(secs).unwrap_or(0);
    // SAFETY: `tm` is plain data that `localtime_r` fills; both pointers are valid for the call,
    // and `localtime_r` (unlike `localtime`) keeps no shared state.
    let local = unsafe {
        let mut tm: libc::tm = std::mem::zeroed();
        (!libc::localtime_r(&time, &mut tm).is_null()).then_some((tm.tm_hour, tm.tm_min))
    };
    let (hour, minute) = local.unwrap_or((((secs / 3600) % 24) as i32, ((secs / 60) % 60) as i32));
    format!("{hour:02}:{minute:02}")
}

/// The largest progress file tutor reads. A real one is a few hundred bytes; anything this big
/// was not written by tutor, and reading it whole could exhaust memory.
pub const MAX_STATE_BYTES: u64 = 1024 * 1024;

/// Why the progress file could not be used.
#[derive(Debug, Clone, PartialEq)]
pub enum Unreadable {
    /// Over [`MAX_STATE_BYTES`]; never parsed.
    TooLarge,
    /// Not UTF-8.
    NotUtf8,
    /// Not the TOML of a [`State`]; the parser's message.
    NotToml(String),
    /// Not a regular file (a FIFO, a folder, a device …); never opened for reading.
    NotRegular(Kind),
}

/// What loading found besides the state itself.
#[derive(Debug, Clone, PartialEq)]
pub struct Recovered {
    /// Where the unreadable file was kept.
    pub backup: PathBuf,
    /// Why it could not be read.
    pub reason: Unreadable,
}

/// Reads and writes the progress file of one workspace.
pub struct ProgressStore {
    path: PathBuf,
    lock_path: PathBuf,
}

/// How often [`ProgressStore::load`] looks again when another process set the file aside first.
const LOAD_ATTEMPTS: u32 = 3;

impl ProgressStore {
    /// The store inside a workspace's private folder.
    pub fn new(private_dir: &Path) -> Self {
        ProgressStore { path: private_dir.join("state.toml"), lock_path: private_dir.join("state.lock") }
    }

    /// Reads the state. A file that is too large or does not parse is renamed aside (and
    /// reported), never lost.
    pub fn load(&self) -> Result<(State, Option<Recovered>)> {
        for _ in 1..LOAD_ATTEMPTS {
            if let Some(loaded) = self.load_once()? {
                return Ok(loaded);
            }
        }
        Ok(self.load_once()?.unwrap_or_default())
    }

    /// `None` when the file vanished while it was being set aside (another process did it).
    fn load_once(&self) -> Result<Option<(State, Option<Recovered>)>> {
        // A link is never read through (it could lead to any file the learner can read, and the
        // reason a file does not parse quotes it): set aside like a FIFO, its target left alone.
        let bytes = match regular::read_bytes(&self.path, MAX_STATE_BYTES, Links::Refuse) {
            Ok(bytes) => bytes,
            Err(FileError::Missing) => return Ok(Some((State::default(), None))),
            Err(FileError::TooLarge(_)) => return self.set_aside(Unreadable::TooLarge),
            Err(FileError::NotRegular(kind)) => return self.set_aside(Unreadable::NotRegular(kind)),
            Err(FileError::Io(e)) => return Err(e).with_context(|| OnFile::read(&self.path)),
        };
        let Ok(text) = String::from_utf8(bytes) else { return self.set_aside(Unreadable::NotUtf8) };
        match toml::from_str::<State>(&text) {
            Ok(state) => Ok(Some((state, None))),
            Err(e) => self.set_aside(Unreadable::NotToml(e.message().trim().replace('\n', " "))),
        }
    }

    /// Renames the file to `state.toml.corrupt-<secs>[-<n>]`, a name no earlier backup has:
    /// the name is reserved with `create_new` first, and the rename replaces that empty
    /// placeholder, so two corruptions in the same second never overwrite each other.
    fn set_aside(&self, reason: Unreadable) -> Result<Option<(State, Option<Recovered>)>> {
        let stamp = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs());
        for n in 0..10_000u32 {
            let name =
                if n == 0 { format!("state.toml.corrupt-{stamp}") } else { format!("state.toml.corrupt-{stamp}-{n}") };
            let backup = self.path.with_file_name(name);
            // A folder can only be renamed over a folder (an empty one), anything else over a file.
            let is_folder = fs::symlink_metadata(&self.path).is_ok_and(|m| m.is_dir());
            let reserved = match is_folder {
                true => fs::create_dir(&backup),
                false => OpenOptions::new().write(true).create_new(true).open(&backup).map(drop),
            };
            match reserved {
                Ok(_) => {}
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
                Err(e) => return Err(e).with_context(|| OnFile::write(&backup)),
            }
            return match fs::rename(&self.path, &backup) {
                Ok(()) => Ok(Some((State::default(), Some(Recovered { backup, reason })))),
                Err(e) => {
                    let _ = if is_folder { fs::remove_dir(&backup) } else { fs::remove_file(&backup) };
                    if e.kind() == std::io::ErrorKind::NotFound {
                        Ok(None)
                    } else {
                        Err(e).with_context(|| OnFile::write(&self.path))
                    }
                }
            };
        }
        anyhow::bail!("too many set-aside progress files in {}", self.path.display())
    }

    /// Reads, changes and atomically writes the state under the workspace's progress lock.
    pub fn update<T>(&self, change: impl FnOnce(&mut State) -> T) -> Result<(T, Option<Recovered>)> {
        if let Some(dir) = self.path.parent() {
            // Never written through a link: the state stays in the course folder.
            crate::fsutil::real_folder(dir)?;
        }
        let lock = regular::open_lock(&self.lock_path).map_err(|e| e.at(&self.lock_path, true))?;
        lock.lock().with_context(|| format!("locking {}", self.lock_path.display()))?;
        let (mut state, recovered) = self.load()?;
        let result = change(&mut state);
        self.write(&state)?;
        if let Some(dir) = self.path.parent() {
            // Every write of the state happens under this lock, so any temporary left now is
            // from a tutor killed mid-write.
            remove_leftover_temporaries(dir, |stem| stem == "state.toml", true);
        }
        drop(lock);
        Ok((result, recovered))
    }

    fn write(&self, state: &State) -> Result<()> {
        let text = toml::to_string(state).context("serialising progress")?;
        let temporary = self.path.with_file_name(format!("state.toml.tmp-{}", std::process::id()));
        let written = File::create(&temporary)
            .and_then(|mut file| file.write_all(text.as_bytes()).and_then(|()| file.sync_all()))
            .and_then(|()| fs::rename(&temporary, &self.path));
        if written.is_err() {
            // Best effort: a failed write (a full disk) should not leave its half behind.
            let _ = fs::remove_file(&temporary);
        }
        // Named after the file the learner knows, not its temporary twin.
        written.with_context(|| OnFile::write(&self.path))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp_dir(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("tutor-progress-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn a_pass_is_kept_and_a_later_failure_remembered_until_the_next_pass() {
        let mut progress = ExerciseProgress::default();
        progress.record_check(false, 1);
        assert_eq!((progress.status, progress.failed_after_pass), (ExerciseStatus::Failing, None));
        progress.record_check(true, 2);
        progress.record_check(false, 3);
        progress.record_check(false, 4);
        assert_eq!((progress.status, progress.failed_after_pass), (ExerciseStatus::Passed, Some(4)));
        progress.record_check(true, 5);
        assert_eq!((progress.status, progress.failed_after_pass, progress.checks), (ExerciseStatus::Passed, None, 5));
    }

    #[test]
    fn updates_round_trip_through_the_file() {
        let dir = temp_dir("roundtrip");
        let store = ProgressStore::new(&dir);
        store.update(|s| s.exercises.entry("02-norm".into()).or_default().hints = 2).unwrap();
        store.update(|s| s.exercises.entry("02-norm".into()).or_default().status = ExerciseStatus::Passed).unwrap();
        let (state, recovered) = store.load().unwrap();
        assert_eq!(recovered, None);
        assert_eq!(
            state.of("02-norm"),
            ExerciseProgress { status: ExerciseStatus::Passed, hints: 2, ..Default::default() }
        );
        assert!(fs::read_dir(&dir).unwrap().all(|e| !e.unwrap().file_name().to_string_lossy().contains(".tmp-")));
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_corrupt_file_is_kept_aside_and_progress_continues() {
        let dir = temp_dir("corrupt");
        fs::write(dir.join("state.toml"), "this is = = not toml [").unwrap();
        let store = ProgressStore::new(&dir);
        let ((), recovered) = store.update(|s| s.exercises.entry("01-weight".into()).or_default().checks = 1).unwrap();
        let recovered = recovered.expect("the corrupt file is reported");
        assert_eq!(fs::read_to_string(&recovered.backup).unwrap(), "this is = = not toml [");
        assert_eq!(store.load().unwrap().0.of("01-weight").checks, 1);
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn concurrent_updates_are_not_lost() {
        let dir = temp_dir("concurrent");
        let threads: Vec<_> = (0..4)
            .map(|_| {
                let dir = dir.clone();
                std::thread::spawn(move || {
                    let store = ProgressStore::new(&dir);
                    for _ in 0..10 {
                        store.update(|s| s.exercises.entry("x".into()).or_default().record_check(false, 0)).unwrap();
                    }
                })
            })
            .collect();
        for t in threads {
            t.join().unwrap();
        }
        assert_eq!(ProgressStore::new(&dir).load().unwrap().0.of("x").checks, 40);
        fs::remove_dir_all(&dir).unwrap();
    }

    fn corrupt_backups(dir: &Path) -> Vec<PathBuf> {
        let mut found: Vec<PathBuf> = fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.file_name().unwrap().to_string_lossy().starts_with("state.toml.corrupt-"))
            .collect();
        found.sort();
        found
    }

    #[test]
    fn two_corruptions_in_the_same_second_keep_two_backups() {
        let dir = temp_dir("twice");
        let store = ProgressStore::new(&dir);
        fs::write(dir.join("state.toml"), "first = = broken").unwrap();
        let (_, first) = store.load().unwrap();
        fs::write(dir.join("state.toml"), "second [[ broken").unwrap();
        let (_, second) = store.load().unwrap();
        let (first, second) = (first.unwrap().backup, second.unwrap().backup);
        assert_ne!(first, second);
        assert_eq!(fs::read_to_string(&first).unwrap(), "first = = broken");
        assert_eq!(fs::read_to_string(&second).unwrap(), "second [[ broken");
        assert_eq!(corrupt_backups(&dir).len(), 2, "no placeholder is left behind");
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn counters_stop_at_the_maximum_instead_of_overflowing() {
        let dir = temp_dir("saturate");
        // A hand-edited file at the very top of the range.
        fs::write(dir.join("state.toml"), "[exercises.02-norm]\nchecks = 4294967295\nhints = 4294967295\n").unwrap();
        let store = ProgressStore::new(&dir);
        let (state, recovered) = store.load().unwrap();
        assert_eq!(recovered, None);
        assert_eq!(state.of("02-norm").next_hint(3), 3);
        store.update(|s| s.exercises.entry("02-norm".into()).or_default().record_check(true, 0)).unwrap();
        let progress = store.load().unwrap().0.of("02-norm");
        assert_eq!((progress.checks, progress.status), (u32::MAX, ExerciseStatus::Passed));
        assert_eq!(ExerciseProgress::default().next_hint(3), 1);
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_file_over_one_mebibyte_is_set_aside_unread() {
        let dir = temp_dir("large");
        // Valid TOML: refused for its size alone.
        let large = format!("version = 1\n# {}\n", "x".repeat(MAX_STATE_BYTES as usize));
        fs::write(dir.join("state.toml"), &large).unwrap();
        let store = ProgressStore::new(&dir);
        let (state, recovered) = store.load().unwrap();
        let recovered = recovered.expect("the large file is reported");
        assert_eq!(recovered.reason, Unreadable::TooLarge);
        assert_eq!(state, State::default());
        assert_eq!(fs::read_to_string(&recovered.backup).unwrap(), large);
        assert!(!dir.join("state.toml").exists());
        // Exactly the limit is still read.
        let at_limit = format!("version = 1\n#{}\n", "x".repeat(MAX_STATE_BYTES as usize - 14));
        assert_eq!(at_limit.len() as u64, MAX_STATE_BYTES);
        fs::write(dir.join("state.toml"), &at_limit).unwrap();
        assert_eq!(store.load().unwrap().1, None);
        fs::remove_dir_all(&dir).unwrap();
    }

    #[cfg(unix)]
    #[test]
    fn what_is_not_a_file_is_set_aside_unread_and_a_hostile_lock_refused() {
        let dir = temp_dir("not-regular");
        let store = ProgressStore::new(&dir);
        crate::fsutil::regular::tests::mkfifo(&dir.join("state.toml"));
        let (state, recovered) = store.load().unwrap();
        let recovered = recovered.expect("the FIFO is reported");
        assert_eq!((state, recovered.reason), (State::default(), Unreadable::NotRegular(Kind::Fifo)));
        assert!(fs::symlink_metadata(&recovered.backup).is_ok_and(|m| !m.is_file()), "the FIFO itself is kept");
        fs::create_dir(dir.join("state.toml")).unwrap();
        fs::write(dir.join("state.toml/inside"), "kept").unwrap();
        let recovered = store.load().unwrap().1.expect("the folder is reported");
        assert_eq!(recovered.reason, Unreadable::NotRegular(Kind::Directory));
        assert_eq!(fs::read_to_string(recovered.backup.join("inside")).unwrap(), "kept");
        store.update(|s| s.version = 2).unwrap();
        assert!(dir.join("state.toml").is_file(), "progress goes on in a fresh file");
        fs::remove_file(dir.join("state.lock")).unwrap();
        crate::fsutil::regular::tests::mkfifo(&dir.join("state.lock"));
        let error = store.update(|s| s.version = 2).unwrap_err();
        assert!(error.downcast_ref::<crate::fsutil::regular::NotAFile>().is_some(), "{error:#}");
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn an_update_removes_temporaries_left_by_a_killed_tutor() {
        let dir = temp_dir("leftover");
        let leftovers = [dir.join("state.toml.tmp-1"), dir.join("state.toml.tmp-4000000")];
        for leftover in &leftovers {
            fs::write(leftover, "version = 1\n[exerc").unwrap();
        }
        fs::write(dir.join("notes.tmp-1"), "not ours").unwrap();
        ProgressStore::new(&dir).update(|s| s.version = 1).unwrap();
        for leftover in &leftovers {
            assert!(!leftover.exists(), "{} is removed", leftover.display());
        }
        assert!(dir.join("notes.tmp-1").exists());
        fs::remove_dir_all(&dir).unwrap();
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn a_full_disk_is_reported_against_the_state_file() {
        let dir = temp_dir("full");
        // The temporary file of this process's next write is /dev/full, which answers every
        // write with ENOSPC: the write path meets a real full disk.
        let temporary = dir.join(format!("state.toml.tmp-{}", std::process::id()));
        std::os::unix::fs::symlink("/dev/full", &temporary).unwrap();
        let error = ProgressStore::new(&dir).update(|s| s.version = 1).unwrap_err();
        let failure = crate::errors::storage_failure(&error).expect("a storage failure");
        assert_eq!(failure.cause, crate::errors::StorageCause::Full);
        assert_eq!(failure.path.as_deref(), Some(dir.join("state.toml").as_path()));
        assert!(failure.writing);
        assert!(!dir.join("state.toml").exists());
        assert!(fs::symlink_metadata(&temporary).is_err(), "the failed temporary is removed");
        fs::remove_dir_all(&dir).unwrap();
    }
}
