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

/// The harness's manifest. The kit's dependencies must match the main `Cargo.toml`'s (a test
/// checks the lock file below resolves them, so a drift fails `cargo test`).
fn manifest(catalogue: &Catalogue) -> String {
    let mut text = String::from(
        "# Written by tutor before every check; edits here are overwritten.\n\
         [package]\nname = \"tutor-harness\"\nversion = \"0.0.0\"\nedition = \"2021\"\npublish = false\n\n\
         [lib]\nname = \"tutor_kit\"\npath = \"kit/lib.rs\"\n\n",
    );
    for exercise in &catalogue.exercises {
        let name = bin_name(exercise);
        text.push_str(&format!("[[bin]]\nname = \"{name}\"\npath = \"bins/{name}.rs\"\n\n"));
    }
    text.push_str(
        "[dependencies]\nndarray = \"0.16\"\nhalf = { version = \"=2.4.1\", features = [\"num-traits\"] }\nnum-traits = \"0.2\"\n\n\
         # Fast rebuilds: no debug info, incremental on; the checks themselves are light.\n\
         [profile.dev]\ndebug = 0\n\n\
         # Its own workspace, so that an enclosing Cargo workspace never claims it.\n\
         [workspace]\n",
    );
    text
}

fn bin_source(exercise: &Exercise, learner_file: &Path) -> String {
    // `{:?}` writes a Rust string literal with every special character escaped.
    let path = format!("{:?}", learner_file.to_string_lossy());
    format!(
        "// Written by tutor: grades {id}. Edits here are overwritten.\n\
         #[path = {path}]\nmod exercise;\n\n\
         tutor_kit::graded_subject!(Graded, exercise::RMSNorm);\n\n\
         fn main() -> std::process::ExitCode {{\n    tutor_kit::harness::main::<Graded>()\n}}\n",
        id = exercise.id
    )
}

/// Writes (or refreshes) the harness under `private_dir/harness`.
pub fn write(private_dir: &Path, workspace: &Workspace, catalogue: &Catalogue) -> Result<Layout> {
    let root = private_dir.join("harness");
    write_if_changed(&root.join("Cargo.toml"), &manifest(catalogue))?;
    write_if_changed(&root.join("Cargo.lock"), HARNESS_LOCK)?;
    for file in KIT_FILES {
        write_if_changed(&root.join("kit").join(file.path), file.contents)?;
    }
    for exercise in &catalogue.exercises {
        let source = bin_source(exercise, &workspace.exercise_file(exercise));
        write_if_changed(&root.join("bins").join(format!("{}.rs", bin_name(exercise))), &source)?;
    }
    let reports = root.join("reports");
    fs::create_dir_all(&reports).with_context(|| format!("creating {}", reports.display()))?;
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
        for dep in ["ndarray", "half", "num-traits"] {
            assert_eq!(own["dependencies"][dep], harness["dependencies"][dep], "{dep}");
        }
    }

    #[test]
    fn the_path_attribute_escapes_awkward_folder_names() {
        let catalogue = Catalogue::embedded().unwrap();
        let source = bin_source(&catalogue.exercises[0], Path::new("/tmp/a \"quoted\" dir\\x/01-weight.rs"));
        assert!(source.contains(r#"#[path = "/tmp/a \"quoted\" dir\\x/01-weight.rs"]"#), "{source}");
    }
}
