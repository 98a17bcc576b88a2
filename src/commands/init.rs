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
use crate::render::progress_line::ProgressLine;
use crate::render::Printer;
use crate::runner;
use crate::workspace::Workspace;

/// `tutor init` in a course folder made by an older tutor: the chapters it lacks are added, its
/// layout and progress keys brought up to date (see `migrate`); no file the learner wrote is
/// touched, and progress is kept.
fn update(printer: &Printer, root: &Path, dir: &Path) -> Result<ExitCode> {
    let catalogue = Catalogue::embedded().context("reading the embedded catalogue")?;
    let store = crate::progress::ProgressStore::new(&root.join(".tutor"));
    let migrated = crate::migrate::run(root, &catalogue, &store)?;
    if let Some(recovered) = &migrated.recovered {
        eprintln!("{}", super::describe_recovered(printer, recovered));
    }
    for (name, contents) in [("README.md", WORKSPACE_README), (".gitignore", WORKSPACE_GITIGNORE)] {
        if !root.join(name).exists() {
            write_below(root, &root.join(name), contents)?;
        }
    }
    write_editor_project(printer, root, &catalogue)?;
    let courses = catalogue.courses.iter().map(|c| c.id.as_str()).collect::<Vec<_>>().join(", ");
    let line = if migrated.added.is_empty() && migrated.moved == 0 {
        printer.lines(|u| u.init_up_to_date, &[("dir", &dir.display()), ("courses", &courses)])
    } else {
        let added = if migrated.added.is_empty() { "-".to_string() } else { migrated.added.join(", ") };
        printer.lines(|u| u.init_updated, &[("dir", &dir.display()), ("added", &added), ("courses", &courses)])
    };
    println!("{}", line.green());
    Ok(ExitCode::SUCCESS)
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

/// Writes the workspace; refuses a folder with files unless `force` (or unless it is a course
/// folder already, which gains the chapters it lacks), and never overwrites an exercise file that
/// exists.
pub fn run(printer: &Printer, dir: &Path, force: bool, no_build: bool) -> Result<ExitCode> {
    let root = if dir.is_absolute() { dir.to_path_buf() } else { std::env::current_dir()?.join(dir) };
    // Refused before anything is written: cargo could never build there.
    if root.to_str().is_none() {
        return Err(CliError::PathNotUtf8(root).into());
    }
    if crate::workspace::is_workspace(&root) {
        return update(printer, &root, dir);
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
        eprintln!("{}", printer.wrapped(|u| u.init_building, &[]).dimmed());
        let workspace = Workspace::find(Some(&root), &root).map_err(CliError::Workspace)?;
        let mut progress = ProgressLine::new();
        let built = runner::prepare(&workspace, &catalogue, &mut |e| progress.event(printer, e));
        progress.clear();
        built?;
    }
    println!("\n{}", printer.wrapped(|u| u.init_next, &[("dir", &dir.display())]));
    Ok(ExitCode::SUCCESS)
}
