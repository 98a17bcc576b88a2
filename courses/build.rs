//! Builds the registry from the registration lines of `Cargo.toml`: every dependency whose path is
//! `<id>/grade` is the course `<id>`. Its files are listed from their folders, so nothing is
//! listed by hand: a new file counts by being there.
//! - the course's content, by its path in a workspace: `exercises/<id>/`, `solutions/<id>/`,
//!   `lessons/<id>/` (README files excluded);
//! - its kit, `courses/<id>/kit/` (manifest and `src/`), and the core subject crate
//!   `crates/subject/`, by their paths in the repository: the grading harness mirrors them;
//! - the fingerprint of its grading side (`courses/<id>/kit/` and `courses/<id>/grade/`), so that
//!   `tutor dev check` can tell when a checkout's grading code is not the one compiled in.

#[path = "fingerprint.rs"]
#[allow(dead_code)]
mod fingerprint;

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

fn main() {
    let here = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR"));
    let root = here.parent().expect("courses/ sits in the repository").to_path_buf();
    let out = PathBuf::from(std::env::var("OUT_DIR").expect("cargo sets OUT_DIR"));
    println!("cargo:rerun-if-changed={}", here.join("Cargo.toml").display());
    let manifest: toml::Table = std::fs::read_to_string(here.join("Cargo.toml"))
        .expect("courses/Cargo.toml is readable")
        .parse()
        .expect("courses/Cargo.toml is TOML");
    let mut code = String::from(
        "/// Every registered course, in the order of `courses/Cargo.toml`.\npub static COURSES: &[Registered] = &[\n",
    );
    let dependencies = manifest.get("dependencies").and_then(|d| d.as_table()).cloned().unwrap_or_default();
    // `toml::Table` is ordered by key; registration order is the order of the lines.
    let text = std::fs::read_to_string(here.join("Cargo.toml")).unwrap_or_default();
    let mut ids: Vec<String> = dependencies
        .iter()
        .filter(|(id, spec)| spec.get("path").and_then(|p| p.as_str()) == Some(&format!("{id}/grade")))
        .map(|(id, _)| id.clone())
        .collect();
    ids.sort_by_key(|id| text.find(&format!("\n{id} =")).unwrap_or(usize::MAX));
    for id in &ids {
        let _ = writeln!(
            code,
            "    Registered {{\n        id: {id:?},\n        grading: &{}::COURSE,",
            id.replace('-', "_")
        );
        let _ = writeln!(code, "        grading_fingerprint: {:#018x},", grading_fingerprint(&root, id));
        code.push_str("        files: &[\n");
        for folder in ["exercises", "solutions", "lessons"] {
            for path in files_below(&root.join(folder).join(id)) {
                if path.file_name().is_some_and(|n| n == "README.md") {
                    continue;
                }
                code.push_str(&entry(&root, &path));
            }
        }
        code.push_str("        ],\n        kit: &[\n");
        let kit = root.join("courses").join(id).join("kit");
        let mut kit_files = vec![kit.join("Cargo.toml")];
        kit_files.extend(files_below(&kit.join("src")));
        for path in kit_files {
            code.push_str(&entry(&root, &path));
        }
        code.push_str("        ],\n    },\n");
    }
    code.push_str("];\n\n");
    for id in &ids {
        let _ = writeln!(
            code,
            "/// The grading crate of the course `{id}` (its kit is its `tutor_kit`).\npub use ::{};",
            id.replace('-', "_")
        );
    }
    code.push_str("\n/// The core subject crate every kit builds on, by its path in the repository.\npub static SUBJECT_FILES: &[EmbeddedFile] = &[\n");
    let subject = root.join("crates/subject");
    let mut subject_files = vec![subject.join("Cargo.toml")];
    subject_files.extend(files_below(&subject.join("src")));
    for path in subject_files {
        code.push_str(&entry(&root, &path));
    }
    code.push_str("];\n");
    std::fs::write(out.join("registry.rs"), code).expect("OUT_DIR is writable");
}

/// The fingerprint of the course's grading side (`fingerprint.rs`, shared with the registry), and
/// a rerun of the build script when any of its files changes.
fn grading_fingerprint(root: &Path, id: &str) -> u64 {
    for folder in fingerprint::folders(id) {
        println!("cargo:rerun-if-changed={}", root.join(folder).display());
    }
    fingerprint::of_checkout(root, id).unwrap_or_else(|e| panic!("reading {}: {}", e.path.display(), e.error))
}

/// One `EmbeddedFile` line: the path relative to the repository, the text compiled in.
fn entry(root: &Path, path: &Path) -> String {
    let relative = path.strip_prefix(root).expect("below the repository").to_string_lossy().replace('\\', "/");
    format!(
        "            EmbeddedFile {{ path: {relative:?}, contents: include_str!({:?}) }},\n",
        path.to_string_lossy()
    )
}

/// Every file below `dir`, sorted, and a rerun of the build script when any of them changes.
fn files_below(dir: &Path) -> Vec<PathBuf> {
    println!("cargo:rerun-if-changed={}", dir.display());
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let path = entry.path();
        if path.is_dir() {
            out.extend(files_below(&path));
        } else {
            out.push(path);
        }
    }
    out.sort();
    out
}
