//! The harness's Cargo files: the workspace manifest, each program's and given library's
//! package, each course's kit built as a shared library, and the lock file pinning them all.

use super::*;

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
    pub(super) dir: String,
    /// Its manifest's text and table (empty for a course not registered).
    pub(super) text: &'static str,
    pub(super) manifest: toml::Table,
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
    pub(super) fn library_file(&self) -> String {
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
pub(super) fn manifest(catalogue: &Catalogue) -> String {
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
pub(super) fn program_manifest(exercise: &Exercise, kit: &Kit) -> String {
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
pub(super) const GIVEN: &str = "tutor_given";

/// The harness's lock file: the registry packages as measured (`HARNESS_LOCK`), and the path
/// packages (each exercise's program and given library, each course's kit, the core subject
/// crate) from what their manifests say, in the order and form cargo writes, so that
/// `cargo build --locked` accepts it unchanged.
pub(super) fn lock_file(catalogue: &Catalogue) -> String {
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
pub(super) fn kit_dir(course: &str) -> String {
    format!("courses/{course}/kit")
}

/// A kit's manifest as the harness builds it: the same, but for a Rust shared library
/// (`dylib`), which the graded programs link dynamically, along with the standard library
/// (`-C prefer-dynamic`, see `super::cargo`). Linking a graded program then takes a few objects
/// instead of the kit, ndarray and the standard library: measured, rustc on a one-line change
/// 0.21 s → 0.14 s. A manifest that does not parse is written as it is, for cargo to report.
pub(super) fn as_shared_library(manifest: &str) -> String {
    let Ok(mut table) = toml::from_str::<toml::Table>(manifest) else { return manifest.to_string() };
    let lib = table.entry("lib").or_insert_with(|| toml::Value::Table(toml::Table::new()));
    if let Some(lib) = lib.as_table_mut() {
        lib.insert("crate-type".into(), toml::Value::Array(vec![toml::Value::String("dylib".into())]));
    }
    let header = "# Written by tutor from the course's kit manifest, built as a shared library.\n";
    format!("{header}{}", toml::to_string(&table).unwrap_or_else(|_| manifest.to_string()))
}
