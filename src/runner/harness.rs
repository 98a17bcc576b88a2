//! Writes the private grading crate under `.tutor/harness`: the core subject crate
//! (`crates/subject/`) and every course's kit (`courses/<course>/kit/`) at their repository paths,
//! so that their manifests travel verbatim; a copy of each learner file taken by content
//! (`exercises/<course>/`); for each exercise of the course being checked, a package of its own
//! (`programs/<bin>/`) whose one binary (`bins/<bin>.rs`) is its graded program, over its given
//! library (`given/<course>-<exercise>/`, see `super::given`) under the name its file uses,
//! `tutor_kit`; a workspace over them; and a lock file pinning the dependencies (their texts:
//! [`manifests`]).
//!
//! Every file is rewritten from the binary's own copies only when its text differs, so that a
//! changed exercise always rebuilds and an unchanged one never does, whatever its timestamps say.
//! The folder holds exactly these files (and cargo's `target/`): anything else, such as a planted
//! `build.rs`, is removed before a build, and the manifest sets `build = false` besides. A
//! check compares them only when the harness's stamp does not show them as tutor last wrote them
//! ([`stamp`]); the learner's copy is written every time.

use std::collections::BTreeSet;
use std::fs;
use std::hash::{Hash, Hasher};
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};

use super::given;
use crate::course::embedded::{self, EmbeddedFile, HARNESS_LOCK, SUBJECT_FILES};
use crate::course::{Catalogue, Exercise};
use crate::fsutil::OnFile;

mod manifests;
mod moved;
mod stamp;

pub use manifests::Kit;
use manifests::{as_shared_library, kit_dir, lock_file, manifest, program_manifest, GIVEN};

/// Where the harness lives.
pub struct Layout {
    /// The harness folder.
    pub root: PathBuf,
    /// The harness's `Cargo.toml`.
    pub manifest: PathBuf,
    /// Whether cargo has built here before (its target folder exists).
    pub built_before: bool,
    /// A hash of every file written here but the learner files' copies: equal fingerprints,
    /// equal harnesses.
    pub fingerprint: u64,
    /// The file names of the shared libraries tutor builds that the checked exercise's graded
    /// program loads: its course's kit ([`as_shared_library`]) and its given library.
    pub libraries: Vec<String>,
    /// The packages `tutor init` builds ahead of any check: every exercise's given library, and
    /// with them every course's kit, as they depend on it. Never a kit by name: cargo would build
    /// a package named on its command line with its default features, its `reference` module
    /// among them, and every program's first check would build it again without.
    pub library_packages: Vec<String>,
    /// The library the checked exercise's graded program is built on (and so its kit): its given
    /// library.
    pub program_libraries: Vec<String>,
}

impl Layout {
    /// The copy of an exercise's learner file that the harness compiles.
    pub fn learner_copy(&self, exercise: &Exercise) -> PathBuf {
        self.root.join(copy_path(exercise))
    }

    /// The harness's own source for an exercise's graded program.
    pub fn bin_source(&self, exercise: &Exercise) -> PathBuf {
        self.root.join(bin_path(exercise))
    }

    /// Every file an exercise's graded program may be compiled from: its own source and the copy
    /// of the learner's file (its given pieces are its given library's).
    pub fn program_sources(&self, exercise: &Exercise) -> Vec<PathBuf> {
        vec![self.bin_source(exercise), self.learner_copy(exercise)]
    }
}

/// Where the harness keeps its copy of `exercise`'s learner file; panics and compiler messages
/// name this path, and tutor shows the learner's own in its place.
pub fn learner_copy_in(private_dir: &Path, exercise: &Exercise) -> PathBuf {
    private_dir.join("harness").join(copy_path(exercise))
}

/// The cargo binary target that grades `exercise`.
pub fn bin_name(exercise: &Exercise) -> String {
    format!("ex-{}-{}", exercise.course, exercise.local)
}

