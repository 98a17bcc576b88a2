//! What rustc says it read to compile a graded program (its dep-info): the last compile of a
//! binary, and the sources it pulled in besides the learner's copy and the harness's own.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result};

use crate::fsutil::regular;

/// The source files rustc read to compile binary `bin` (its dep-info), other than `allowed`.
/// Anything there was pulled in by the learner's file at compile time (`#[path]`, `include!`,
/// `include_str!` …), which an exercise never needs.
pub fn foreign_sources(harness: &Path, bin: &str, allowed: &[PathBuf]) -> Result<Vec<PathBuf>> {
    let newest = latest(harness, bin)?;
    let bytes = regular::read_bytes(&newest, regular::MAX_OWN_FILE, regular::Links::Follow)
        .map_err(|e| e.at(&newest, false))?;
    let text = String::from_utf8_lossy(&bytes);
    let canonical = |p: &Path| p.canonicalize().unwrap_or_else(|_| p.to_path_buf());
    let allowed: Vec<PathBuf> = allowed.iter().map(|p| canonical(p)).collect();
    let mut foreign: Vec<PathBuf> = dep_info_sources(&text)
        .into_iter()
        .map(|p| if p.is_absolute() { p } else { harness.join(p) })
        .filter(|p| !allowed.contains(&canonical(p)))
        .collect();
    foreign.sort();
    foreign.dedup();
    Ok(foreign)
}

/// The dep-info file rustc wrote last for binary `bin` (it rewrites it at every compile, even
/// one that fails or is stopped).
pub fn latest(harness: &Path, bin: &str) -> Result<PathBuf> {
    let deps = harness.join("target").join("debug").join("deps");
    let prefix = format!("{}-", bin.replace('-', "_"));
    std::fs::read_dir(&deps)
        .with_context(|| format!("reading {}", deps.display()))?
        .filter_map(|e| e.ok())
        .filter(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            name.starts_with(&prefix) && name.ends_with(".d")
        })
        .filter_map(|e| Some((e.metadata().ok()?.modified().ok()?, e.path())))
        .max_by_key(|(modified, _)| *modified)
        .map(|(_, path)| path)
        .with_context(|| format!("no dep-info for {bin} in {}", deps.display()))
}

/// The files a Makefile-style dep-info file names as dependencies: rustc writes each one as a
/// rule of its own (`path:`), spaces escaped with a backslash.
fn dep_info_sources(text: &str) -> Vec<PathBuf> {
    text.lines()
        .filter(|line| !line.starts_with('#') && !line.starts_with('\t'))
        .filter_map(|line| line.strip_suffix(':'))
        .map(|path| PathBuf::from(path.replace("\\ ", " ")))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_sources_of_a_dep_info_file() {
        let text = "/h/target/debug/deps/ex_02_norm-1.d: bins/ex-02-norm.rs /h/exercises/rmsnorm/02-norm.rs /s/a\\ b.rs\n\n\
                    bins/ex-02-norm.rs:\n/h/exercises/rmsnorm/02-norm.rs:\n/s/a\\ b.rs:\n\n# env-dep:CARGO_PKG_NAME=x\n";
        assert_eq!(
            dep_info_sources(text),
            vec![
                PathBuf::from("bins/ex-02-norm.rs"),
                PathBuf::from("/h/exercises/rmsnorm/02-norm.rs"),
                PathBuf::from("/s/a b.rs")
            ]
        );
    }
}
