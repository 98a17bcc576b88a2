//! Writes the private grading crate: the embedded kit as a library, one binary per exercise that
//! includes the learner's file by `#[path]`, and a lock file pinning the dependencies.
//!
//! Files are rewritten from the binary's own copies before every check, but only when their
//! text differs, so that cargo's fingerprints stay fresh and a warm check recompiles one file.

use std::fs;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};

use crate::course::embedded::{HARNESS_LOCK, KIT_FILES};
use crate::course::{Catalogue, Exercise};
use crate::errors::OnFile;
use crate::fsutil::write_if_changed;
use crate::workspace::Workspace;

/// Where the harness lives.
pub struct Layout {
    /// The harness's `Cargo.toml`.
    pub manifest: PathBuf,
    /// The folder the graded programs write their reports into.
    pub reports: PathBuf,
    /// Whether cargo has built here before (its target folder exists).
    pub built_before: bool,
}

/// The cargo binary target that grades `exercise`.
pub fn bin_name(exercise: &Exercise) -> String {
    format!("ex-{}", exercise.id)
}

/// The kit's dependencies, as the main `Cargo.toml` has them (a test keeps the two equal).
const KIT_DEPENDENCIES: &str =
    "ndarray = \"0.16\"\nhalf = { version = \"=2.4.1\", features = [\"num-traits\"] }\nnum-traits = \"0.2\"\n";

/// The kit as a package of its own, so that its profile can differ from the graded binaries'.
fn kit_manifest() -> String {
    format!(
        "# Written by tutor before every check; edits here are overwritten.\n\
         [package]\nname = \"tutor_kit\"\nversion = \"0.0.0\"\nedition = \"2021\"\npublish = false\n\n\
         [lib]\npath = \"lib.rs\"\n\n[dependencies]\n{KIT_DEPENDENCIES}"
    )
}

/// The harness's manifest: one binary per exercise, over the kit.
fn manifest(catalogue: &Catalogue) -> String {
    let mut text = String::from(
        "# Written by tutor before every check; edits here are overwritten.\n\
         [package]\nname = \"tutor-harness\"\nversion = \"0.0.0\"\nedition = \"2021\"\npublish = false\n\n",
    );
    for exercise in &catalogue.exercises {
        let name = bin_name(exercise);
        text.push_str(&format!("[[bin]]\nname = \"{name}\"\npath = \"bins/{name}.rs\"\n\n"));
    }
    text.push_str(&format!(
        "[dependencies]\ntutor_kit = {{ path = \"kit\" }}\n{KIT_DEPENDENCIES}\n\
         # No debug info. Incremental compilation pays off for the binaries, which are rebuilt at every\n\
         # check, and not for the kit, which is built once (measured: 0.7 s off the first check).\n\
         [profile.dev]\ndebug = 0\n\n[profile.dev.package.tutor_kit]\nincremental = false\n\n\
         # Its own workspace, so that an enclosing Cargo workspace never claims it.\n\
         [workspace]\n"
    ));
    text
}

fn bin_source(exercise: &Exercise, learner_file: &Path) -> String {
    // `{:?}` writes a Rust string literal with every special character escaped.
    let path = format!("{:?}", learner_file.to_string_lossy());
    format!(
        "// Written by tutor: grades {id}. Edits here are overwritten.\n\
         #[path = {path}]\nmod exercise;\n\n\
         tutor_kit::graded_subject!(Graded, exercise::RMSNorm);\n\n\
         fn main() -> std::process::ExitCode {{\n    tutor_kit::harness::main(Graded::build)\n}}\n",
        id = exercise.id
    )
}

/// Writes (or refreshes) the harness under `private_dir/harness`.
pub fn write(private_dir: &Path, workspace: &Workspace, catalogue: &Catalogue) -> Result<Layout> {
    let root = private_dir.join("harness");
    write_if_changed(&root.join("Cargo.toml"), &manifest(catalogue))?;
    write_if_changed(&root.join("Cargo.lock"), HARNESS_LOCK)?;
    write_if_changed(&root.join("kit").join("Cargo.toml"), &kit_manifest())?;
    for file in KIT_FILES {
        write_if_changed(&root.join("kit").join(file.path), file.contents)?;
    }
    for exercise in &catalogue.exercises {
        let source = bin_source(exercise, &workspace.exercise_file(exercise));
        write_if_changed(&root.join("bins").join(format!("{}.rs", bin_name(exercise))), &source)?;
    }
    let reports = root.join("reports");
    fs::create_dir_all(&reports).with_context(|| OnFile::write(&reports))?;
    Ok(Layout { manifest: root.join("Cargo.toml"), reports, built_before: is_built(private_dir) })
}

/// Whether cargo has built the harness in this private folder before (its target folder exists).
pub fn is_built(private_dir: &Path) -> bool {
    private_dir.join("harness").join("target").is_dir()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_harness_dependencies_match_the_kit_dependencies() {
        let own: toml::Table = toml::from_str(include_str!("../../Cargo.toml")).unwrap();
        let harness: toml::Table = toml::from_str(&manifest(&Catalogue::embedded().unwrap())).unwrap();
        let kit: toml::Table = toml::from_str(&kit_manifest()).unwrap();
        for dep in ["ndarray", "half", "num-traits"] {
            assert_eq!(own["dependencies"][dep], harness["dependencies"][dep], "{dep}");
            assert_eq!(own["dependencies"][dep], kit["dependencies"][dep], "{dep}");
        }
    }

    #[test]
    fn the_path_attribute_escapes_awkward_folder_names() {
        let catalogue = Catalogue::embedded().unwrap();
        let source = bin_source(&catalogue.exercises[0], Path::new("/tmp/a \"quoted\" dir\\x/01-weight.rs"));
        assert!(source.contains(r#"#[path = "/tmp/a \"quoted\" dir\\x/01-weight.rs"]"#), "{source}");
    }
}