fn bin_path(exercise: &Exercise) -> String {
    format!("bins/{}.rs", bin_name(exercise))
}

/// The folder of the package of `exercise`'s graded program.
fn program_dir(exercise: &Exercise) -> String {
    format!("programs/{}", bin_name(exercise))
}

fn copy_path(exercise: &Exercise) -> String {
    format!("exercises/{}/{}.rs", exercise.course, exercise.local)
}

/// The name the harness depends on the course's kit by. The kit is built without its `reference`
/// feature: each graded program is its exercise's `tutor_kit` itself (`extern crate self as
/// tutor_kit`), the kit's core re-exported, with its own `reference` module ([`pieces`]).
pub const KIT_CORE: &str = "tutor_kit_core";

/// The graded program of one exercise: its given library (the kit's core and the exercise's
/// given pieces) under the name its file uses, `tutor_kit`; the learner's file as a module; a
/// `main` answering tutor's requests.
fn bin_source(exercise: &Exercise, copy: &Path) -> String {
    // `{:?}` writes a Rust string literal with every special character escaped. The path is
    // absolute so that rustc's messages name the copy exactly, and tutor can show the learner's
    // own path in its place.
    let path = format!("{:?}", copy.to_string_lossy());
    format!(
        "// Written by tutor: the graded program of {id}. Edits here are overwritten.\n\
         extern crate self as tutor_kit;\n\n\
         #[allow(unused_imports)]\npub use {GIVEN}::*;\n\n\
         #[path = {path}]\nmod exercise;\n\n\
         fn main() -> std::process::ExitCode {{\n{main}}}\n",
        id = exercise.id,
        main = super::served::main_body(exercise),
    )
}

/// Writes (or refreshes) the harness under `private_dir/harness`, with `learner_text` as the
/// copy of `exercise`'s file, and removes whatever else is there. When the harness is as tutor
/// last wrote it ([`stamp`]), only the copy is written.
pub fn write(private_dir: &Path, catalogue: &Catalogue, exercise: &Exercise, learner_text: &str) -> Result<Layout> {
    let root = private_dir.join("harness");
    // The cleanup below never follows a link (entries are told apart by their own type), and
    // the folder it starts from must not be one either.
    crate::fsutil::real_folder(private_dir)?;
    crate::fsutil::real_folder(&root)?;
    let copies: Vec<String> = catalogue.exercises.iter().map(copy_path).collect();
    let key = stamp::key(&root, &copies);
    let copy = copy_path(exercise);
    let fingerprint = match key.as_deref().and_then(|key| stamp::holds(private_dir, &root, key, &copies)) {
        Some(fingerprint) => {
            crate::fsutil::below::write_below(&root, &root.join(&copy), learner_text)?;
            fingerprint
        }
        // A harness moved with its folder never keeps its stamp (the stamp names the folder).
        None => {
            moved::forget_programs_built_elsewhere(&root)?;
            let files = files(catalogue, &root, &copy, learner_text);
            // Copies of the other exercises' files stay (they are tutor's, from earlier checks).
            let keep: BTreeSet<String> =
                files.iter().map(|(path, _)| path.clone()).chain(catalogue.exercises.iter().map(copy_path)).collect();
            remove_strays(&root, &root, &keep)?;
            let mut fingerprint = std::hash::DefaultHasher::new();
            for (path, contents) in &files {
                crate::fsutil::below::write_below(&root, &root.join(path), contents)?;
                if *path != copy {
                    (path, contents).hash(&mut fingerprint);
                }
            }
            let fingerprint = fingerprint.finish();
            if let Some(key) = &key {
                let written: Vec<&str> = files.iter().map(|(path, _)| path.as_str()).filter(|p| *p != copy).collect();
                stamp::take(private_dir, &root, key, &written, fingerprint);
            }
            fingerprint
        }
    };
    let kit = Kit::of(&exercise.course);
    Ok(Layout {
        manifest: root.join("Cargo.toml"),
        built_before: is_built(private_dir),
        fingerprint,
        libraries: vec![kit.library_file(), given::library_file(exercise)],
        library_packages: catalogue.exercises.iter().map(given::package).collect(),
        program_libraries: vec![given::package(exercise)],
        root,
    })
}

