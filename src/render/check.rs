//! Rendering a check: each contract and case, mismatches in the style of
//! `torch.testing.assert_close`, rustc's messages with the course's notes, and the summary.
//!
//! The report is compact unless asked otherwise, so that one mistake fits a screen: contracts
//! with their counts, the first failing case in full, every other failure on one line, each named
//! mistake once, and a summary that says what to run next. Prose is wrapped to the terminal;
//! the side-by-side tables are not (their columns must stay aligned).

use colored::Colorize;
use tutor_grade::report::{CaseResult, Contract, Report, Status};
use tutor_grade::Mistake;

use super::compile_note;
use super::failures;
use super::mismatch::render_mismatch;
use super::wrap::{self, width};
use super::Printer;
use crate::course::CourseNotes;
use crate::runner::{Captured, CheckOutcome, Diagnostic, Refusal};

/// Paths to show instead of the absolute ones the harness sees.
pub struct FileNames<'a> {
    /// The learner's file as the compiler and panics name it.
    pub absolute: &'a str,
    /// The same file relative to the workspace.
    pub shown: &'a str,
}

/// How much of a graded report to show.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Detail {
    /// One screen: the first failure in full, every other one on a line, passes counted.
    Compact,
    /// Every case in full (`--verbose`).
    Verbose,
}

impl Detail {
    /// Verbose when `--verbose` was given.
    pub fn from_flag(verbose: bool) -> Detail {
        if verbose {
            Detail::Verbose
        } else {
            Detail::Compact
        }
    }
}

/// The rows of terminal a compact report aims to fit, with the "Checking …" line above it.
pub const SCREEN_ROWS: usize = 40;

/// Rows kept for the "Checking …" line printed before the report.
const HEADER_ROWS: usize = 2;

/// Indentation of a case's message and numbers under its title.
pub(super) const BODY_INDENT: usize = 6;

/// Renders everything a check found, ending with the summary line.
pub fn render(
    printer: &Printer,
    outcome: &CheckOutcome,
    id: &str,
    todo: u32,
    files: &FileNames,
    detail: Detail,
) -> String {
    let columns = printer.width();
    let file = files.shown;
    let para = |text: String| format!("{}\n", wrap::indented(&text, 0, columns));
    let out = match outcome {
        CheckOutcome::Graded { report, output, warnings, timed_out } => {
            let before = render_warnings(printer, warnings, id, detail, columns);
            let mut after = String::new();
            after.push_str(&render_mistakes(printer, report, columns));
            if report.cases.iter().any(|c| c.status == Status::NotDone) {
                let line = printer.lines(|u| u.todo_not_done, &[("todo", &todo), ("file", &file)]);
                after.push_str(&format!("\n{}", para(line).yellow()));
            }
            if let Some(limit) = timed_out.filter(|limit| !timeout_shown_in_full(report, limit.as_secs_f64(), detail)) {
                let secs = format!("{:.0}", limit.as_secs_f64());
                after.push_str(&format!("\n{}", para(printer.lines(|u| u.timed_out, &[("secs", &secs)])).red()));
            }
            after.push_str(&render_output(printer, output, columns));
            // Repeating the random inputs is for digging in, not for the first look.
            if detail == Detail::Verbose {
                let seed = printer.lines(|u| u.seed_line, &[("seed", &report.seed), ("id", &id)]);
                after.push_str(&format!("\n{}", para(seed).dimmed()));
            }
            after.push_str(&format!("\n{}", render_summary(printer, report, id, columns)));
            let blocks = report_blocks(printer, report, files, detail, columns, before.is_empty());
            fit_to_screen(printer, &before, blocks, &after, id, columns)
        }
        CheckOutcome::CompileFailed { diagnostics, notes } => {
            let mut out = format!("{}\n", para(printer.lines(|u| u.does_not_compile, &[("file", &file)])).red().bold());
            out.push_str(&render_diagnostics(printer, diagnostics, notes, columns));
            out.push_str(&para(printer.lines(|u| u.fix_and_retry, &[("id", &id)])));
            out
        }
        CheckOutcome::BuildTimedOut { limit } => {
            let secs = format!("{:.0}", limit.as_secs_f64());
            para(printer.lines(|u| u.build_timed_out, &[("file", &file), ("secs", &secs)])).red().to_string()
        }
        CheckOutcome::CompilerDied { detail } => {
            para(printer.lines(|u| u.compiler_died, &[("file", &file), ("detail", detail)])).red().to_string()
        }
        CheckOutcome::ForeignSources { files: foreign } => {
            let names: Vec<String> = foreign.iter().map(|p| p.display().to_string()).collect();
            let names = names.join(", ");
            para(printer.lines(|u| u.foreign_sources, &[("file", &file), ("files", &names)])).red().to_string()
        }
        CheckOutcome::ReplacesLibraryCode { symbols } => {
            let symbols = symbol_list(symbols);
            para(printer.lines(|u| u.replaces_library_code, &[("file", &file), ("symbols", &symbols)]))
                .red()
                .to_string()
        }
        CheckOutcome::Refused(refusal) => {
            let max = crate::runner::learner_file::MAX_BYTES;
            let line = match refusal {
                Refusal::Missing => printer.lines(|u| u.file_missing, &[("file", &file)]),
                Refusal::Empty => printer.lines(|u| u.file_empty, &[("file", &file)]),
                Refusal::NotRegular(kind) => printer.per_language(|ui, _| {
                    let kind = crate::errors::kind_text(ui, *kind);
                    crate::text::fill(ui.not_regular_file, &[("file", &file), ("kind", &kind)])
                }),
                Refusal::TooLarge(bytes) => {
                    printer.lines(|u| u.file_too_large, &[("file", &file), ("bytes", bytes), ("max", &max)])
                }
                Refusal::NotText => printer.lines(|u| u.file_not_text, &[("file", &file)]),
            };
            let mut out = para(line).red().to_string();
            if matches!(refusal, Refusal::Missing | Refusal::Empty) {
                out.push_str(&para(printer.lines(|u| u.restore_stub, &[("id", &id), ("file", &file)])));
            }
            out
        }
    };
    out.replace(files.absolute, files.shown)
}

