//! `tutor init [DIR]`: a fresh workspace from the course inside the binary, then the harness's
//! dependencies built once so that the first check is warm.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, Result};
use colored::Colorize;

use crate::course::embedded::{self, WORKSPACE_GITIGNORE, WORKSPACE_README};
use crate::course::{editor, Catalogue};
use crate::errors::CliError;
use crate::fsutil::below::write_below;
use crate::fsutil::regular::{read_text, Links};
use crate::render::progress_line::ProgressLine;
use crate::render::Printer;
use crate::runner;
use crate::workspace::Workspace;

/// `tutor init` in a course folder made by an older tutor: the chapters it lacks are added, its
/// layout and progress keys brought up to date (see `migrate`), its README refreshed, and every
/// chapter's kit built (unless `no_build`); no file the learner wrote is touched, and progress is
/// kept.
fn update(printer: &Printer, root: &Path, shown: &str, no_build: bool) -> Result<ExitCode> {
    let catalogue = Catalogue::embedded().context("reading the embedded catalogue")?;
    let store = crate::progress::ProgressStore::new(&root.join(".tutor"));
    let migrated = crate::migrate::run(root, &catalogue, &store)?;
    if let Some(recovered) = &migrated.recovered {
        eprintln!("{}", super::describe_recovered(printer, recovered));
    }
    let readme_refreshed = refresh_readme(root)?;
    if !root.join(".gitignore").exists() {
        write_below(root, &root.join(".gitignore"), WORKSPACE_GITIGNORE)?;
    }
    write_editor_project(printer, root, &catalogue)?;
    let courses = catalogue.courses.iter().map(|c| c.id.as_str()).collect::<Vec<_>>().join(", ");
    let line = if migrated.added.is_empty() && migrated.moved == 0 {
        printer.wrapped(|u| u.init_up_to_date, &[("dir", &shown), ("courses", &courses)])
    } else {
        let added = if migrated.added.is_empty() { "-".to_string() } else { migrated.added.join(", ") };
        printer.wrapped(|u| u.init_updated, &[("dir", &shown), ("added", &added), ("courses", &courses)])
    };
    println!("{}", line.green());
    if readme_refreshed {
        println!("{}", printer.wrapped(|u| u.init_readme_refreshed, &[("kept", &README_KEPT)]).dimmed());
    }
    if !no_build {
        build(printer, root, &catalogue)?;
    }
    Ok(ExitCode::SUCCESS)
}

/// The line every README `tutor init` has written carries (the first release's too): a README
/// without it is the learner's own.
const README_MARK: &str = "Written by `tutor init`.";

/// Where the README an older tutor wrote is kept when a newer one replaces it.
const README_KEPT: &str = ".tutor/README.previous.md";

/// Brings the folder's README to this tutor's (its commands and chapters change between
/// releases), keeping the one it replaces in [`README_KEPT`]; a README that is not tutor's is
/// left alone. Returns whether it was replaced.
fn refresh_readme(root: &Path) -> Result<bool> {
    let path = root.join("README.md");
    if !path.exists() {
        write_below(root, &path, WORKSPACE_README)?;
        return Ok(false);
    }
    match read_text(&path, Links::Refuse) {
        Some(old) if old.contains(README_MARK) && old != WORKSPACE_README => {
            write_below(root, &root.join(README_KEPT), &old)?;
            write_below(root, &path, WORKSPACE_README)?;
            Ok(true)
        }
        _ => Ok(false),
    }
}

/// Builds every chapter's kit once, with the build's progress on stderr, so that the first check
/// of any chapter is quick.
fn build(printer: &Printer, root: &Path, catalogue: &Catalogue) -> Result<()> {
    eprintln!("{}", printer.wrapped(|u| u.init_building, &[]).dimmed());
    let workspace = Workspace::find(Some(root), root).map_err(CliError::Workspace)?;
    let mut progress = ProgressLine::new();
    let built = runner::prepare(&workspace, catalogue, &mut |e| progress.event(printer, e));
    progress.clear();
    built
}