/// Every file of the harness at `root` (paths relative to it) with its text, `learner_text` as
/// the copy at `copy`.
fn files(catalogue: &Catalogue, root: &Path, copy: &str, learner_text: &str) -> Vec<(String, String)> {
    let mut files: Vec<(String, String)> = vec![
        ("Cargo.lock".into(), lock_file(catalogue)),
        ("Cargo.toml".into(), manifest(catalogue)),
        (copy.to_string(), learner_text.to_string()),
    ];
    // Every course's kit, so that the editor project resolves every course's exercises.
    for file in SUBJECT_FILES.iter() {
        files.push((file.path.to_string(), file.contents.to_string()));
    }
    for course in embedded::courses() {
        let manifest_path = format!("{}/Cargo.toml", kit_dir(course.id));
        for file in course.kit {
            let contents = match file.path == manifest_path {
                true => as_shared_library(file.contents),
                false => file.contents.to_string(),
            };
            files.push((file.path.to_string(), contents));
        }
    }
    for other in &catalogue.exercises {
        let kit = Kit::of(&other.course);
        files.push((bin_path(other), bin_source(other, &root.join(copy_path(other)))));
        files.push((format!("{}/Cargo.toml", program_dir(other)), program_manifest(other, kit)));
        let given_dir = given::dir(other);
        let given_manifest = given::manifest(other, &kit.dir, kit.package(), &kit.registry_dependency_lines());
        files.push((format!("{given_dir}/Cargo.toml"), given_manifest));
        files.push((format!("{given_dir}/lib.rs"), given::source(other)));
        files.push((format!("{given_dir}/reference.rs"), given::reference_source(other)));
    }
    files
}

/// Whether some course's kit is not in the harness under `private_dir` (the editor project
/// names every one of them).
pub fn kits_missing(private_dir: &Path, catalogue: &Catalogue) -> bool {
    catalogue
        .courses
        .iter()
        .any(|course| !private_dir.join("harness").join(kit_dir(&course.id)).join("Cargo.toml").is_file())
}

/// Removes every file and folder below `dir` that is not in `keep` (paths relative to `root`),
/// except cargo's `target/` at the top.
fn remove_strays(root: &Path, dir: &Path, keep: &BTreeSet<String>) -> Result<()> {
    let entries = match fs::read_dir(dir) {
        Ok(entries) => entries,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
        Err(e) => return Err(e).with_context(|| format!("reading {}", dir.display())),
    };
    for entry in entries {
        let entry = entry.with_context(|| format!("reading {}", dir.display()))?;
        let path = entry.path();
        let relative = path.strip_prefix(root).unwrap_or(&path).to_string_lossy().replace('\\', "/");
        let kind = entry.file_type().with_context(|| format!("reading {}", path.display()))?;
        if kind.is_dir() && !kind.is_symlink() {
            if relative == "target" {
                continue;
            }
            let prefix = format!("{relative}/");
            if keep.iter().any(|k| k.starts_with(&prefix)) {
                remove_strays(root, &path, keep)?;
                continue;
            }
            fs::remove_dir_all(&path).with_context(|| OnFile::write(&path))?;
        } else if !keep.contains(&relative) {
            fs::remove_file(&path).with_context(|| OnFile::write(&path))?;
        }
    }
    Ok(())
}

/// Whether cargo has built the harness in this private folder before (its target folder exists).
pub fn is_built(private_dir: &Path) -> bool {
    private_dir.join("harness").join("target").is_dir()
}

#[cfg(test)]
mod tests;
