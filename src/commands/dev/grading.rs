//! The checks of `dev check` that compare a checkout's grading side (`courses/<id>/`) with this
//! tutor: the grading code and kit are the ones compiled in (else every result about cases and
//! mistakes is about other code), and the grading crate's `editor.rs` lists the catalogue's
//! exercises as tutor writes them.

use std::path::Path;

use anyhow::Result;

use crate::course::editor;
use crate::course::embedded;
use crate::course::lesson::Language;
use crate::render::Printer;
use crate::text;

use super::content::{Course, Source};
use super::{fingerprint, Problem};

/// The grading code and kit of `id` in the checkout at `root` are the ones this tutor was built
/// with: their fingerprints agree.
pub fn compiled_in(printer: &Printer, root: &Path, id: &str) -> Result<Vec<Problem>> {
    let Some(registered) = embedded::registered(id) else { return Ok(Vec::new()) };
    if fingerprint::of_checkout(root, id)? == registered.grading_fingerprint {
        return Ok(Vec::new());
    }
    let dir = root.display();
    let reason = printer.inline(|u| u.dev_grading_stale, &[("dir", &dir), ("id", &id)]);
    Ok(vec![Problem::new(format!("courses/{id}/grade"), reason)])
}

/// The grading crate's `editor.rs` is what [`editor::library_root`] writes for the course's
/// catalogue; when it is not, the problem names the `#[path]` lines missing and extra, and
/// carries the text the file should hold.
pub fn editor_file(printer: &Printer, source: &Source, course: &Course) -> Result<Vec<Problem>> {
    let path = editor_path(&course.id);
    let expected = editor::library_root(&course.catalogue, &course.id, "../../../");
    let Some(actual) = source.read(&path)? else {
        let reason = printer.inline(|u| u.dev_editor_missing, &[]);
        return Ok(vec![Problem::with_detail(path, reason, expected)]);
    };
    if actual == expected {
        return Ok(Vec::new());
    }
    let (wanted, found) = (editor::path_lines(&expected), editor::path_lines(&actual));
    let missing: Vec<&str> = wanted.iter().filter(|l| !found.contains(l)).copied().collect();
    let extra: Vec<&str> = found.iter().filter(|l| !wanted.contains(l)).copied().collect();
    let reason =
        printer.inline_each(|u| u.dev_editor_stale, |language| vec![("changes", changes(language, &missing, &extra))]);
    Ok(vec![Problem::with_detail(path, reason, expected)])
}

/// The `#[path]` lines missing from an `editor.rs` and those it has in excess, in `language`, in
/// parentheses; nothing when there are none (the file differs otherwise).
fn changes(language: Language, missing: &[&str], extra: &[&str]) -> String {
    let ui = text::ui(language);
    let part = |template: &str, lines: &[&str]| {
        if lines.is_empty() {
            String::new()
        } else {
            text::fill(template, &[("lines", &lines.join(" "))])
        }
    };
    let (missing, extra) = (part(ui.dev_editor_missing_lines, missing), part(ui.dev_editor_extra_lines, extra));
    if missing.is_empty() && extra.is_empty() {
        return String::new();
    }
    let and = if missing.is_empty() || extra.is_empty() { "" } else { ui.dev_editor_changes_and };
    text::fill(ui.dev_editor_changes, &[("missing", &missing), ("and", &and), ("extra", &extra)])
}

/// The grading crate's editor library root, by its repository path.
fn editor_path(id: &str) -> String {
    format!("courses/{id}/grade/editor.rs")
}
