//! Grading one exercise: read the learner's file, write the harness, build it within limits (with
//! cargo, or with rustc alone when only the learner's file changed), then grade the built program
//! from here — the program only answers calls, and every verdict is computed in this process.

pub mod allowed_env;
pub mod build;
pub mod cancel;
pub mod cargo;
mod cargo_run;
pub mod confine;
pub mod dep_info;
pub mod diagnostic;
mod direct_link;
mod given;
pub mod harness;
pub mod learner_file;
pub mod pieces;
pub mod process;
pub mod replay;
pub mod rustc_env;
mod served;
pub mod subject;
mod until_deadline;

use std::fs::File;
use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::course::CourseNotes;
use anyhow::{Context, Result};
use tutor_grade::report::Report;

use crate::course::{Catalogue, Exercise};
use crate::fsutil::regular;
use crate::workspace::Workspace;
pub use cancel::{Cancel, Cancelled};
pub use cargo::{BuildEvent, Diagnostic};
pub use learner_file::Refusal;
pub use process::Captured;

/// What a check found.
#[derive(Debug)]
pub enum CheckOutcome {
    /// The program was built and graded; rustc's warnings about the learner's file come along.
    Graded { report: Report, output: Captured, warnings: Vec<Diagnostic>, timed_out: Option<Duration> },
    /// The learner's file does not compile.
    CompileFailed {
        /// rustc's messages.
        diagnostics: Vec<Diagnostic>,
        /// What the course says under the errors it knows, for this exercise.
        notes: CourseNotes,
    },
    /// Compiling the learner's file went over the build time limit.
    BuildTimedOut { limit: Duration },
    /// The compiler died on the learner's file (out of memory, a crash).
    CompilerDied { detail: String },
    /// The learner's file pulled other source files into the build (`#[path]`, `include!` …).
    ForeignSources { files: Vec<PathBuf> },
    /// The learner's file defines symbols of the kit or the standard library, which the loader
    /// would bind them to in place of their own (`#[export_name]`, `global_asm!`): not run.
    ReplacesLibraryCode { symbols: Vec<String> },
    /// The learner's file cannot be graded as it is (missing, empty, a FIFO …).
    Refused(Refusal),
}

impl CheckOutcome {
    /// True only for a graded run in which every case passed.
    pub fn passed(&self) -> bool {
        matches!(self, CheckOutcome::Graded { report, .. } if report.all_passed())
    }
}

/// How a check is run.
pub struct CheckOptions {
    /// Wall-clock limit for running the graded program (all cases together).
    pub timeout: Duration,
    /// Wall-clock limit for compiling the learner's file.
    pub build_timeout: Duration,
    /// The seed of the random inputs (`None`: a fresh one).
    pub seed: Option<u64>,
    /// Whether rustc's messages keep their colours.
    pub color: bool,
    /// Stops the check from another thread; a cancelled check ends with [`Cancelled`].
    pub cancel: Cancel,
}

impl CheckOptions {
    /// The options the command line asked for.
    pub fn from_limits(limits: &crate::cli::Limits, color: bool) -> CheckOptions {
        CheckOptions {
            timeout: Duration::from_secs(limits.timeout),
            build_timeout: Duration::from_secs(limits.build_timeout),
            seed: limits.seed,
            color,
            cancel: Cancel::default(),
        }
    }
}

/// Events worth showing while a check runs.
pub enum CheckEvent<'a> {
    /// Another check holds the workspace; this one waits.
    Waiting,
    /// Something from the build.
    Build(BuildEvent<'a>),
    /// The build is done; the cases run.
    Running,
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
    crate::fsutil::real_folder(&private)?;
    Ok(CheckLock { _file: lock_exclusive(&private.join("check.lock"), on_wait)? })
}

/// [`lock_checks`], giving up with [`Cancelled`] when `cancel` is cancelled while it waits:
/// a watch that is quitting must not wait for another process's check.
pub fn lock_checks_or_cancel(workspace: &Workspace, on_wait: &mut dyn FnMut(), cancel: &Cancel) -> Result<CheckLock> {
    let private = workspace.private_dir();
    crate::fsutil::real_folder(&private)?;
    Ok(CheckLock { _file: lock_exclusive_or_cancel(&private.join("check.lock"), on_wait, cancel)? })
}

/// Takes an exclusive lock on `path`, calling `on_wait` once if it has to wait, and giving up
/// with [`Cancelled`] when `cancel` is cancelled while it waits.
pub fn lock_exclusive_or_cancel(path: &Path, on_wait: &mut dyn FnMut(), cancel: &Cancel) -> Result<File> {
    let file = regular::open_lock(path).map_err(|e| e.at(path, true))?;
    let mut told = false;
    loop {
        if cancel.is_cancelled() {
            return Err(Cancelled.into());
        }
        match file.try_lock() {
            Ok(()) => return Ok(file),
            Err(std::fs::TryLockError::WouldBlock) => {
                if !told {
                    on_wait();
                    told = true;
                }
                std::thread::sleep(Duration::from_millis(50));
            }
            Err(std::fs::TryLockError::Error(e)) => {
                return Err(e).with_context(|| format!("locking {}", path.display()))
            }
        }
    }
}

