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

/// Where an exercise stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ExerciseStatus {
    /// Never checked.
    #[default]
    NotStarted,
    /// Checked, and the last check failed.
    Failing,
    /// The last check passed.
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
}

/// The whole progress file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct State {
    /// Format version.
    pub version: u32,
    /// Progress by exercise id.
    pub exercises: BTreeMap<String, ExerciseProgress>,
}

impl Default for State {
    fn default() -> Self {
        State { version: 1, exercises: BTreeMap::new() }
    }
}

impl State {
    /// The progress of one exercise (default when never touched).
    pub fn of(&self, id: &str) -> ExerciseProgress {
        self.exercises.get(id).cloned().unwrap_or_default()
    }
}

/// What loading found besides the state itself.
#[derive(Debug, Clone, PartialEq)]
pub struct Recovered {
    /// Where the unreadable file was kept.
    pub backup: PathBuf,
    /// Why it could not be read.
    pub reason: String,
}

/// Reads and writes the progress file of one workspace.
pub struct ProgressStore {
    path: PathBuf,
    lock_path: PathBuf,
}

impl ProgressStore {
    /// The store inside a workspace's private folder.
    pub fn new(private_dir: &Path) -> Self {
        ProgressStore { path: private_dir.join("state.toml"), lock_path: private_dir.join("state.lock") }
    }

    /// Reads the state. A file that does not parse is renamed aside (and reported), never lost.
    pub fn load(&self) -> Result<(State, Option<Recovered>)> {
        let text = match fs::read_to_string(&self.path) {
            Ok(text) => text,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok((State::default(), None)),
            Err(e) if e.kind() == std::io::ErrorKind::InvalidData => {
                return self.set_aside("the file is not UTF-8 text".into());
            }
            Err(e) => return Err(e).with_context(|| format!("reading {}", self.path.display())),
        };
        match toml::from_str::<State>(&text) {
            Ok(state) => Ok((state, None)),
            Err(e) => self.set_aside(e.message().to_string()),
        }
    }

    fn set_aside(&self, reason: String) -> Result<(State, Option<Recovered>)> {
        let stamp = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs());
        let backup = self.path.with_file_name(format!("state.toml.corrupt-{stamp}"));
        fs::rename(&self.path, &backup).with_context(|| format!("keeping {} aside", self.path.display()))?;
        Ok((State::default(), Some(Recovered { backup, reason })))
    }

    /// Reads, changes and atomically writes the state under the workspace's progress lock.
    pub fn update<T>(&self, change: impl FnOnce(&mut State) -> T) -> Result<(T, Option<Recovered>)> {
        if let Some(dir) = self.path.parent() {
            fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
        }
        let lock = OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&self.lock_path)
            .with_context(|| format!("opening {}", self.lock_path.display()))?;
        lock.lock().with_context(|| format!("locking {}", self.lock_path.display()))?;
        let (mut state, recovered) = self.load()?;
        let result = change(&mut state);
        self.write(&state)?;
        drop(lock);
        Ok((result, recovered))
    }

    fn write(&self, state: &State) -> Result<()> {
        let text = toml::to_string(state).context("serialising progress")?;
        let temporary = self.path.with_file_name(format!("state.toml.tmp-{}", std::process::id()));
        let mut file = File::create(&temporary).with_context(|| format!("writing {}", temporary.display()))?;
        file.write_all(text.as_bytes())?;
        file.sync_all()?;
        fs::rename(&temporary, &self.path).with_context(|| format!("replacing {}", self.path.display()))?;
        Ok(())
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
        let ((), recovered) = store.update(|s| s.exercises.entry("01-weight".into()).or_default().checks += 1).unwrap();
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
                        store.update(|s| s.exercises.entry("x".into()).or_default().checks += 1).unwrap();
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
}
