//! Tells tutor which commit it is built from, for `tutor --version` (two builds of one version
//! told apart). (The courses' files are compiled into tutor by `courses/build.rs`; the learner
//! files the tests grade by `tests/learners/build.rs`.)

use std::path::{Path, PathBuf};

fn main() {
    let root = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR"));
    println!("cargo:rustc-env=TUTOR_COMMIT={}", commit(&root));
    // The toolchain's own linker lives in its folder for this target (`runner::direct_link`).
    println!("cargo:rustc-env=TUTOR_TARGET={}", std::env::var("TARGET").expect("cargo sets TARGET"));
}

/// The commit tutor is built from, for `tutor --version` (two builds of one version told
/// apart): `TUTOR_BUILD_COMMIT` when a packager sets it, else git's short hash, else `unknown`
/// (a source archive without git). The build script runs again when HEAD moves.
fn commit(root: &Path) -> String {
    println!("cargo:rerun-if-env-changed=TUTOR_BUILD_COMMIT");
    if let Some(commit) = std::env::var("TUTOR_BUILD_COMMIT").ok().filter(|c| !c.trim().is_empty()) {
        return commit.trim().to_string();
    }
    let git = |args: &[&str]| -> Option<String> {
        let output = std::process::Command::new("git").args(args).current_dir(root).output().ok()?;
        let text = String::from_utf8(output.stdout).ok()?;
        (output.status.success() && !text.trim().is_empty()).then(|| text.trim().to_string())
    };
    // HEAD itself, and the branch it names (a new commit changes only the branch's ref).
    for watched in ["HEAD".to_string(), git(&["rev-parse", "--symbolic-full-name", "HEAD"]).unwrap_or_default()] {
        if let Some(path) = git(&["rev-parse", "--git-path", &watched]).filter(|_| !watched.is_empty()) {
            println!("cargo:rerun-if-changed={}", root.join(path).display());
        }
    }
    git(&["rev-parse", "--short=10", "HEAD"]).unwrap_or_else(|| "unknown".to_string())
}