/// Makes the folder something rust-analyzer understands: a `Cargo.toml` (unless one of the
/// learner's is there) whose workspace has one library per course over the harness's kits,
/// which are written now so that the editor resolves them before any check has run.
fn write_editor_project(printer: &Printer, root: &Path, catalogue: &Catalogue) -> Result<()> {
    if !editor::write_project(root, catalogue)? {
        println!("{}", printer.wrapped(|u| u.init_kept, &[("file", &"Cargo.toml")]).dimmed());
    }
    let first = catalogue.exercises.first().context("the catalogue lists no exercise")?;
    runner::harness::write(&root.join(".tutor"), catalogue, first, first.stub())?;
    Ok(())
}

/// The folder `tutor init` writes when it is given none and does not run in a course folder.
const DEFAULT_DIR: &str = "llm-course";

/// Writes the workspace; refuses a folder with files unless `force` (or unless it is a course
/// folder already, which gains the chapters it lacks), and never overwrites an exercise file that
/// exists. Without `dir`, in a course folder (or below one), that folder is upgraded, as the
/// READMEs say: a second course nested inside the first would be empty of the learner's work.
pub fn run(printer: &Printer, dir: Option<&Path>, force: bool, no_build: bool) -> Result<ExitCode> {
    let here = std::env::current_dir().context("reading the current folder")?;
    let dir = match dir {
        Some(dir) => dir.to_path_buf(),
        None => match Workspace::find(None, &here) {
            Ok(enclosing) => {
                let shown = enclosing.root().display().to_string();
                return update(printer, enclosing.root(), &shown, no_build);
            }
            Err(_) => PathBuf::from(DEFAULT_DIR),
        },
    };
    let dir = dir.as_path();
    let root = if dir.is_absolute() { dir.to_path_buf() } else { here.join(dir) };
    // Refused before anything is written: cargo could never build there.
    if root.to_str().is_none() {
        return Err(CliError::PathNotUtf8(root).into());
    }
    if crate::workspace::is_workspace(&root) {
        return update(printer, &root, &dir.display().to_string(), no_build);
    }
    let has_files = std::fs::read_dir(&root).map(|mut entries| entries.next().is_some()).unwrap_or(false);
    if has_files && !force {
        return Err(CliError::InitNotEmpty(root).into());
    }

    let mut files: Vec<(PathBuf, &str)> = embedded::course_files()
        .filter(|f| f.path.starts_with("exercises/"))
        .map(|f| (root.join(f.path), f.contents))
        .collect();
    files.push((root.join("README.md"), WORKSPACE_README));
    files.push((root.join(".gitignore"), WORKSPACE_GITIGNORE));
    for (path, contents) in &files {
        if path.exists() {
            let shown = path.strip_prefix(&root).unwrap_or(path).display();
            println!("{}", printer.wrapped(|u| u.init_kept, &[("file", &shown)]).dimmed());
            continue;
        }
        write_below(&root, path, contents)?;
    }

    let catalogue = Catalogue::embedded().context("reading the embedded catalogue")?;
    write_editor_project(printer, &root, &catalogue)?;
    let n = catalogue.exercises.len();
    let courses = catalogue.courses.iter().map(|c| c.id.as_str()).collect::<Vec<_>>().join(", ");
    println!(
        "{}",
        printer.wrapped(|u| u.init_created, &[("dir", &dir.display()), ("courses", &courses), ("n", &n)]).green()
    );

    if !no_build {
        build(printer, &root, &catalogue)?;
    }
    println!("\n{}", printer.wrapped(|u| u.init_next, &[("dir", &dir.display())]));
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_readme_tutor_writes_carries_its_mark() {
        // Without it, `init` in a folder would take its own README for the learner's and never
        // refresh it.
        assert!(WORKSPACE_README.contains(README_MARK));
    }
}
