//! Errors the learner can act on, each with a bilingual message; they exit with code 2.

use std::io::ErrorKind;
use std::path::{Path, PathBuf};

use colored::Colorize;

use crate::course::catalogue::UnknownExercise;
use crate::fsutil::regular::{Kind, NotAFile, TooLarge};
use crate::fsutil::{LinkedFolder, OnFile};
use crate::render::Printer;
use crate::runner::cargo::{CargoError, MINIMUM};
use crate::text::Ui;
use crate::workspace::WorkspaceError;

/// A usage or environment problem with a message for the learner.
#[derive(Debug)]
pub enum CliError {
    /// The exercise name matched nothing.
    UnknownExercise(UnknownExercise),
    /// No workspace to work in.
    Workspace(WorkspaceError),
    /// A command that asks for a typed confirmation, without a terminal and without `--yes`.
    NeedsConfirmation(&'static str),
    /// `init` into a folder that has files, without `--force`.
    InitNotEmpty(std::path::PathBuf),
    /// `hint --level N` beyond the exercise's last hint.
    NoSuchHint { id: String, level: u32, total: u32 },
    /// `dev check COURSE` names no registered course.
    DevUnknownCourse { given: String, known: Vec<String> },
    /// `--root DIR` is not a folder.
    DevNotAFolder(PathBuf),
    /// `--root DIR` (or the current folder) is not a checkout of the tutor repository.
    DevNotARepository { dir: PathBuf, missing: &'static str },
    /// `dev new NAME` with a name that cannot be a course's id.
    DevBadName(String),
    /// `dev new NAME` for a course that exists already.
    DevCourseExists { name: String, path: PathBuf },
    /// `reset` of an exercise whose file is a folder, a FIFO, a device …
    ExerciseNotAFile { file: String, id: String, kind: Kind },
    /// A course folder whose path cargo cannot take (not UTF-8).
    PathNotUtf8(PathBuf),
}

impl std::fmt::Display for CliError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{self:?}")
    }
}

impl std::error::Error for CliError {}

/// Prints an error in the chosen languages: ours by their text, others with their context chain.
pub fn report(printer: &Printer, error: &anyhow::Error) {
    let label = printer.label(|u| u.error).red().bold();
    let text = format!("{label}{}{}", printer.colon(), describe_error(printer, error));
    eprintln!("{}", crate::render::wrap::wrap(&text, "", "  ", printer.width()));
}

/// What to tell the learner about any error: ours by their text, a refused write by its cause
/// and file, others with their context chain.
pub fn describe_error(printer: &Printer, error: &anyhow::Error) -> String {
    if let Some(e) = error.downcast_ref::<CliError>() {
        describe(printer, e)
    } else if let Some(e) = error.downcast_ref::<CargoError>() {
        describe_cargo_error(printer, e)
    } else if let Some(e) = error.downcast_ref::<NotAFile>() {
        let kind = |ui: &Ui| kind_text(ui, e.kind);
        printer
            .per_language(|ui, _| crate::text::fill(ui.not_a_file, &[("file", &shown(&e.path)), ("kind", &kind(ui))]))
    } else if let Some(e) = error.downcast_ref::<TooLarge>() {
        printer.lines(|u| u.own_file_too_large, &[("file", &shown(&e.path)), ("size", &e.size)])
    } else if let Some(e) = error.downcast_ref::<LinkedFolder>() {
        printer.lines(|u| u.linked_folder, &[("dir", &shown(&e.path)), ("target", &e.target.display())])
    } else if let Some(failure) = storage_failure(error) {
        describe_storage_failure(printer, &failure)
    } else {
        // An error's own text may carry a path or a file's contents: shown, never obeyed.
        crate::render::shown(&format!("{error:#}"))
    }
}

/// Why the file system refused: the machine's state, never the learner's code.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StorageCause {
    /// ENOSPC.
    Full,
    /// EROFS.
    ReadOnly,
    /// EDQUOT.
    QuotaExceeded,
    /// EACCES / EPERM.
    PermissionDenied,
}

impl StorageCause {
    /// The cause behind an I/O error, when it is one of these.
    pub fn of(error: &std::io::Error) -> Option<StorageCause> {
        match error.kind() {
            ErrorKind::StorageFull => Some(StorageCause::Full),
            ErrorKind::ReadOnlyFilesystem => Some(StorageCause::ReadOnly),
            ErrorKind::QuotaExceeded => Some(StorageCause::QuotaExceeded),
            ErrorKind::PermissionDenied => Some(StorageCause::PermissionDenied),
            _ => None,
        }
    }
}