/// The last lines [`render`] ends a report with, when it has them: a graded check's summary (how
/// many cases pass, what next), or what to do about a compile error. The watch keeps them on
/// screen under a report it cuts.
pub fn summary(printer: &Printer, outcome: &CheckOutcome, id: &str) -> Option<String> {
    let columns = printer.width();
    match outcome {
        CheckOutcome::Graded { report, .. } => Some(render_summary(printer, report, id, columns)),
        CheckOutcome::CompileFailed { .. } => {
            Some(format!("{}\n", wrap::indented(&printer.lines(|u| u.fix_and_retry, &[("id", &id)]), 0, columns)))
        }
        _ => None,
    }
}

/// A piece of the report: shown whatever the length, or (standing for some failing cases) only
/// while the screen has room.
enum Block {
    Always(String),
    /// The case shown in full, and the same without its numbers (when it alone would overflow
    /// the screen: its message says what is wrong, `--verbose` has the numbers).
    Full {
        with_numbers: String,
        without: String,
    },
    IfRoom {
        text: String,
        cases: usize,
    },
}

/// Whether the case a compact report shows in full is the one that ran out of time (its message
/// says so: the line after the report would say it twice).
fn timeout_shown_in_full(report: &Report, limit_secs: f64, detail: Detail) -> bool {
    let said = Some(tutor_grade::text::case_timed_out(limit_secs, true));
    let full = |c: &CaseResult| c.message == said;
    match detail {
        Detail::Verbose => report.cases.iter().any(full),
        Detail::Compact => failures::shown_in_full(report).is_some_and(|at| full(&report.cases[at])),
    }
}

