//! Writes the private grading crate under `.tutor/harness`: the core subject crate
//! (`crates/subject/`) and every course's kit (`courses/<course>/kit/`) at their repository paths,
//! so that their manifests travel verbatim; a copy of each learner file taken by content
//! (`exercises/<course>/`); one small binary per exercise of the course being checked (`bins/`),
//! over that course's kit under the name its exercises use, `tutor_kit`; and a lock file pinning
//! the dependencies.
//!
//! Every file is rewritten from the binary's own copies only when its text differs, so that a
//! changed exercise always rebuilds and an unchanged one never does, whatever its timestamps say.
//! The folder holds exactly these files (and cargo's `target/`): anything else, such as a planted
//! `build.rs`, is removed before a build, and the manifest sets `build = false` besides.

use std::collections::BTreeSet;
use std::fs;
use std::hash::{Hash, Hasher};
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};

use super::pieces;
use crate::course::embedded::{self, EmbeddedFile, HARNESS_LOCK, SUBJECT_FILES};
use crate::course::{Catalogue, Exercise};
use crate::fsutil::OnFile;

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
    /// The file name of the shared library the checked course's kit is built as
    /// ([`as_shared_library`]), which its graded programs load.
    pub kit_library: String,
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

    /// Every file an exercise's graded program may be compiled from: its own source, the copy of
    /// the learner's file and its given pieces.
    pub fn program_sources(&self, exercise: &Exercise) -> Vec<PathBuf> {
        let mut files = vec![self.bin_source(exercise), self.learner_copy(exercise)];
        files.extend(given_files(exercise).iter().map(|p| self.root.join(p)));
        files
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
    /// The kit of `course`.
    pub fn of(course: &str) -> Kit {
        let dir = kit_dir(course);
        let (text, manifest) = embedded::registered(course).and_then(|c| manifest_of(c.kit, &dir)).unwrap_or_default();
        Kit { dir, text, manifest }
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

/// The harness's manifest: one binary per exercise of `course`, over its kit, with no build script.
fn manifest(catalogue: &Catalogue, course: &str, kit: &Kit) -> String {
    let kit_package = kit.package();
    let mut text = String::from(
        "# Written by tutor before every check; edits here are overwritten.\n\
         [package]\nname = \"tutor-harness\"\nversion = \"0.0.0\"\nedition = \"2021\"\npublish = false\n\
         build = false\nautobins = false\nautoexamples = false\nautotests = false\nautobenches = false\n\n",
    );
    for exercise in catalogue.exercises_of(course) {
        let name = bin_name(exercise);
        text.push_str(&format!("[[bin]]\nname = \"{name}\"\npath = \"{}\"\n\n", bin_path(exercise)));
    }
    text.push_str(&format!(
        "[dependencies]\n{KIT_CORE} = {{ path = \"{}\", package = \"{kit_package}\", default-features = false }}\n{}\n",
        kit.dir,
        kit.registry_dependency_lines()
    ));
    text.push_str(&format!(
        "\
         # No debug info. Incremental compilation pays off for the binaries, which are rebuilt at every\n\
         # check, and not for the kits, which are built once (measured: 0.7 s off the first check).\n\
         [profile.dev]\ndebug = 0\n\n[profile.dev.package.{kit_package}]\nincremental = false\n\
         # The kit and tutor_subject optimised: they move every array between tutor and the\n\
         # learner's code, element by element, and hold the given methods. Measured on rmsnorm\n\
         # 04, interleaved: tutor_subject alone took an unchanged check from 42 to 31 ms; with the\n\
         # kit too, it is 23 ms against 26 for the release before issue 21's cases (the warm\n\
         # re-check at parity), for about 4 s more of `tutor init`.\n\
         # One codegen unit each: with more, an optimised crate goes through ThinLTO across its\n\
         # units, which took most of tutor_subject's build (8 of 12 s; see bench/HISTORY.md).\n\
         opt-level = 1\ncodegen-units = 1\n\n\
         [profile.dev.package.tutor_subject]\nincremental = false\nopt-level = 1\ncodegen-units = 1\n\n\
         # Four codegen units for the graded binaries instead of incremental builds' 256: fewer\n\
         # objects to write, persist and link (measured on rmsnorm 04: a re-check's rustc 100 -> 84\n\
         # ms, a first build 258 -> 214 ms; 8 and 16 units fall between; see bench/speed.sh).\n\
         [profile.dev.package.tutor-harness]\ncodegen-units = 4\n\n\
         # Its own workspace, so that an enclosing Cargo workspace never claims it.\n\
         [workspace]\n",
    ));
    text
}

/// The harness's lock file: the registry packages as measured (`HARNESS_LOCK`), and the path
/// packages (the harness, the course's kit, the core subject crate) from what their manifests
/// say, in the order and form cargo writes, so that `cargo build --locked` accepts it unchanged.
fn lock_file(kit: &Kit) -> String {
    let mut blocks: Vec<(String, String)> = HARNESS_LOCK
        .split("\n[[package]]\n")
        .skip(1)
        .filter(|block| block.contains("\nsource = "))
        .map(|block| (block_name(block), format!("[[package]]\n{}", block.trim_end())))
        .collect();
    let (_, subject) = manifest_of(SUBJECT_FILES, "crates/subject").unwrap_or_default();
    // The harness depends on the kit and on the kit's registry dependencies (see `manifest`).
    let mut harness = kit.dependencies(false);
    harness.push(kit.package().to_string());
    let kit_version = package_field(&kit.manifest, "version").unwrap_or("0.0.0");
    let subject_version = package_field(&subject, "version").unwrap_or("0.0.0");
    let path_packages = [
        ("tutor-harness", "0.0.0", harness),
        (kit.package(), kit_version, kit.dependencies(true)),
        (package_field(&subject, "name").unwrap_or_default(), subject_version, lock_dependencies(&subject, true)),
    ];
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
        blocks.push((name.to_string(), block));
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

/// The graded program of one exercise: the kit's core and the exercise's given pieces under the
/// name its file uses, `tutor_kit`; the learner's file as a module; a `main` answering tutor's
/// requests. A course whose kit is one `reference` module gets it whole, as before pieces.
fn bin_source(exercise: &Exercise, copy: &Path, root: &Path) -> String {
    // `{:?}` writes a Rust string literal with every special character escaped. The path is
    // absolute so that rustc's messages name the copy exactly, and tutor can show the learner's
    // own path in its place.
    let path = format!("{:?}", copy.to_string_lossy());
    let reference = match (&exercise.given, embedded::registered(&exercise.course)) {
        (Some(given), Some(course)) => {
            let pieces = pieces::of_kit(&exercise.course, course.kit);
            pieces::reference_module(&pieces, given, exercise.todo, &exercise.local, root)
        }
        _ => String::new(),
    };
    format!(
        "// Written by tutor: the graded program of {id}. Edits here are overwritten.\n\
         extern crate self as tutor_kit;\n\n\
         #[allow(unused_imports)]\npub use {KIT_CORE}::*;\n\n{reference}\n\
         #[path = {path}]\nmod exercise;\n\n\
         fn main() -> std::process::ExitCode {{\n    tutor_kit::graded_main!(exercise, {todo})\n}}\n",
        id = exercise.id,
        todo = exercise.todo,
    )
}

/// The kit files compiled into `exercise`'s graded program besides its own source and the
/// learner's copy: its given pieces, relative to the harness.
pub fn given_files(exercise: &Exercise) -> Vec<String> {
    let (Some(given), Some(course)) = (&exercise.given, embedded::registered(&exercise.course)) else {
        return Vec::new();
    };
    let pieces = pieces::of_kit(&exercise.course, course.kit);
    pieces.into_iter().filter(|p| pieces::is_given(p, given, exercise.todo)).map(|p| p.path).collect()
}

/// Writes (or refreshes) the harness under `private_dir/harness`, with `learner_text` as the
/// copy of `exercise`'s file, and removes whatever else is there.
pub fn write(private_dir: &Path, catalogue: &Catalogue, exercise: &Exercise, learner_text: &str) -> Result<Layout> {
    let root = private_dir.join("harness");
    let kit = Kit::of(&exercise.course);
    let manifest = manifest(catalogue, &exercise.course, &kit);
    let mut files: Vec<(String, String)> = vec![
        ("Cargo.lock".into(), lock_file(&kit)),
        ("Cargo.toml".into(), manifest),
        (copy_path(exercise), learner_text.to_string()),
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
    for other in catalogue.exercises_of(&exercise.course) {
        files.push((bin_path(other), bin_source(other, &root.join(copy_path(other)), &root)));
    }
    // Copies of the other exercises' files stay (they are tutor's, from earlier checks).
    let keep: BTreeSet<String> =
        files.iter().map(|(path, _)| path.clone()).chain(catalogue.exercises.iter().map(copy_path)).collect();
    // The cleanup below never follows a link (entries are told apart by their own type), and
    // the folder it starts from must not be one either.
    crate::fsutil::real_folder(private_dir)?;
    crate::fsutil::real_folder(&root)?;
    remove_strays(&root, &root, &keep)?;
    let mut fingerprint = std::hash::DefaultHasher::new();
    for (path, contents) in &files {
        crate::fsutil::below::write_below(&root, &root.join(path), contents)?;
        if *path != copy_path(exercise) {
            (path, contents).hash(&mut fingerprint);
        }
    }
    let fingerprint = fingerprint.finish();
    Ok(Layout {
        manifest: root.join("Cargo.toml"),
        built_before: is_built(private_dir),
        fingerprint,
        kit_library: kit.library_file(),
        root,
    })
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
mod tests {
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("tutor-harness-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn the_manifest_names_the_courses_kit_and_runs_no_build_script() {
        let catalogue = Catalogue::embedded().unwrap();
        for course in &catalogue.courses {
            let kit_of_course = Kit::of(&course.id);
            let text = manifest(&catalogue, &course.id, &kit_of_course);
            let harness: toml::Table = toml::from_str(&text).unwrap();
            assert_eq!(harness["package"]["build"].as_bool(), Some(false), "no build script may ever run");
            let kit = &harness["dependencies"][KIT_CORE];
            assert_eq!(kit["default-features"].as_bool(), Some(false), "no reference module in the shared kit");
            assert_eq!(kit["path"].as_str(), Some(format!("courses/{}/kit", course.id).as_str()));
            assert_eq!(kit["package"].as_str(), Some(kit_of_course.package()));
            let bins = harness["bin"].as_array().unwrap();
            assert_eq!(bins.len(), catalogue.exercises_of(&course.id).count());
            // Every optimised package in one codegen unit: no ThinLTO pass across units.
            let packages = harness["profile"]["dev"]["package"].as_table().unwrap();
            let optimised: Vec<_> = packages.iter().filter(|(_, p)| p.get("opt-level").is_some()).collect();
            assert_eq!(optimised.len(), 2, "the kit and tutor_subject: {packages:?}");
            for (name, package) in optimised {
                assert_eq!(package["codegen-units"].as_integer(), Some(1), "{name}");
            }
            let lock = lock_file(&kit_of_course);
            assert!(lock.contains(&format!("name = \"{}\"", kit_of_course.package())), "{lock}");
            assert!(lock.contains("name = \"tutor_subject\"") && lock.contains("name = \"ndarray\""), "{lock}");
        }
    }

    #[test]
    fn every_kit_is_written_as_a_shared_library_and_otherwise_as_its_course_wrote_it() {
        let private = scratch("shared");
        let catalogue = Catalogue::embedded().unwrap();
        write(&private, &catalogue, &catalogue.exercises[1], "// learner text\n").unwrap();
        for course in embedded::courses() {
            let kit = Kit::of(course.id);
            let written = fs::read_to_string(private.join("harness").join(&kit.dir).join("Cargo.toml")).unwrap();
            let mut written: toml::Table = toml::from_str(&written).unwrap();
            let lib = written.get_mut("lib").and_then(|l| l.as_table_mut()).expect("a [lib] section");
            assert_eq!(lib.remove("crate-type"), Some(toml::Value::Array(vec!["dylib".into()])));
            let mut original = kit.manifest.clone();
            if original.get("lib").is_none() {
                original.insert("lib".into(), toml::Value::Table(toml::Table::new()));
            }
            assert_eq!(written, original, "{}", course.id);
        }
        let named = |manifest: &str| Kit { dir: String::new(), text: "", manifest: toml::from_str(manifest).unwrap() };
        assert_eq!(named("[package]\nname = \"my-course_kit\"\n").library_file(), "libmy_course_kit.so");
        assert_eq!(named("[package]\nname = \"k\"\n[lib]\nname = \"own\"\n").library_file(), "libown.so");
        assert_eq!(as_shared_library("not [toml"), "not [toml", "cargo reports what does not parse");
        let bare: toml::Table = toml::from_str(&as_shared_library("[package]\nname = \"k\"\n")).unwrap();
        assert_eq!(bare["lib"]["crate-type"][0].as_str(), Some("dylib"));
        fs::remove_dir_all(&private).unwrap();
    }

    #[test]
    fn the_path_attribute_escapes_awkward_folder_names() {
        let catalogue = Catalogue::embedded().unwrap();
        let source =
            bin_source(&catalogue.exercises[0], Path::new("/tmp/a \"quoted\" dir\\x/01-weight.rs"), Path::new("/h"));
        assert!(source.contains(r#"#[path = "/tmp/a \"quoted\" dir\\x/01-weight.rs"]"#), "{source}");
        assert!(source.contains("tutor_kit::graded_main!(exercise, 1)"), "{source}");
    }

    #[test]
    fn strays_are_removed_and_tutors_files_kept() {
        let private = scratch("strays");
        let catalogue = Catalogue::embedded().unwrap();
        let exercise = &catalogue.exercises[1];
        let layout = write(&private, &catalogue, exercise, "// learner text\n").unwrap();
        fs::write(layout.root.join("build.rs"), "fn main() {}").unwrap();
        fs::create_dir_all(layout.root.join(".cargo")).unwrap();
        fs::write(layout.root.join(".cargo/config.toml"), "[build]\n").unwrap();
        fs::write(layout.root.join("courses/rmsnorm/kit/src/extra.rs"), "").unwrap();
        fs::create_dir_all(layout.root.join("target/debug")).unwrap();
        fs::write(layout.root.join("target/debug/keep-me"), "").unwrap();
        let layout = write(&private, &catalogue, exercise, "// learner text, changed\n").unwrap();
        assert!(!layout.root.join("build.rs").exists());
        assert!(!layout.root.join(".cargo").exists());
        assert!(!layout.root.join("courses/rmsnorm/kit/src/extra.rs").exists());
        assert!(layout.root.join("target/debug/keep-me").exists(), "cargo's output is left alone");
        assert!(layout.root.join("courses/rmsnorm/kit/src/lib.rs").exists());
        assert!(layout.root.join("crates/subject/src/lib.rs").exists());
        assert_eq!(fs::read_to_string(layout.learner_copy(exercise)).unwrap(), "// learner text, changed\n");
        fs::remove_dir_all(&private).unwrap();
    }

    #[cfg(unix)]
    #[test]
    fn a_linked_harness_is_refused_and_linked_strays_are_unlinked_not_followed() {
        let private = scratch("linked");
        let outside = scratch("linked-outside");
        fs::write(outside.join("keep-me.txt"), "not tutor's").unwrap();
        let catalogue = Catalogue::embedded().unwrap();
        let exercise = &catalogue.exercises[1];
        std::os::unix::fs::symlink(&outside, private.join("harness")).unwrap();
        let error = write(&private, &catalogue, exercise, "// text\n").err().expect("refused");
        assert!(error.downcast_ref::<crate::fsutil::LinkedFolder>().is_some(), "{error:#}");
        assert!(outside.join("keep-me.txt").exists());
        fs::remove_file(private.join("harness")).unwrap();
        let layout = write(&private, &catalogue, exercise, "// text\n").unwrap();
        // Links planted inside: to a folder, in place of a kept folder, and in place of a kept file.
        std::os::unix::fs::symlink(&outside, layout.root.join("elsewhere")).unwrap();
        fs::remove_dir_all(layout.root.join("bins")).unwrap();
        std::os::unix::fs::symlink(&outside, layout.root.join("bins")).unwrap();
        fs::remove_file(layout.root.join("Cargo.toml")).unwrap();
        std::os::unix::fs::symlink(outside.join("keep-me.txt"), layout.root.join("Cargo.toml")).unwrap();
        write(&private, &catalogue, exercise, "// text\n").unwrap();
        assert_eq!(fs::read_to_string(outside.join("keep-me.txt")).unwrap(), "not tutor's");
        assert_eq!(fs::read_dir(&outside).unwrap().count(), 1, "nothing written or removed outside");
        assert!(!layout.root.join("elsewhere").exists());
        assert!(
            layout.root.join("bins").is_dir() && !fs::symlink_metadata(layout.root.join("bins")).unwrap().is_symlink()
        );
        assert!(fs::read_to_string(&layout.manifest).unwrap().contains("tutor-harness"));
        fs::remove_dir_all(&private).unwrap();
        fs::remove_dir_all(&outside).unwrap();
    }

    #[test]
    fn an_unchanged_copy_keeps_its_timestamp_and_a_changed_one_is_rewritten() {
        let private = scratch("content");
        let catalogue = Catalogue::embedded().unwrap();
        let exercise = &catalogue.exercises[1];
        let layout = write(&private, &catalogue, exercise, "a").unwrap();
        let before = fs::metadata(layout.learner_copy(exercise)).unwrap().modified().unwrap();
        std::thread::sleep(std::time::Duration::from_millis(20));
        write(&private, &catalogue, exercise, "a").unwrap();
        assert_eq!(fs::metadata(layout.learner_copy(exercise)).unwrap().modified().unwrap(), before);
        write(&private, &catalogue, exercise, "b").unwrap();
        assert!(fs::metadata(layout.learner_copy(exercise)).unwrap().modified().unwrap() > before);
        fs::remove_dir_all(&private).unwrap();
    }
}
