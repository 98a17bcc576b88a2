//! Grading one exercise: write the harness, build it with cargo, run it under limits, read the
//! report back.

pub mod cargo;
pub mod harness;
pub mod process;

use std::fs::{File, OpenOptions};
use std::path::Path;
use std::time::Duration;

use anyhow::{Context, Result};
use tutor_kit::report::{self, Report};

use crate::course::{Catalogue, Exercise};
use crate::errors::{OnFile, StorageCause};
use crate::fsutil;
use crate::workspace::Workspace;
pub use cargo::{BuildEvent, Diagnostic};
pub use process::{Captured, Ending};

/// What a check found.
#[derive(Debug)]
pub enum CheckOutcome {
    /// The harness ran and reported; rustc's warnings about the learner's file come along.
    Graded { report: Report, output: Captured, warnings: Vec<Diagnostic> },
    /// The learner's file does not compile.
    CompileFailed { diagnostics: Vec<Diagnostic> },
    /// The run went over the time limit and was killed.
    TimedOut { limit: Duration, output: Captured },
    /// The process ended without a report (exit, abort, crash).
    Crashed { ending: Ending, output: Captured },
    /// A report was there but could not be trusted.
    BadReport { reason: String, output: Captured },
    /// The learner's file is gone.
    FileMissing,
    /// The learner's file is empty (or only white space).
    FileEmpty,
}

impl CheckOutcome {
    /// True only for a trusted report in which every case passed.
    pub fn passed(&self) -> bool {
        matches!(self, CheckOutcome::Graded { report, .. } if report.all_passed())
    }
}

/// How a check is run.
pub struct CheckOptions {
    /// Wall-clock limit for running the graded program.
    pub timeout: Duration,
    /// Whether rustc's messages keep their colours.
    pub color: bool,
}

/// Events worth showing while a check runs.
pub enum CheckEvent<'a> {
    /// Another check holds the workspace; this one waits.
    Waiting,
    /// Something from the build.
    Build(BuildEvent<'a>),
}

/// Proof that this process holds the workspace's check lock, `.tutor/check.lock`: one check
/// (or reset) at a time per workspace, because the harness folder and cargo's output are shared,
/// and because a check's verdict must be recorded before a reset may replace the file it graded.
pub struct CheckLock {
    _file: File,
}

/// Takes the workspace's check lock, calling `on_wait` once if another process holds it.
pub fn lock_checks(workspace: &Workspace, on_wait: &mut dyn FnMut()) -> Result<CheckLock> {
    let private = workspace.private_dir();
    std::fs::create_dir_all(&private).with_context(|| OnFile::write(&private))?;
    Ok(CheckLock { _file: lock_exclusive(&private.join("check.lock"), on_wait)? })
}

/// Grades `exercise` in `workspace`, under the check lock the caller holds until it has
/// recorded the verdict. `Err` means the environment failed (no cargo, an unwritable folder, a
/// full disk), never the learner's code.
pub fn check(
    workspace: &Workspace,
    catalogue: &Catalogue,
    exercise: &Exercise,
    options: &CheckOptions,
    _held: &CheckLock,
    on_event: &mut dyn FnMut(CheckEvent),
) -> Result<CheckOutcome> {
    let learner_file = workspace.exercise_file(exercise);
    match std::fs::read_to_string(&learner_file) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(CheckOutcome::FileMissing),
        Ok(text) if text.trim().is_empty() => return Ok(CheckOutcome::FileEmpty),
        _ => {}
    }

    let private = workspace.private_dir();
    let layout = harness::write(&private, workspace, catalogue)?;
    if !layout.built_before {
        // The first build is where a missing or old toolchain shows: say so plainly.
        cargo::check_toolchain()?;
    }
    let built = cargo::build(
        &layout.manifest,
        &harness::bin_name(exercise),
        &learner_file,
        &exercise.file,
        options.color,
        &mut |e| on_event(CheckEvent::Build(e)),
    )?;
    let (executable, warnings) = match built {
        cargo::Built::Ok { executable, warnings } => (executable, warnings),
        cargo::Built::CompileErrors(diagnostics) => return Ok(CheckOutcome::CompileFailed { diagnostics }),
    };

    let token = process::secret_token();
    let report_path = layout.reports.join(format!("{}-{token}.report", exercise.id));
    let mut command = std::process::Command::new(&executable);
    command.arg(&report_path).env("RUST_BACKTRACE", "0").current_dir(workspace.root());
    let finished =
        process::run(command, &token, options.timeout).with_context(|| format!("running {}", executable.display()))?;
    let report_text = std::fs::read_to_string(&report_path);
    let _ = std::fs::remove_file(&report_path);
    let output = finished.output;

    if report_text.is_err() && finished.ending != Ending::TimedOut {
        // No report: the learner's code may have exited, or the disk may have refused the
        // report. Tell the two apart, so that a full disk is never blamed on the code. Only
        // causes the code cannot fake count: it may delete or chmod the folder, and that stays
        // a failed check.
        if let Err(e) = fsutil::probe_writable(&layout.reports) {
            if matches!(
                StorageCause::of(&e),
                Some(StorageCause::Full | StorageCause::QuotaExceeded | StorageCause::ReadOnly)
            ) {
                return Err(e).with_context(|| OnFile::write(&layout.reports));
            }
        }
    }

    Ok(match (finished.ending, report_text) {
        (Ending::TimedOut, _) => CheckOutcome::TimedOut { limit: options.timeout, output },
        (Ending::Exited(0), Ok(text)) => match report::decode(&text, &token) {
            Ok(report) => CheckOutcome::Graded { report, output, warnings },
            Err(e) => CheckOutcome::BadReport { reason: e.to_string(), output },
        },
        (ending, _) => CheckOutcome::Crashed { ending, output },
    })
}

/// Writes the harness and builds its library once, so that the first check is warm.
pub fn prepare(workspace: &Workspace, catalogue: &Catalogue, on_event: &mut dyn FnMut(CheckEvent)) -> Result<()> {
    let _lock = lock_checks(workspace, &mut || on_event(CheckEvent::Waiting))?;
    let layout = harness::write(&workspace.private_dir(), workspace, catalogue)?;
    cargo::check_toolchain()?;
    cargo::build_library(&layout.manifest, &mut |e| on_event(CheckEvent::Build(e)))
}

/// Takes an exclusive lock on `path`, calling `on_wait` once if it has to wait.
pub fn lock_exclusive(path: &Path, on_wait: &mut dyn FnMut()) -> Result<File> {
    let file =
        OpenOptions::new().create(true).truncate(false).write(true).open(path).with_context(|| OnFile::write(path))?;
    match file.try_lock() {
        Ok(()) => {}
        Err(std::fs::TryLockError::WouldBlock) => {
            on_wait();
            file.lock().with_context(|| format!("locking {}", path.display()))?;
        }
        Err(std::fs::TryLockError::Error(e)) => return Err(e).with_context(|| format!("locking {}", path.display())),
    }
    Ok(file)
}