/// A file operation the file system refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StorageFailure {
    /// Why.
    pub cause: StorageCause,
    /// The file, when the error names one through [`OnFile`].
    pub path: Option<PathBuf>,
    /// What was being done, for an error that names no file.
    pub doing: String,
    /// Whether it was a write (false: a read).
    pub writing: bool,
}

/// Finds an I/O error with a [`StorageCause`] anywhere in `error`'s chain, and the file it was about.
pub fn storage_failure(error: &anyhow::Error) -> Option<StorageFailure> {
    let cause = error.chain().find_map(|e| e.downcast_ref::<std::io::Error>().and_then(StorageCause::of))?;
    // anyhow finds a context of a given type at any depth of the chain.
    let on_file = error.downcast_ref::<OnFile>();
    Some(StorageFailure {
        cause,
        path: on_file.map(|f| f.path().to_path_buf()),
        doing: error.to_string(),
        writing: on_file.is_none_or(OnFile::writing),
    })
}

/// How a kind of file that is not an ordinary one is called in `ui`'s language.
pub fn kind_text(ui: &Ui, kind: Kind) -> &'static str {
    match kind {
        Kind::Directory => ui.kind_folder,
        Kind::Fifo => ui.kind_fifo,
        Kind::Device => ui.kind_device,
        Kind::Socket => ui.kind_socket,
        Kind::Symlink => ui.kind_symlink,
        Kind::Other => ui.kind_other,
    }
}

/// A path as the learner would type it: relative to where they are, when it is below.
fn shown(path: &Path) -> String {
    let here = std::env::current_dir().unwrap_or_default();
    path.strip_prefix(&here).unwrap_or(path).display().to_string()
}

/// What to tell the learner about a refused file operation: the cause, the file, what to do.
pub fn describe_storage_failure(printer: &Printer, failure: &StorageFailure) -> String {
    let file = match &failure.path {
        // Relative to where the learner is, as they would type it.
        Some(path) => shown(path),
        None => failure.doing.clone(),
    };
    let pick: fn(&crate::text::Ui) -> &'static str = match (failure.cause, failure.writing) {
        (StorageCause::Full, _) => |u| u.disk_full,
        (StorageCause::ReadOnly, _) => |u| u.read_only_file_system,
        (StorageCause::QuotaExceeded, _) => |u| u.quota_exceeded,
        (StorageCause::PermissionDenied, true) => |u| u.permission_denied_write,
        (StorageCause::PermissionDenied, false) => |u| u.permission_denied_read,
    };
    printer.lines(pick, &[("file", &file)])
}

/// What to tell the learner about a toolchain problem.
pub fn describe_cargo_error(printer: &Printer, error: &CargoError) -> String {
    match error {
        CargoError::Missing => printer.lines(|u| u.cargo_missing, &[]),
        CargoError::TooOld { found } => {
            let needed = format!("{}.{}", MINIMUM.0, MINIMUM.1);
            printer.lines(|u| u.cargo_too_old, &[("found", found), ("needed", &needed)])
        }
        CargoError::Failed(detail) => printer.lines(|u| u.cargo_failed, &[("detail", detail)]),
        CargoError::NotStarted(detail) => printer.lines(|u| u.program_not_started, &[("detail", detail)]),
    }
}

/// What to tell the learner when there is no workspace.
pub fn describe_workspace_error(printer: &Printer, error: &WorkspaceError) -> String {
    match error {
        WorkspaceError::NotFound => printer.lines(|u| u.no_workspace, &[]),
        WorkspaceError::NotAWorkspace(dir) => printer.lines(|u| u.not_a_workspace, &[("dir", &dir.display())]),
    }
}

