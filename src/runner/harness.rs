//! Writes the private grading crate under `.tutor/harness`: the core subject crate
//! (`crates/subject/`) and every course's kit (`courses/<course>/kit/`) at their repository paths,
//! so that their manifests travel verbatim; a copy of each learner file taken by content
//! (`exercises/<course>/`); for each exercise of the course being checked, a package of its own
//! (`programs/<bin>/`) whose one binary (`bins/<bin>.rs`) is its graded program, over its given
//! library (`given/<course>-<exercise>/`, see `super::given`) under the name its file uses,
//! `tutor_kit`; a workspace over them; and a lock file pinning the dependencies.
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

mod moved;
mod stamp;

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

/// A crate's manifest among the embedded files under `dir`.
fn manifest_of(files: &[EmbeddedFile], dir: &str) -> Option<(&'static str, toml::Table)> {
    let path = format!("{dir}/Cargo.toml");
    let text = files.iter().find(|f| f.path == path)?.contents;
    toml::from_str(text).ok().map(|table| (text, table))
}

/// The `[package]` field `key` of a manifest.
fn package_field<'a>(manifest: &'a toml::Table, key: &str) -> Option<&'a str> {
    manifest.get("package").and_then(|p| p.get(key)).and_then(|v| v.as_str())
}

/// A course's kit as its manifest describes it, read once for everything the harness and the
/// editor project need of it.
pub struct Kit {
    /// Where it sits, in the repository and in the harness: `courses/<course>/kit`.
    dir: String,
    /// Its manifest's text and table (empty for a course not registered).
    text: &'static str,
    manifest: toml::Table,
}

impl Kit {
    /// The kit of `course`, its manifest parsed once per process (a check writes the harness
    /// from every course's kit, several times over).
    pub fn of(course: &str) -> &'static Kit {
        static KITS: std::sync::OnceLock<std::sync::Mutex<Vec<&'static Kit>>> = std::sync::OnceLock::new();
        let kits = KITS.get_or_init(Default::default);
        let mut kits = kits.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        let dir = kit_dir(course);
        if let Some(kit) = kits.iter().find(|k| k.dir == dir) {
            return kit;
        }
        let (text, manifest) = embedded::registered(course).and_then(|c| manifest_of(c.kit, &dir)).unwrap_or_default();
        // Leaked once per course: the kits live as long as the process anyway.
        let kit: &'static Kit = Box::leak(Box::new(Kit { dir, text, manifest }));
        kits.push(kit);
        kit
    }

    /// Its package name (its exercises know it as `tutor_kit`).
    pub fn package(&self) -> &str {
        package_field(&self.manifest, "name").unwrap_or_default()
    }

    /// The file name of the shared library it is built as ([`as_shared_library`]): named after
    /// its `[lib]` name, or its package's with `-` written `_`, as cargo names it.
    fn library_file(&self) -> String {
        let lib_name = self.manifest.get("lib").and_then(|l| l.get("name")).and_then(|n| n.as_str());
        let name = lib_name.map(str::to_string).unwrap_or_else(|| self.package().replace('-', "_"));
        format!("lib{name}.so")
    }

    /// Where the editor project finds it in the harness, relative to the workspace.
    pub fn in_workspace(&self) -> String {
        format!(".tutor/harness/{}", self.dir)
    }

    /// Its registry dependencies, as its manifest has them: exercise files `use` them directly
    /// (its path dependencies are its own business).
    pub fn registry_dependency_lines(&self) -> String {
        let lines = self.text.lines().skip_while(|l| l.trim() != "[dependencies]").skip(1);
        lines
            .take_while(|l| !l.trim_start().starts_with('['))
            .filter(|l| !l.trim_start().starts_with('#') && !l.contains("path ="))
            .collect::<Vec<_>>()
            .join("\n")
    }

    /// The packages it depends on, registry ones alone or all.
    fn dependencies(&self, with_paths: bool) -> Vec<String> {
        lock_dependencies(&self.manifest, with_paths)
    }
}