/// The contracts and their cases: in full when verbose; else the failure that best shows the
/// named mistake in full and the other failures on a line each (identical ones counted on one),
/// lines that give way when the screen is full.
fn report_blocks(
    printer: &Printer,
    report: &Report,
    files: &FileNames,
    detail: Detail,
    columns: usize,
    first_gap: bool,
) -> Vec<Block> {
    let full = failures::shown_in_full(report).map(|at| &report.cases[at]);
    let all: Vec<&CaseResult> = report.cases.iter().collect();
    // Alike failures are counted across contracts, on the line of the first of them.
    let mut lines = failures::one_line_failures(&all, full).into_iter().peekable();
    let mut blocks = Vec::new();
    for contract in report.contracts() {
        let cases: Vec<(usize, &CaseResult)> =
            report.cases.iter().enumerate().filter(|(_, c)| c.contract == contract).collect();
        if cases.is_empty() {
            continue;
        }
        let only: Vec<&CaseResult> = cases.iter().map(|(_, c)| *c).collect();
        // A compact report keeps its contracts together; a verbose one sets each apart.
        let gap = if detail == Detail::Verbose || (blocks.is_empty() && first_gap) { "\n" } else { "" };
        blocks.push(Block::Always(format!("{gap}{}\n", contract_header(printer, contract, &only, columns))));
        for (at, case) in cases {
            if detail == Detail::Verbose {
                blocks.push(Block::Always(render_case(printer, case, files, detail, columns, true)));
            } else if full.is_some_and(|f| std::ptr::eq(f, case)) {
                blocks.push(Block::Full {
                    with_numbers: render_case(printer, case, files, detail, columns, true),
                    without: render_case(printer, case, files, detail, columns, false),
                });
            }
            while let Some((_, line)) = lines.next_if(|(line_at, _)| *line_at == at) {
                if detail == Detail::Compact {
                    let text = failures::render_line(printer, &line, columns).replace(files.absolute, files.shown);
                    blocks.push(Block::IfRoom { text: format!("{text}\n"), cases: line.cases() });
                }
            }
        }
    }
    blocks
}

/// Puts the report together, dropping the one-liners that do not fit on the screen (counted in a
/// line of their own, which says how to see them).
fn fit_to_screen(printer: &Printer, before: &str, blocks: Vec<Block>, after: &str, id: &str, columns: usize) -> String {
    let rows_of = |text: &str| wrap::rows(text, columns);
    let budget = SCREEN_ROWS - HEADER_ROWS;
    let fixed_rows = |numbers: bool| -> usize {
        let block_rows = |b: &Block| match b {
            Block::Always(text) => rows_of(text),
            Block::Full { with_numbers, without } => rows_of(if numbers { with_numbers } else { without }),
            Block::IfRoom { .. } => 0,
        };
        rows_of(before) + rows_of(after) + blocks.iter().map(block_rows).sum::<usize>()
    };
    let optional: usize =
        blocks.iter().map(|b| if let Block::IfRoom { text, .. } = b { rows_of(text) } else { 0 }).sum();
    let dropped_line = |n: usize| {
        let line = printer.lines(|u| u.more_failures, &[("n", &n), ("id", &id)]);
        format!("{}\n", wrap::indented(&line, 2, columns)).dimmed().to_string()
    };
    // The numbers stay when the other failures still fit beside them, or the line counting them.
    let numbers = fixed_rows(true) + optional.min(rows_of(&dropped_line(99))) <= budget;
    let fixed = fixed_rows(numbers);
    let all_fit = fixed + optional <= budget;
    let mut room = budget.saturating_sub(fixed + if all_fit { 0 } else { rows_of(&dropped_line(99)) });
    let mut dropped = 0;
    let mut out = before.to_string();
    for block in blocks {
        match block {
            Block::Always(text) => out.push_str(&text),
            Block::Full { with_numbers, without } => out.push_str(if numbers { &with_numbers } else { &without }),
            Block::IfRoom { text, .. } if dropped == 0 && rows_of(&text) <= room => {
                room -= rows_of(&text);
                out.push_str(&text);
            }
            Block::IfRoom { cases, .. } => dropped += cases,
        }
    }
    if dropped > 0 {
        out.push_str(&dropped_line(dropped));
    }
    out.push_str(after);
    out
}

/// `✓ Parameter contract · 5/5`: the contract, how many of its cases pass, and a mark for the
/// whole (✓ all pass, ✗ one fails, … a TODO is not written yet).
fn contract_header(printer: &Printer, contract: Contract, cases: &[&CaseResult], columns: usize) -> String {
    let passed = cases.iter().filter(|c| c.status == Status::Passed).count();
    let failed = cases.iter().any(|c| c.status == Status::Failed);
    let mark = if passed == cases.len() {
        "✓".green()
    } else if failed {
        "✗".red()
    } else {
        "…".yellow()
    };
    let title = printer.bi_label(&contract.title());
    let line = format!("{title} · {passed}/{}", cases.len());
    format!("{mark} {}", wrap::wrap(&line, "", "  ", columns.saturating_sub(2)).bold())
}

