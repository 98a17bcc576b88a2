//! Bringing a workspace up to date with the courses this tutor carries, losing nothing:
//! - a workspace from the one-course layout (`exercises/info.toml`, `exercises/02-norm.rs`) has its
//!   exercise files moved into their course's folder (`exercises/<course>/02-norm.rs`), its old
//!   catalogue kept aside in `.tutor/`, and its progress keys given their course;
//! - a course the workspace does not have yet (a newer tutor carries more) gets its folder;
//! - tutor's own editor project is rewritten when it is not what this tutor writes (it lists
//!   every course, and makes `cargo test` run the checks).
//!
//! A learner's file is never overwritten: when both the old and the new place hold one, both stay.

use std::path::Path;

use anyhow::Result;

use crate::course::catalogue::info_path;
use crate::course::{editor, Catalogue};
use crate::fsutil::below::{no_link_below, remove_file_below, rename_below, write_below};
use crate::fsutil::regular::{read_text, Links};
use crate::fsutil::LinkedFolder;
use crate::progress::{ProgressStore, Recovered, State};

/// What a migration did, for the one line tutor prints about it.
#[derive(Debug, Default, PartialEq)]
pub struct Migrated {
    /// Exercise files moved into their course's folder.
    pub moved: usize,
    /// Courses whose folder was written.
    pub added: Vec<String>,
    /// Progress entries given their course.
    pub progress: usize,
    /// An unreadable progress file set aside while reading it (the session tells the learner).
    pub recovered: Option<Recovered>,
}

impl Migrated {
    /// Whether anything changed.
    pub fn any(&self) -> bool {
        self.moved > 0 || !self.added.is_empty() || self.progress > 0
    }
}

/// Brings the workspace at `root` up to date (see the module documentation).
pub fn run(root: &Path, catalogue: &Catalogue, store: &ProgressStore) -> Result<Migrated> {
    // Every command starts here: tutor's own folder that is a link is refused before anything
    // is read or written through it (each write below looks again at every folder on its way).
    no_link_below(root, &root.join(".tutor"))?;
    let mut migrated = Migrated::default();
    let legacy_catalogue = root.join("exercises/info.toml");
    if legacy_catalogue.is_file() {
        for exercise in &catalogue.exercises {
            let old = root.join("exercises").join(format!("{}.rs", exercise.local));
            let new = root.join(&exercise.file);
            // Only an id no other course uses can be told apart in the old layout.
            let unique = catalogue.exercises.iter().filter(|e| e.local == exercise.local).count() == 1;
            if unique && old.is_file() && !new.exists() {
                rename_below(root, &old, &new)?;
                migrated.moved += 1;
            }
        }
        rename_below(root, &legacy_catalogue, &root.join(".tutor/legacy-info.toml"))?;
    }
    for course in &catalogue.courses {
        if root.join(info_path(&course.id)).is_file() {
            continue;
        }
        for file in course.registered().files.iter().filter(|f| f.path.starts_with("exercises/")) {
            let path = root.join(file.path);
            if !path.exists() {
                write_below(root, &path, file.contents)?;
            }
        }
        migrated.added.push(course.id.clone());
    }
    let (state, recovered) = store.load()?;
    migrated.recovered = recovered;
    if state.exercises.keys().any(|key| !key.contains('/')) {
        let (moved, recovered) = store.update(|state| key_by_course(state, catalogue))?;
        migrated.progress = moved;
        migrated.recovered = migrated.recovered.or(recovered);
    }
    // Also when nothing else changed: a folder written by an older tutor may lack what makes
    // `cargo test` work there. Files are written only when their content changes; when nothing
    // else moved, a folder that cannot be written to (read-only) keeps its editor files and the
    // command goes on: they are for the editor and cargo, not for tutor.
    // A link on the way is refused whatever else happened: the learner is told what it is.
    let refreshed = refresh_editor_project(root, catalogue);
    if migrated.any() || refreshed.as_ref().is_err_and(|e| e.downcast_ref::<LinkedFolder>().is_some()) {
        refreshed?;
    }
    Ok(migrated)
}