/// The package names of a manifest's dependencies (a renamed one by its `package`), those with
/// a `path` only when `with_paths`.
fn lock_dependencies(manifest: &toml::Table, with_paths: bool) -> Vec<String> {
    let Some(deps) = manifest.get("dependencies").and_then(|d| d.as_table()) else { return Vec::new() };
    deps.iter()
        .filter(|(_, spec)| with_paths || spec.get("path").is_none())
        .map(|(key, spec)| spec.get("package").and_then(|p| p.as_str()).unwrap_or(key).to_string())
        .collect()
}

/// The harness's manifest: a workspace of one package per exercise of every course (its graded
/// program, see [`program_manifest`]), whose given libraries, the courses' kits and the core
/// subject crate join it as their path dependencies; and the profile every crate is built with.
/// Every course's programs at once, so that checking one course never rewrites another's (which
/// would rebuild its given libraries).
fn manifest(catalogue: &Catalogue) -> String {
    let mut text = String::from(
        "# Written by tutor before every check; edits here are overwritten.\n\
         # Its own workspace, so that an enclosing Cargo workspace never claims it.\n\
         [workspace]\nresolver = \"2\"\nmembers = [\n",
    );
    for exercise in &catalogue.exercises {
        text.push_str(&format!("    \"{}\",\n", program_dir(exercise)));
    }
    text.push_str(
        "]\n\n\
         # No debug info. Incremental compilation pays off for the binaries, which are rebuilt at every\n\
         # check, and not for the libraries, which are built once (measured: 0.7 s off the first check).\n\
         [profile.dev]\ndebug = 0\n\n\
         # The libraries optimised: tutor_subject and the kits move every array between tutor and the\n\
         # learner's code, element by element; the kits and the given libraries hold the given\n\
         # methods. Measured on rmsnorm 04, interleaved: tutor_subject alone took an unchanged check\n\
         # from 42 to 31 ms; with the kit too, 23 ms against 26 before issue 21's cases. Opt-level 1\n\
         # still shares generic instances with the programs (see `given`).\n\
         # One codegen unit each: with more, an optimised crate goes through ThinLTO across its\n\
         # units, which took most of tutor_subject's build (8 of 12 s; see bench/HISTORY.md).\n\
         [profile.dev.package.tutor_subject]\nincremental = false\nopt-level = 1\ncodegen-units = 1\n\n",
    );
    for course in &catalogue.courses {
        text.push_str(&optimised_library(Kit::of(&course.id).package()));
    }
    // The graded programs in four codegen units instead of incremental builds' 256: fewer
    // objects to write, persist and link (measured on rmsnorm 04: a re-check's rustc 100 -> 84
    // ms, a first build 258 -> 214 ms; 8 and 16 units fall between; see bench/speed.sh).
    for exercise in &catalogue.exercises {
        text.push_str(&optimised_library(&given::package(exercise)));
        text.push_str(&format!("[profile.dev.package.{}]\ncodegen-units = 4\n\n", bin_name(exercise)));
    }
    text
}

/// The profile of a library built once: optimised, in one codegen unit, not incremental.
fn optimised_library(package: &str) -> String {
    format!("[profile.dev.package.{package}]\nincremental = false\nopt-level = 1\ncodegen-units = 1\n\n")
}

/// The package of `exercise`'s graded program: its one binary, over its given library (as
/// `tutor_given`) and the kit's registry dependencies, which exercise files `use` directly.
fn program_manifest(exercise: &Exercise, kit: &Kit) -> String {
    let name = bin_name(exercise);
    format!(
        "# Written by tutor: the graded program of {id}. Edits here are overwritten.\n\
         {package}\
         [[bin]]\nname = \"{name}\"\npath = \"../../{bin}\"\n\n\
         [dependencies]\n{GIVEN} = {{ path = \"../../{given_dir}\", package = \"{given}\" }}\n{registry}\n",
        id = exercise.id,
        package = given::package_section(&name),
        bin = bin_path(exercise),
        given_dir = given::dir(exercise),
        given = given::package(exercise),
        registry = kit.registry_dependency_lines(),
    )
}

/// The name a graded program depends on its given library by.
const GIVEN: &str = "tutor_given";