/// One case in full: its title, and for a failure its message and (with `numbers`) the
/// comparison's numbers.
fn render_case(
    printer: &Printer,
    case: &CaseResult,
    files: &FileNames,
    detail: Detail,
    columns: usize,
    numbers: bool,
) -> String {
    let (mark, color): (String, fn(&str) -> colored::ColoredString) = match case.status {
        Status::Passed => (format!("✓ {}", printer.label(|u| u.case_passed)), |s| s.green()),
        Status::NotDone => (format!("… {}", printer.label(|u| u.case_not_done)), |s| s.yellow()),
        Status::Failed => (format!("✗ {}", printer.label(|u| u.case_failed)), |s| s.red().bold()),
    };
    let prefix = format!("  {mark} ");
    let hang = " ".repeat(width(&prefix));
    let title = wrap::wrap(&printer.bi_label(&case.title), &prefix, &hang, columns);
    let mut out = format!("{}\n", title.replacen(&prefix, &format!("  {} ", color(&mark)), 1));
    if case.status == Status::Failed {
        if let Some(message) = &case.message {
            let message = printer.bi_lines(message).replace(files.absolute, files.shown);
            out.push_str(&format!("{}\n", wrap::indented(&message, BODY_INDENT, columns)));
        }
        if let Some(mismatch) = case.mismatch.as_ref().filter(|_| numbers) {
            out.push_str(&render_mismatch(printer, mismatch, detail, columns));
        }
    }
    out
}

/// Each named mistake once, with the hint about it, after the cases it explains.
fn render_mistakes(printer: &Printer, report: &Report, columns: usize) -> String {
    let named = report.named_mistakes();
    if named.is_empty() {
        return String::new();
    }
    let lines: Vec<String> = named
        .iter()
        .map(|m| format!("{}\n", wrap::indented(&named_mistake(printer, m), 0, columns).yellow()))
        .collect();
    format!("\n{}", lines.concat())
}

/// The last line: how many cases pass and, after a failure, what to run next.
fn render_summary(printer: &Printer, report: &Report, id: &str, columns: usize) -> String {
    let passed = report.cases.iter().filter(|c| c.status == Status::Passed).count();
    let total = report.cases.len();
    let values: [(&str, &dyn std::fmt::Display); 3] = [("passed", &passed), ("total", &total), ("id", &id)];
    let line = if report.all_passed() {
        printer.lines(|u| u.summary, &values).replace('\n', " · ")
    } else {
        printer.lines(|u| u.summary_next, &values)
    };
    format!("{}\n", wrap::indented(&line, 0, columns).bold())
}

/// Names the known mistake the wrong answer matches, in each language, with the hint about it.
fn named_mistake(printer: &Printer, mistake: &Mistake) -> String {
    let title = mistake.title();
    printer.per_language(|ui, language| {
        let values: [(&str, &dyn std::fmt::Display); 3] =
            [("mistake", &super::pick_bi(&title, language)), ("level", &mistake.hint), ("exercise", &mistake.exercise)];
        crate::text::fill(ui.mistake_named, &values)
    })
}

/// The warnings above a graded check's report: the first in full and a count of the others, so
/// that two unused variables do not push the report's figures off the screen; all of them with
/// `--verbose`.
fn render_warnings(printer: &Printer, warnings: &[Diagnostic], id: &str, detail: Detail, columns: usize) -> String {
    let notes = CourseNotes::default();
    match warnings {
        [first, rest @ ..] if !rest.is_empty() && detail != Detail::Verbose => {
            let mut out = render_diagnostics(printer, std::slice::from_ref(first), &notes, columns);
            // The warnings kept, and those rustc said that were only counted (a flood).
            let more: usize = rest.iter().map(|d| d.omitted_counts().map_or(1, |(_, warnings)| warnings)).sum();
            let line = printer.lines(|u| u.warnings_folded, &[("n", &more), ("id", &id)]);
            out.push_str(&format!("{}\n\n", wrap::wrap(&line, "", "  ", columns).dimmed()));
            out
        }
        all => render_diagnostics(printer, all, &notes, columns),
    }
}

