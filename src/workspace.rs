//! Finding the course workspace and the paths inside it.

use std::path::{Path, PathBuf};

use crate::course::Exercise;

/// A folder holding a course catalogue (`exercises/<course>/info.toml`): the learner's files and
/// the private `.tutor/` folder.
#[derive(Debug, Clone)]
pub struct Workspace {
    root: PathBuf,
}

/// Why no workspace could be opened.
#[derive(Debug)]
pub enum WorkspaceError {
    /// `--workspace DIR` names a folder without a catalogue.
    NotAWorkspace(PathBuf),
    /// Neither the current folder nor any parent holds one.
    NotFound,
}

impl Workspace {
    /// `explicit` (from `--workspace`) must be a workspace; otherwise the nearest folder at or
    /// above `start` that is one.
    pub fn find(explicit: Option<&Path>, start: &Path) -> Result<Workspace, WorkspaceError> {
        if let Some(dir) = explicit {
            let dir = if dir.is_absolute() { dir.to_path_buf() } else { start.join(dir) };
            return if is_workspace(&dir) {
                Ok(Workspace { root: canonical(&dir) })
            } else {
                Err(WorkspaceError::NotAWorkspace(dir))
            };
        }
        start
            .ancestors()
            .find(|dir| is_workspace(dir))
            .map(|dir| Workspace { root: canonical(dir) })
            .ok_or(WorkspaceError::NotFound)
    }

    /// A workspace at `root` as it is, catalogue or not: a private scratch folder that tutor
    /// fills itself (`tutor dev check` grades stubs and solutions there).
    pub fn at(root: &Path) -> Workspace {
        Workspace { root: root.to_path_buf() }
    }

    /// The workspace folder.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// The learner's file for an exercise.
    pub fn exercise_file(&self, exercise: &Exercise) -> PathBuf {
        self.root.join(&exercise.file)
    }

    /// The private folder: progress, the grading harness, backups. Git-ignored.
    pub fn private_dir(&self) -> PathBuf {
        self.root.join(".tutor")
    }
}

/// A folder with a course catalogue: `exercises/<course>/info.toml`, or the one-course layout's
/// `exercises/info.toml` (migrated on open, see `migrate`).
pub fn is_workspace(dir: &Path) -> bool {
    let exercises = dir.join("exercises");
    exercises.join("info.toml").is_file()
        || std::fs::read_dir(&exercises)
            .map(|entries| entries.flatten().any(|e| e.path().join("info.toml").is_file()))
            .unwrap_or(false)
}

fn canonical(dir: &Path) -> PathBuf {
    dir.canonicalize().unwrap_or_else(|_| dir.to_path_buf())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_the_nearest_workspace_above_and_rejects_a_wrong_explicit_one() {
        let tmp = std::env::temp_dir().join(format!("tutor-ws-test-{}", std::process::id()));
        let nested = tmp.join("exercises").join("deeper");
        std::fs::create_dir_all(&nested).unwrap();
        std::fs::create_dir_all(tmp.join("exercises/rmsnorm")).unwrap();
        std::fs::write(tmp.join("exercises/rmsnorm/info.toml"), "").unwrap();
        let found = Workspace::find(None, &nested).unwrap();
        assert_eq!(found.root(), tmp.canonicalize().unwrap());
        assert!(matches!(Workspace::find(Some(&nested), &nested), Err(WorkspaceError::NotAWorkspace(_))));
        assert!(Workspace::find(Some(Path::new(".")), &tmp).is_ok());
        std::fs::remove_dir_all(&tmp).unwrap();
    }
}
