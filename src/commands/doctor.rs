//! `tutor doctor`: is everything a check needs in place? Each problem comes with its fix.

use std::path::Path;
use std::process::{Command, ExitCode};
use std::time::Duration;

use anyhow::{Context, Result};
use colored::Colorize;

use crate::course::Catalogue;
use crate::errors;
use crate::progress::ProgressStore;
use crate::render::Printer;
use crate::runner::{cargo, harness, process};
use crate::workspace::Workspace;

/// One finding: what was checked, whether it is fine, and what it says.
struct Finding {
    what: String,
    ok: bool,
    detail: String,
    fix: Option<String>,
}

/// Runs every check and prints the findings; exit 0 when all are fine, 1 otherwise.
pub fn run(printer: &Printer, explicit_workspace: Option<&Path>) -> Result<ExitCode> {
    let mut findings = vec![toolchain(printer)];
    let here = std::env::current_dir().context("reading the current folder")?;
    match Workspace::find(explicit_workspace, &here) {
        Err(e) => findings.push(Finding {
            what: printer.label(|u| u.doctor_workspace),
            ok: false,
            detail: errors::describe_workspace_error(printer, &e),
            fix: Some(printer.lines(|u| u.doctor_fix_workspace, &[])),
        }),
        Ok(workspace) => {
            let catalogue = Catalogue::embedded().context("reading the embedded catalogue")?;
            findings.push(Finding {
                what: printer.label(|u| u.doctor_workspace),
                ok: true,
                detail: workspace.root().display().to_string(),
                fix: None,
            });
            findings.push(exercise_files(printer, &workspace, &catalogue));
            findings.push(progress_file(printer, &workspace));
            findings.push(dependencies(printer, &workspace, &catalogue));
        }
    }

    for f in &findings {
        let mark = if f.ok {
            format!("✓ {}", printer.label(|u| u.doctor_ok)).green()
        } else {
            format!("✗ {}", printer.label(|u| u.doctor_problem)).red()
        };
        println!("{mark}  {}: {}", f.what.bold(), f.detail);
        if let Some(fix) = &f.fix {
            println!("      {}: {fix}", printer.label(|u| u.doctor_fix).yellow());
        }
    }
    let all_ok = findings.iter().all(|f| f.ok);
    if all_ok {
        println!("\n{}", printer.lines(|u| u.doctor_all_good, &[]).green());
    }
    Ok(if all_ok { ExitCode::SUCCESS } else { ExitCode::from(1) })
}

fn toolchain(printer: &Printer) -> Finding {
    let what = printer.label(|u| u.doctor_toolchain);
    match cargo::check_toolchain() {
        Ok(version) => {
            let rustc = Command::new("rustc")
                .arg("--version")
                .output()
                .ok()
                .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string());
            Finding { what, ok: true, detail: format!("{version}; {}", rustc.unwrap_or_default()), fix: None }
        }
        Err(e) => {
            Finding { what, ok: false, detail: e.to_string(), fix: Some(errors::describe_cargo_error(printer, &e)) }
        }
    }
}

fn exercise_files(printer: &Printer, workspace: &Workspace, catalogue: &Catalogue) -> Finding {
    let what = printer.label(|u| u.doctor_files);
    let broken: Vec<&str> = catalogue
        .exercises
        .iter()
        .filter(|e| std::fs::read_to_string(workspace.exercise_file(e)).map_or(true, |t| t.trim().is_empty()))
        .map(|e| e.id.as_str())
        .collect();
    match broken.first() {
        None => Finding { what, ok: true, detail: format!("{}", catalogue.exercises.len()), fix: None },
        Some(first) => Finding {
            what,
            ok: false,
            detail: broken.join(", "),
            fix: Some(printer.lines(|u| u.doctor_fix_files, &[("id", first)])),
        },
    }
}

fn progress_file(printer: &Printer, workspace: &Workspace) -> Finding {
    let what = printer.label(|u| u.doctor_state);
    let store = ProgressStore::new(&workspace.private_dir());
    match store.load() {
        Ok((_, None)) => Finding {
            what,
            ok: true,
            detail: workspace.private_dir().join("state.toml").display().to_string(),
            fix: None,
        },
        Ok((_, Some(recovered))) => {
            let backup = recovered.backup.display();
            let detail = printer.lines(|u| u.state_corrupt, &[("reason", &recovered.reason), ("backup", &backup)]);
            Finding { what, ok: true, detail, fix: None }
        }
        Err(e) => Finding { what, ok: false, detail: format!("{e:#}"), fix: None },
    }
}

fn dependencies(printer: &Printer, workspace: &Workspace, catalogue: &Catalogue) -> Finding {
    let what = printer.label(|u| u.doctor_dependencies);
    let private = workspace.private_dir();
    if harness::is_built(&private) {
        return Finding { what, ok: true, detail: printer.label(|u| u.doctor_deps_built), fix: None };
    }
    // Not built yet: are the sources in cargo's cache, or can cargo fetch them?
    let stub = catalogue.exercises.first().map(|e| (e, crate::course::embedded::course_file(&e.file).unwrap_or_default()));
    let fetched = stub.context("the catalogue lists no exercise").and_then(|(exercise, stub)| {
        let layout = harness::write(&private, catalogue, exercise, stub)?;
        let mut command = Command::new("cargo");
        command.args(["fetch", "--locked", "--manifest-path"]).arg(&layout.manifest);
        Ok(process::run(command, Duration::from_secs(120), cargo::MEMORY_LIMIT)?)
    });
    match fetched {
        Ok((ending, _)) if ending == process::Ending::Exited(0) => {
            Finding { what, ok: true, detail: printer.label(|u| u.doctor_deps_fetched), fix: None }
        }
        Ok((_, output)) => Finding {
            what,
            ok: false,
            detail: output.stderr.trim().lines().last().unwrap_or_default().to_string(),
            fix: Some(printer.lines(|u| u.doctor_fix_dependencies, &[])),
        },
        Err(e) => Finding {
            what,
            ok: false,
            detail: format!("{e:#}"),
            fix: Some(printer.lines(|u| u.doctor_fix_dependencies, &[])),
        },
    }
}