/// rustc's messages as rustc renders them (never re-wrapped: they draw the code), each known
/// kind of error followed once by the course's note about it.
fn render_diagnostics(printer: &Printer, diagnostics: &[Diagnostic], notes: &CourseNotes, columns: usize) -> String {
    let mut noted = Vec::new();
    let mut out = String::new();
    for diagnostic in diagnostics {
        if let Some((errors, warnings)) = diagnostic.omitted_counts() {
            let line = printer.lines(|u| u.diagnostics_omitted, &[("errors", &errors), ("warnings", &warnings)]);
            out.push_str(&format!("{}\n\n", wrap::wrap(&line, "", "  ", columns).dimmed()));
            continue;
        }
        let rendered = super::shown_keeping_colour(diagnostic.rendered.trim_end(), printer.color);
        out.push_str(&format!("{}\n\n", without_lint_origin(&rendered)));
        if let Some(note) = compile_note::note_for(diagnostic, notes).filter(|n| !noted.contains(n)) {
            let text = compile_note::render(printer, &note);
            out.push_str(&format!("{}\n\n", wrap::wrap(&text, "", "  ", columns).cyan()));
            noted.push(note);
        }
    }
    out
}

/// rustc's message without the note that says which lint group is on by default (the same
/// for every warning of a kind, and no help to a learner), nor the gutter line before it.
fn without_lint_origin(rendered: &str) -> String {
    let lines: Vec<&str> = rendered.lines().collect();
    let origin = |line: &str| {
        let plain = super::plain(line);
        let plain = plain.trim_start();
        plain.starts_with("= note: `#[warn(") && plain.ends_with("on by default")
    };
    let gutter = |line: &str| super::plain(line).trim() == "|";
    let kept: Vec<&str> = lines
        .iter()
        .enumerate()
        .filter(|&(i, line)| {
            let before_origin = gutter(line) && lines.get(i + 1).is_some_and(|next| origin(next));
            !(origin(line) || before_origin)
        })
        .map(|(_, line)| *line)
        .collect();
    kept.join("\n")
}

/// What the learner's code printed, indented under a label; one line that fits goes beside
/// the label, indented with it (a line of the learner's never starts at the margin, where
/// tutor's own verdicts are).
fn render_output(printer: &Printer, output: &Captured, columns: usize) -> String {
    let printed = super::shown(&format!("{}{}", output.stdout, output.stderr));
    if printed.trim().is_empty() {
        return String::new();
    }
    let label = printer.label(|u| u.learner_output);
    let printed = collapse_repeats(printed.trim_end());
    let mut out = if !printed.contains('\n') && 2 + width(&label) + 1 + width(&printed) <= columns {
        format!("\n  {} {printed}\n", label.dimmed())
    } else {
        format!("\n{}\n{}\n", label.dimmed(), indent(&printed, 2).trim_end())
    };
    if output.truncated {
        let cap = crate::runner::process::OUTPUT_CAP;
        out.push_str(&format!("{}\n", printer.lines(|u| u.output_truncated, &[("bytes", &cap)]).dimmed()));
    }
    out
}

/// `text` with each run of identical lines shown once, counted (a loop printing the same line).
fn collapse_repeats(text: &str) -> String {
    let mut out: Vec<String> = Vec::new();
    let mut lines = text.lines().peekable();
    while let Some(line) = lines.next() {
        let mut count = 1;
        while lines.next_if_eq(&line).is_some() {
            count += 1;
        }
        out.push(if count > 1 { format!("{line}  (×{count})") } else { line.to_string() });
    }
    out.join("\n")
}

fn indent(text: &str, by: usize) -> String {
    let pad = " ".repeat(by);
    text.lines().map(|l| format!("{pad}{l}\n")).collect()
}

/// The first few of `symbols`, in backquotes, and how many more there are.
pub fn symbol_list(symbols: &[String]) -> String {
    const SHOWN: usize = 3;
    let mut list: Vec<String> = symbols.iter().take(SHOWN).map(|s| format!("`{s}`")).collect();
    if symbols.len() > SHOWN {
        list.push(format!("+{}", symbols.len() - SHOWN));
    }
    list.join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_lint_groups_note_is_left_out() {
        let rendered = "warning: unused variable: `x`\n  --> a.rs:2:3\n   |\n2 | fn f(x: u8) {}\n   |      ^ help: prefix it\n   |\n   = note: `#[warn(unused_variables)]` (part of `#[warn(unused)]`) on by default";
        assert_eq!(
            without_lint_origin(rendered),
            "warning: unused variable: `x`\n  --> a.rs:2:3\n   |\n2 | fn f(x: u8) {}\n   |      ^ help: prefix it"
        );
    }

    #[test]
    fn repeated_output_lines_are_counted() {
        assert_eq!(collapse_repeats("pid=7\npid=7\npid=7\nend\npid=7"), "pid=7  (×3)\nend\npid=7");
    }
}
