//! `tutor doctor`: is everything a check needs in place? Each problem comes with its fix.

use std::path::Path;
use std::process::{Command, ExitCode};
use std::time::Duration;

use anyhow::{Context, Result};
use colored::Colorize;

use super::describe_recovered;
use crate::course::Catalogue;
use crate::errors;
use crate::fsutil;
use crate::progress::ProgressStore;
use crate::render::Printer;
use crate::runner::{cargo, harness, learner_file, process};
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
            findings.extend(workspace_path(printer, workspace.root()));
            findings.extend(nested(printer, workspace.root()));
            findings.push(write_access(printer, &workspace));
            findings.push(exercise_files(printer, &workspace, &catalogue));
            findings.push(progress_file(printer, &workspace));
            findings.push(dependencies(printer, &workspace, &catalogue));
            findings.push(confinement(printer));
        }
    }

    for f in &findings {
        let mark = if f.ok {
            format!("✓ {}", printer.label(|u| u.doctor_ok)).green()
        } else {
            format!("✗ {}", printer.label(|u| u.doctor_problem)).red()
        };
        let (columns, colon) = (printer.width(), printer.colon());
        // A finding's detail may quote a tool's output or a path: shown, never obeyed.
        let finding = format!("{mark}  {}{colon}{}", f.what.bold(), crate::render::shown(&f.detail));
        println!("{}", crate::render::wrap::wrap(&finding, "", "      ", columns));
        if let Some(fix) = &f.fix {
            let fix = format!("{}{colon}{fix}", printer.label(|u| u.doctor_fix).yellow());
            println!("{}", crate::render::wrap::wrap(&fix, "      ", "        ", columns));
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
            let rustc = crate::runner::allowed_env::give_to(&mut Command::new("rustc"))
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
        .filter(|e| !matches!(learner_file::read(&workspace.exercise_file(e)), Ok(Ok(_))))
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
        // A problem, though progress goes on: the learner's record was lost.
        Ok((_, Some(recovered))) => {
            Finding { what, ok: false, detail: one_line(&describe_recovered(printer, &recovered)), fix: None }
        }
        Err(e) => Finding { what, ok: false, detail: one_line(&errors::describe_error(printer, &e)), fix: None },
    }
}

/// Paths longer than this leave cargo too little room below PATH_MAX (4096 bytes on Linux) for
/// `.tutor/harness/target/debug/deps/…`.
const LONGEST_WORKSPACE_PATH: usize = 3000;

/// The workspace finding: its path, or each reason cargo could not build there.
fn workspace_path(printer: &Printer, root: &Path) -> Vec<Finding> {
    let what = printer.label(|u| u.doctor_workspace);
    let shown = root.display().to_string();
    let mut problems = Vec::new();
    if root.to_str().is_none() {
        problems.push(printer.lines(|u| u.doctor_path_not_utf8, &[("path", &shown)]));
    }
    let length = root.as_os_str().len();
    if length > LONGEST_WORKSPACE_PATH {
        problems.push(printer.lines(|u| u.doctor_path_too_long, &[("n", &length)]));
    }
    if problems.is_empty() {
        return vec![Finding { what, ok: true, detail: shown, fix: None }];
    }
    let fix = one_line(&printer.lines(|u| u.doctor_fix_path, &[]));
    problems
        .iter()
        .map(|problem| Finding { what: what.clone(), ok: false, detail: one_line(problem), fix: Some(fix.clone()) })
        .collect()
}

/// A course folder inside another (`llm-course/llm-course`, which `tutor init` run in a course
/// folder made before it learnt to upgrade it): the learner's work is in the outer one.
fn nested(printer: &Printer, root: &Path) -> Option<Finding> {
    let outer = root.parent().and_then(|p| p.ancestors().find(|dir| crate::workspace::is_workspace(dir)));
    let (inner, outer) = match outer {
        Some(outer) => (root.to_path_buf(), outer.to_path_buf()),
        None => {
            let entries = std::fs::read_dir(root).ok()?;
            let inner = entries.flatten().map(|e| e.path()).find(|p| {
                let name = p.file_name().and_then(|n| n.to_str()).unwrap_or_default();
                !name.starts_with('.') && name != "exercises" && crate::workspace::is_workspace(p)
            })?;
            (inner, root.to_path_buf())
        }
    };
    let values: [(&str, &dyn std::fmt::Display); 2] = [("inner", &inner.display()), ("outer", &outer.display())];
    Some(Finding {
        what: printer.label(|u| u.doctor_nested),
        ok: false,
        detail: one_line(&printer.lines(|u| u.doctor_nested_inside, &values)),
        fix: Some(one_line(&printer.lines(|u| u.doctor_fix_nested, &values))),
    })
}