/// Grades `exercise` in `workspace`, under the check lock the caller holds until it has
/// recorded the verdict. `Err` means the environment failed (no cargo, an unwritable folder, a
/// full disk), never the learner's code — or [`Cancelled`], when `options.cancel` stopped it.
pub fn check(
    workspace: &Workspace,
    catalogue: &Catalogue,
    exercise: &Exercise,
    options: &CheckOptions,
    _held: &CheckLock,
    on_event: &mut dyn FnMut(CheckEvent),
) -> Result<CheckOutcome> {
    let learner_file = workspace.exercise_file(exercise);
    // Nor through a linked folder (`exercises/<course>` a link elsewhere).
    let root = workspace.root();
    crate::fsutil::below::no_link_below(root, learner_file.parent().unwrap_or(root))?;
    let text = match learner_file::read(&learner_file).with_context(|| format!("reading {}", exercise.file))? {
        Ok(text) => text,
        Err(refusal) => return Ok(CheckOutcome::Refused(refusal)),
    };

    let private = workspace.private_dir();
    let layout = harness::write(&private, catalogue, exercise, &text)?;
    if !layout.built_before {
        // The first build is where a missing or old toolchain shows: say so plainly.
        cargo::check_toolchain()?;
    }
    let bin = harness::bin_name(exercise);
    let copy = layout.learner_copy(exercise);
    let build_started = std::time::Instant::now();
    let built =
        build::build(&layout, &bin, &text, &copy, &exercise.file, options, &mut |e| on_event(CheckEvent::Build(e)));
    let build_took = build_started.elapsed();
    // A killed build reports anything (a dead compiler, a failure): none of it is a verdict.
    if options.cancel.is_cancelled() {
        return Err(Cancelled.into());
    }
    let (executable, warnings) = match built? {
        cargo::Built::Ok { executable, warnings } => (executable, warnings),
        cargo::Built::CompileErrors(diagnostics) => {
            return Ok(CheckOutcome::CompileFailed { diagnostics, notes: CourseNotes::for_exercise(exercise) });
        }
        cargo::Built::TimedOut { limit } => return Ok(CheckOutcome::BuildTimedOut { limit }),
        cargo::Built::CompilerDied { detail } => return Ok(CheckOutcome::CompilerDied { detail }),
    };
    let foreign = dep_info::foreign_sources(&layout.root, &bin, &layout.program_sources(exercise))?;
    if !foreign.is_empty() {
        return Ok(CheckOutcome::ForeignSources { files: foreign });
    }
    let replaced = confine::replaced_library_symbols(&executable);
    if !replaced.is_empty() {
        return Ok(CheckOutcome::ReplacesLibraryCode { symbols: replaced });
    }

    on_event(CheckEvent::Running);
    let seed = options.seed.unwrap_or_else(fresh_seed);
    let subject = subject::RemoteSubject::new(&executable, &layout.libraries, options.timeout, options.cancel.clone());
    let report = exercise.registered().grading.grade_exercise(&subject, seed, exercise.todo);
    note_timing(subject.waited(), build_took);
    let (output, timed_out, start_error) = subject.finish();
    if options.cancel.is_cancelled() {
        return Err(Cancelled.into());
    }
    if let Some(why) = start_error {
        return Err(cargo::CargoError::NotStarted(why))
            .with_context(|| format!("starting the graded program {}", executable.display()));
    }
    Ok(CheckOutcome::Graded { report, output, warnings, timed_out: timed_out.then_some(options.timeout) })
}

/// For `bench/every_exercise.sh`: with `TUTOR_BENCH_TIMING` set to a file path, appends a line
/// with the graded program's share of this check (its start and the waits for its replies) and
/// the build's (rustc or cargo, or the reuse of the program built last), in seconds: the check's
/// wall time less both is tutor's own part. Nothing is written otherwise.
fn note_timing(waited: Duration, build: Duration) {
    let Some(path) = std::env::var_os("TUTOR_BENCH_TIMING") else { return };
    let line = format!("{:.6} {:.6}\n", waited.as_secs_f64(), build.as_secs_f64());
    let _ = std::fs::OpenOptions::new().create(true).append(true).open(path).and_then(|mut f| {
        use std::io::Write;
        f.write_all(line.as_bytes())
    });
}

/// A seed nobody can predict: the standard library's randomly keyed hasher.
fn fresh_seed() -> u64 {
    use std::hash::{BuildHasher, Hasher};
    let mut hasher = std::collections::hash_map::RandomState::new().build_hasher();
    hasher.write_u32(std::process::id());
    // Six digits or so: easy to type after `--seed`.
    hasher.finish() % 1_000_000
}

/// Writes the harness and builds every course's kit and every exercise's given library once (one
/// cargo run, which builds them side by side), so that the first check is warm.
pub fn prepare(workspace: &Workspace, catalogue: &Catalogue, on_event: &mut dyn FnMut(CheckEvent)) -> Result<()> {
    let _lock = lock_checks(workspace, &mut || on_event(CheckEvent::Waiting))?;
    cargo::check_toolchain()?;
    let exercise = catalogue.exercises.first().context("the catalogue lists no exercise")?;
    let layout = harness::write(&workspace.private_dir(), catalogue, exercise, exercise.stub())?;
    cargo::build_library(&layout.manifest, &layout.library_packages, &mut |e| on_event(CheckEvent::Build(e)))
}

/// Writes the harness with every course's kit, without building it: what the editor project
/// (`cargo test`, rust-analyzer) needs after a migration named a kit the harness lacked.
pub fn write_kits(workspace: &Workspace, catalogue: &Catalogue) -> Result<()> {
    let _lock = lock_checks(workspace, &mut || {})?;
    let exercise = catalogue.exercises.first().context("the catalogue lists no exercise")?;
    harness::write(&workspace.private_dir(), catalogue, exercise, exercise.stub())?;
    Ok(())
}

/// Takes an exclusive lock on `path`, calling `on_wait` once if it has to wait. The lock file
/// is opened as [`regular::open_lock`] does: a FIFO or a link there is refused, never waited on.
pub fn lock_exclusive(path: &Path, on_wait: &mut dyn FnMut()) -> Result<File> {
    let file = regular::open_lock(path).map_err(|e| e.at(path, true))?;
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