/// The harness's lock file: the registry packages as measured (`HARNESS_LOCK`), and the path
/// packages (each exercise's program and given library, each course's kit, the core subject
/// crate) from what their manifests say, in the order and form cargo writes, so that
/// `cargo build --locked` accepts it unchanged.
fn lock_file(catalogue: &Catalogue) -> String {
    let mut blocks: Vec<(String, String)> = HARNESS_LOCK
        .split("\n[[package]]\n")
        .skip(1)
        .filter(|block| block.contains("\nsource = "))
        .map(|block| (block_name(block), format!("[[package]]\n{}", block.trim_end())))
        .collect();
    let (_, subject) = manifest_of(SUBJECT_FILES, "crates/subject").unwrap_or_default();
    let subject_version = package_field(&subject, "version").unwrap_or("0.0.0");
    let mut path_packages = vec![(
        package_field(&subject, "name").unwrap_or_default().to_string(),
        subject_version,
        lock_dependencies(&subject, true),
    )];
    let kits: Vec<&Kit> = catalogue.courses.iter().map(|course| Kit::of(&course.id)).collect();
    for kit in &kits {
        let version = package_field(&kit.manifest, "version").unwrap_or("0.0.0");
        path_packages.push((kit.package().to_string(), version, kit.dependencies(true)));
    }
    // A program depends on its given library and on the kit's registry dependencies (see
    // `program_manifest`); a given library on the kit and the same.
    for exercise in &catalogue.exercises {
        let kit = Kit::of(&exercise.course);
        let mut program = kit.dependencies(false);
        program.push(given::package(exercise));
        let mut library = kit.dependencies(false);
        library.push(kit.package().to_string());
        path_packages.push((bin_name(exercise), "0.0.0", program));
        path_packages.push((given::package(exercise), "0.0.0", library));
    }
    for (name, version, mut dependencies) in path_packages {
        dependencies.sort();
        let mut block = format!("[[package]]\nname = \"{name}\"\nversion = \"{version}\"");
        if !dependencies.is_empty() {
            block.push_str("\ndependencies = [\n");
            for dependency in dependencies {
                block.push_str(&format!(" \"{dependency}\",\n"));
            }
            block.push(']');
        }
        blocks.push((name, block));
    }
    blocks.sort();
    let header = HARNESS_LOCK.split("\n[[package]]\n").next().unwrap_or_default().trim_end();
    let mut text = format!("{header}\n");
    for (_, block) in blocks {
        text.push_str(&format!("\n{block}\n"));
    }
    text
}

/// The `name = "..."` of one lock-file block.
fn block_name(block: &str) -> String {
    block
        .lines()
        .find_map(|l| l.strip_prefix("name = \""))
        .map(|n| n.trim_end_matches('"').to_string())
        .unwrap_or_default()
}

/// Where `course`'s kit sits, in the repository and in the harness.
fn kit_dir(course: &str) -> String {
    format!("courses/{course}/kit")
}

/// A kit's manifest as the harness builds it: the same, but for a Rust shared library
/// (`dylib`), which the graded programs link dynamically, along with the standard library
/// (`-C prefer-dynamic`, see `super::cargo`). Linking a graded program then takes a few objects
/// instead of the kit, ndarray and the standard library: measured, rustc on a one-line change
/// 0.21 s → 0.14 s. A manifest that does not parse is written as it is, for cargo to report.
fn as_shared_library(manifest: &str) -> String {
    let Ok(mut table) = toml::from_str::<toml::Table>(manifest) else { return manifest.to_string() };
    let lib = table.entry("lib").or_insert_with(|| toml::Value::Table(toml::Table::new()));
    if let Some(lib) = lib.as_table_mut() {
        lib.insert("crate-type".into(), toml::Value::Array(vec![toml::Value::String("dylib".into())]));
    }
    let header = "# Written by tutor from the course's kit manifest, built as a shared library.\n";
    format!("{header}{}", toml::to_string(&table).unwrap_or_else(|_| manifest.to_string()))
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
    moved::forget_programs_built_elsewhere(&root)?;
    let copies: Vec<String> = catalogue.exercises.iter().map(copy_path).collect();
    let key = stamp::key(&root, &copies);
    let copy = copy_path(exercise);
    let fingerprint = match key.as_deref().and_then(|key| stamp::holds(private_dir, &root, key, &copies)) {
        Some(fingerprint) => {
            crate::fsutil::below::write_below(&root, &root.join(&copy), learner_text)?;
            fingerprint
        }
        None => {
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