/// Can tutor create files where it needs to: the workspace (exercise files, on reset) and
/// `.tutor/` (progress, the harness)?
fn write_access(printer: &Printer, workspace: &Workspace) -> Finding {
    let what = printer.label(|u| u.doctor_writable);
    let private = workspace.private_dir();
    for dir in [workspace.root(), private.as_path()] {
        // A linked `.tutor` is refused here as by every command that writes there.
        let probed = fsutil::real_folder(dir).and_then(|()| Ok(fsutil::probe_writable(dir)?));
        if let Err(e) = probed {
            let shown = dir.display();
            let detail = match e.downcast_ref::<fsutil::LinkedFolder>() {
                Some(_) => one_line(&errors::describe_error(printer, &e)),
                None => e.root_cause().to_string(),
            };
            return Finding {
                what,
                ok: false,
                detail: one_line(&printer.lines(|u| u.doctor_not_writable, &[("dir", &shown), ("detail", &detail)])),
                fix: Some(one_line(&printer.lines(|u| u.doctor_fix_writable, &[("dir", &shown)]))),
            };
        }
    }
    Finding { what, ok: true, detail: printer.label(|u| u.doctor_writable_ok), fix: None }
}

/// A finding is one line: the languages side by side.
fn one_line(text: &str) -> String {
    text.lines().map(str::trim).filter(|l| !l.is_empty()).collect::<Vec<_>>().join(" / ")
}

/// What the kernel lets tutor confine graded code with: said once, here.
fn confinement(printer: &Printer) -> Finding {
    let what = printer.label(|u| u.doctor_confinement);
    // tutor's own executable stands in for a graded program: the same rules are built for it.
    let executable = std::env::current_exe().unwrap_or_else(|_| std::path::PathBuf::from("/proc/self/exe"));
    let confinement = crate::runner::confine::Confinement::prepare(&executable);
    let gaps = confinement.gaps();
    if gaps.is_empty() {
        let abi = crate::runner::confine::support().landlock_abi.unwrap_or(0);
        return Finding {
            what,
            ok: true,
            detail: printer.lines(|u| u.doctor_confined, &[("abi", &abi)]).replace('\n', " / "),
            fix: None,
        };
    }
    let missing = gaps.join(", ");
    Finding {
        what,
        ok: false,
        detail: printer.lines(|u| u.doctor_confinement_missing, &[("missing", &missing)]).replace('\n', " / "),
        fix: Some(printer.lines(|u| u.doctor_fix_confinement, &[])),
    }
}

fn dependencies(printer: &Printer, workspace: &Workspace, catalogue: &Catalogue) -> Finding {
    let what = printer.label(|u| u.doctor_dependencies);
    let private = workspace.private_dir();
    if harness::is_built(&private) {
        return Finding { what, ok: true, detail: printer.label(|u| u.doctor_deps_built), fix: None };
    }
    // Not built yet: are the sources in cargo's cache, or can cargo fetch them?
    let stub =
        catalogue.exercises.first().map(|e| (e, crate::course::embedded::course_file(&e.file).unwrap_or_default()));
    let fetched = stub.context("the catalogue lists no exercise").and_then(|(exercise, stub)| {
        let layout = harness::write(&private, catalogue, exercise, stub)?;
        let mut command = Command::new("cargo");
        crate::runner::allowed_env::give_to(&mut command)
            .args(["fetch", "--locked", "--manifest-path"])
            .arg(&layout.manifest);
        Ok(process::run(command, Duration::from_secs(120), cargo::MEMORY_LIMIT)?)
    });
    match fetched {
        Ok((process::Ending::Exited(0), _)) => {
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