fn describe(printer: &Printer, error: &CliError) -> String {
    match error {
        CliError::UnknownExercise(e) if !e.candidates.is_empty() => {
            let candidates = e.candidates.iter().map(|c| format!("`{c}`")).collect::<Vec<_>>().join(", ");
            printer.lines(|u| u.ambiguous_exercise, &[("given", &e.given), ("candidates", &candidates)])
        }
        CliError::UnknownExercise(e) => {
            let mut lines = vec![printer.lines(|u| u.unknown_exercise, &[("given", &e.given)])];
            if let Some(suggestion) = &e.suggestion {
                lines.push(printer.lines(|u| u.did_you_mean, &[("suggestion", suggestion)]));
            }
            lines.push(printer.lines(|u| u.see_list, &[]));
            lines.join("\n")
        }
        CliError::Workspace(e) => describe_workspace_error(printer, e),
        CliError::NeedsConfirmation(command) => printer.lines(|u| u.needs_confirmation, &[("command", command)]),
        CliError::InitNotEmpty(dir) => printer.lines(|u| u.init_not_empty, &[("dir", &dir.display())]),
        CliError::NoSuchHint { id, level, total } => {
            printer.lines(|u| u.no_such_hint, &[("id", id), ("level", level), ("total", total)])
        }
        CliError::DevUnknownCourse { given, known } => {
            printer.lines(|u| u.dev_unknown_course, &[("given", given), ("known", &known.join(", "))])
        }
        CliError::DevNotAFolder(dir) => printer.lines(|u| u.dev_not_a_folder, &[("dir", &dir.display())]),
        CliError::DevNotARepository { dir, missing } => {
            printer.lines(|u| u.dev_not_a_repository, &[("dir", &dir.display()), ("missing", missing)])
        }
        CliError::DevBadName(name) => printer.lines(|u| u.dev_bad_name, &[("name", name)]),
        CliError::DevCourseExists { name, path } => {
            printer.lines(|u| u.dev_course_exists, &[("name", name), ("path", &path.display())])
        }
        CliError::ExerciseNotAFile { file, id, kind } => printer.per_language(|ui, _| {
            crate::text::fill(ui.exercise_not_a_file, &[("file", file), ("id", id), ("kind", &kind_text(ui, *kind))])
        }),
        CliError::PathNotUtf8(path) => printer.lines(|u| u.path_not_utf8, &[("path", &path.display())]),
    }
}

#[cfg(test)]
mod tests {
    use std::io::Write;

    use anyhow::Context;

    use super::*;
    use crate::text::LangChoice;

    /// A real ENOSPC: /dev/full refuses every write.
    #[cfg(target_os = "linux")]
    fn enospc() -> std::io::Error {
        let mut full = std::fs::OpenOptions::new().write(true).open("/dev/full").unwrap();
        full.write_all(b"x").and_then(|()| full.flush()).unwrap_err()
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn a_full_disk_is_named_with_its_file_in_both_languages() {
        let file = Path::new(".tutor/state.toml");
        let error =
            Err::<(), _>(enospc()).with_context(|| OnFile::write(file)).context("recording the check").unwrap_err();
        let failure = storage_failure(&error).expect("classified");
        assert_eq!(
            failure,
            StorageFailure {
                cause: StorageCause::Full,
                path: Some(file.to_path_buf()),
                doing: "recording the check".into(),
                writing: true
            }
        );
        let message = describe_error(&Printer::new(LangChoice::Both, true), &error);
        assert!(message.contains("the disk is full: could not write .tutor/state.toml"), "{message}");
        assert!(message.contains("磁盘已满：无法写入 .tutor/state.toml"), "{message}");
        assert!(!message.contains("os error"), "{message}");
    }

    #[test]
    fn each_cause_is_recognised_and_others_are_left_alone() {
        for (kind, cause) in [
            (ErrorKind::StorageFull, StorageCause::Full),
            (ErrorKind::ReadOnlyFilesystem, StorageCause::ReadOnly),
            (ErrorKind::QuotaExceeded, StorageCause::QuotaExceeded),
            (ErrorKind::PermissionDenied, StorageCause::PermissionDenied),
        ] {
            assert_eq!(StorageCause::of(&std::io::Error::from(kind)), Some(cause));
        }
        let other = anyhow::Error::new(std::io::Error::from(ErrorKind::NotFound)).context("reading x");
        assert_eq!(storage_failure(&other), None);

        let printer = Printer::new(LangChoice::En, true);
        let denied = Err::<(), _>(std::io::Error::from(ErrorKind::PermissionDenied))
            .with_context(|| OnFile::read(Path::new("/nowhere/state.toml")))
            .unwrap_err();
        assert!(describe_error(&printer, &denied).starts_with("permission denied: could not read /nowhere/state.toml"));
        // Without a named file, what was being done stands in for it.
        let unnamed =
            anyhow::Error::new(std::io::Error::from(ErrorKind::ReadOnlyFilesystem)).context("creating /ro/.tutor");
        assert!(describe_error(&printer, &unnamed).contains("read-only: could not write creating /ro/.tutor"));
    }
}