/// Gives every progress key without a course the course of the exercise it names (when exactly
/// one course has that id); returns how many it changed. An entry already under the new key wins.
fn key_by_course(state: &mut State, catalogue: &Catalogue) -> usize {
    let legacy: Vec<String> = state.exercises.keys().filter(|k| !k.contains('/')).cloned().collect();
    let mut changed = 0;
    for old in legacy {
        let mut owners = catalogue.exercises.iter().filter(|e| e.local == old);
        let (Some(exercise), None) = (owners.next(), owners.next()) else { continue };
        if let Some(progress) = state.exercises.remove(&old) {
            state.exercises.entry(exercise.key()).or_insert(progress);
            changed += 1;
        }
    }
    state.version = state.version.max(2);
    changed
}

/// Rewrites tutor's own editor project for every course (never a learner's `Cargo.toml`: then
/// tutor's project was not in use).
fn refresh_editor_project(root: &Path, catalogue: &Catalogue) -> Result<()> {
    if read_text(&root.join("Cargo.toml"), Links::Follow).is_some_and(|text| editor::is_ours(&text)) {
        editor::write_project(root, catalogue)?;
        // The one-course layout's single library root.
        remove_file_below(root, &root.join(".tutor/editor/lib.rs"))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::progress::ExerciseStatus;
    use std::fs;

    fn scratch(name: &str) -> std::path::PathBuf {
        let dir = std::env::temp_dir().join(format!("tutor-migrate-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(dir.join("exercises")).unwrap();
        dir
    }

    #[test]
    fn a_one_course_workspace_keeps_its_files_and_progress() {
        let root = scratch("legacy");
        let catalogue = Catalogue::embedded().unwrap();
        fs::write(root.join("exercises/info.toml"), "[course]\n").unwrap();
        fs::write(root.join("exercises/02-norm.rs"), "// my work on norm\n").unwrap();
        fs::create_dir_all(root.join(".tutor")).unwrap();
        fs::write(
            root.join(".tutor/state.toml"),
            "version = 1\n[exercises.02-norm]\nstatus = \"passed\"\nchecks = 3\nhints = 2\n[exercises.no-such]\nchecks = 1\n",
        )
        .unwrap();
        let store = ProgressStore::new(&root.join(".tutor"));
        let migrated = run(&root, &catalogue, &store).unwrap();
        assert_eq!(migrated.moved, 1);
        assert_eq!(migrated.progress, 1);
        let norm = catalogue.resolve("02-norm").unwrap();
        assert_eq!(fs::read_to_string(root.join(&norm.file)).unwrap(), "// my work on norm\n");
        assert!(!root.join("exercises/02-norm.rs").exists());
        assert!(root.join(".tutor/legacy-info.toml").is_file(), "the old catalogue is kept aside");
        let (state, _) = store.load().unwrap();
        let progress = state.of(&norm.key());
        assert_eq!((progress.status, progress.checks, progress.hints), (ExerciseStatus::Passed, 3, 2));
        assert!(state.exercises.contains_key("no-such"), "an entry no course claims is kept as it was");
        for exercise in &catalogue.exercises {
            assert!(root.join(&exercise.file).is_file(), "{} is written", exercise.file);
        }
        assert!(!run(&root, &catalogue, &store).unwrap().any(), "a second run changes nothing");
        fs::remove_dir_all(&root).unwrap();
    }

    #[test]
    fn a_file_in_both_places_is_left_in_both() {
        let root = scratch("both");
        let catalogue = Catalogue::embedded().unwrap();
        let norm = catalogue.resolve("02-norm").unwrap();
        fs::write(root.join("exercises/info.toml"), "").unwrap();
        fs::write(root.join("exercises/02-norm.rs"), "// old\n").unwrap();
        fs::create_dir_all(root.join(&norm.file).parent().unwrap()).unwrap();
        fs::write(root.join(&norm.file), "// new\n").unwrap();
        run(&root, &catalogue, &ProgressStore::new(&root.join(".tutor"))).unwrap();
        assert_eq!(fs::read_to_string(root.join("exercises/02-norm.rs")).unwrap(), "// old\n");
        assert_eq!(fs::read_to_string(root.join(&norm.file)).unwrap(), "// new\n");
        fs::remove_dir_all(&root).unwrap();
    }
}
