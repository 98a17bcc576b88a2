//! Rendering a check: each contract and case, mismatches in the style of
//! `torch.testing.assert_close`, and what to do next.

use colored::Colorize;
use tutor_grade::checks::{is_close, unravel};
use tutor_grade::mistakes::{self, Mistake};
use tutor_grade::report::{CaseResult, Contract, Mismatch, Report, Status};
use tutor_grade::text::contract_title;
use unicode_width::UnicodeWidthStr;

use super::Printer;
use crate::runner::{Captured, CheckOutcome, Diagnostic, Refusal};

/// Paths to show instead of the absolute ones the harness sees.
pub struct FileNames<'a> {
    /// The learner's file as the compiler and panics name it.
    pub absolute: &'a str,
    /// The same file relative to the workspace.
    pub shown: &'a str,
}

/// Renders everything a check found (not the "what next" lines, see [`next_steps`]).
pub fn render(printer: &Printer, outcome: &CheckOutcome, id: &str, todo: u32, files: &FileNames) -> String {
    let mut out = String::new();
    let file = files.shown;
    match outcome {
        CheckOutcome::Graded { report, output, warnings, timed_out } => {
            out.push_str(&render_diagnostics(warnings));
            out.push_str(&render_report(printer, report, files));
            if report.cases.iter().any(|c| c.status == Status::NotDone) {
                out.push_str(&format!(
                    "\n{}\n",
                    printer.lines(|u| u.todo_not_done, &[("todo", &todo), ("file", &file)]).yellow()
                ));
            }
            if let Some(limit) = timed_out {
                let secs = format!("{:.0}", limit.as_secs_f64());
                out.push_str(&format!("\n{}\n", printer.lines(|u| u.timed_out, &[("secs", &secs)]).red()));
            }
            out.push_str(&render_output(printer, output));
            out.push_str(&format!(
                "{}\n",
                printer.lines(|u| u.seed_line, &[("seed", &report.seed), ("id", &id)]).dimmed()
            ));
        }
        CheckOutcome::CompileFailed { diagnostics } => {
            out.push_str(&format!("{}\n\n", printer.lines(|u| u.does_not_compile, &[("file", &file)]).red().bold()));
            out.push_str(&render_diagnostics(diagnostics));
            out.push_str(&format!("{}\n", printer.lines(|u| u.fix_and_retry, &[("id", &id)])));
        }
        CheckOutcome::BuildTimedOut { limit } => {
            let secs = format!("{:.0}", limit.as_secs_f64());
            out.push_str(&format!(
                "{}\n",
                printer.lines(|u| u.build_timed_out, &[("file", &file), ("secs", &secs)]).red()
            ));
        }
        CheckOutcome::CompilerDied { detail } => {
            out.push_str(&format!(
                "{}\n",
                printer.lines(|u| u.compiler_died, &[("file", &file), ("detail", detail)]).red()
            ));
        }
        CheckOutcome::ForeignSources { files: foreign } => {
            let names: Vec<String> = foreign.iter().map(|p| p.display().to_string()).collect();
            let names = names.join(", ");
            out.push_str(&format!(
                "{}\n",
                printer.lines(|u| u.foreign_sources, &[("file", &file), ("files", &names)]).red()
            ));
        }
        CheckOutcome::Refused(refusal) => {
            let max = crate::runner::learner_file::MAX_BYTES;
            let line = match refusal {
                Refusal::Missing => printer.lines(|u| u.file_missing, &[("file", &file)]),
                Refusal::Empty => printer.lines(|u| u.file_empty, &[("file", &file)]),
                Refusal::NotRegular => printer.lines(|u| u.not_regular_file, &[("file", &file)]),
                Refusal::TooLarge(bytes) => {
                    printer.lines(|u| u.file_too_large, &[("file", &file), ("bytes", bytes), ("max", &max)])
                }
                Refusal::NotText => printer.lines(|u| u.file_not_text, &[("file", &file)]),
            };
            out.push_str(&format!("{}\n", line.red()));
            if matches!(refusal, Refusal::Missing | Refusal::Empty) {
                out.push_str(&format!("{}\n", printer.lines(|u| u.restore_stub, &[("id", &id), ("file", &file)])));
            }
        }
    }
    out.replace(files.absolute, files.shown)
}

fn render_report(printer: &Printer, report: &Report, files: &FileNames) -> String {
    let mut out = String::new();
    for contract in Contract::ALL {
        let cases: Vec<&CaseResult> = report.cases.iter().filter(|c| c.contract == contract).collect();
        if cases.is_empty() {
            continue;
        }
        out.push_str(&format!("\n{}\n", printer.bi_label(&contract_title(contract.id())).bold()));
        for case in cases {
            out.push_str(&render_case(printer, case, files));
        }
    }
    // Each named mistake once, with the hint about it, after the cases it explains.
    let named: Vec<&Mistake> = report.mistakes.iter().filter_map(|id| mistakes::find(id)).collect();
    if !named.is_empty() {
        out.push('\n');
        for mistake in named {
            out.push_str(&format!("{}\n", named_mistake(printer, mistake).yellow()));
        }
    }
    let passed = report.cases.iter().filter(|c| c.status == Status::Passed).count();
    let total = report.cases.len();
    out.push_str(&format!(
        "\n{}\n",
        printer.lines(|u| u.summary, &[("passed", &passed), ("total", &total)]).replace('\n', " · ").bold()
    ));
    out
}

fn render_case(printer: &Printer, case: &CaseResult, files: &FileNames) -> String {
    let title = printer.bi_label(&case.title);
    match case.status {
        Status::Passed => format!("  {} {title}\n", format!("✓ {}", printer.label(|u| u.case_passed)).green()),
        Status::NotDone => format!("  {} {title}\n", format!("… {}", printer.label(|u| u.case_not_done)).yellow()),
        Status::Failed => {
            let mut out = format!("  {} {title}\n", format!("✗ {}", printer.label(|u| u.case_failed)).red().bold());
            if let Some(message) = &case.message {
                out.push_str(&indent(&printer.bi_lines(message).replace(files.absolute, files.shown), 6));
            }
            if let Some(mismatch) = &case.mismatch {
                out.push_str(&indent(&render_mismatch(printer, mismatch), 6));
            }
            out
        }
    }
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

/// The `assert_close`-style block: count, greatest differences and where, then (for small
/// tensors) expected and actual side by side with the differing elements marked.
fn render_mismatch(printer: &Printer, m: &Mismatch) -> String {
    let percent = if m.total == 0 { 0.0 } else { 100.0 * m.mismatched as f64 / m.total as f64 };
    let mut out = String::new();
    out.push_str(
        &printer.lines(
            |u| u.mismatched_elements,
            &[("k", &m.mismatched), ("n", &m.total), ("p", &format!("{percent:.1}"))],
        ),
    );
    out.push('\n');
    out.push_str(&printer.lines(
        |u| u.greatest_abs,
        &[("value", &number(m.max_abs)), ("index", &index(&m.max_abs_at)), ("tol", &number(m.atol))],
    ));
    out.push('\n');
    out.push_str(&printer.lines(
        |u| u.greatest_rel,
        &[("value", &number(m.max_rel)), ("index", &index(&m.max_rel_at)), ("tol", &number(m.rtol))],
    ));
    out.push('\n');
    if !m.expected.is_empty() && m.expected.len() == m.actual.len() {
        let shape = format!("{:?}", m.shape);
        out.push_str(
            &printer
                .lines(|u| u.side_by_side, &[("what", &m.what), ("dtype", &m.dtype), ("shape", &shape)])
                .replace('\n', " · "),
        );
        out.push('\n');
        out.push_str(&format!(
            "  {} {} {}\n",
            pad_right(&printer.label(|u| u.index), 14),
            pad_left(&printer.label(|u| u.expected), 14),
            pad_left(&printer.label(|u| u.actual), 14)
        ));
        for (flat, (&e, &a)) in m.expected.iter().zip(&m.actual).enumerate() {
            let row = format!("  {:<14} {:>14} {:>14}", index(&unravel(flat, &m.shape)), number(e), number(a));
            let differs = !is_close(a, e, m.atol, m.rtol);
            if differs {
                out.push_str(&format!("{}  ←\n", row.red().bold()));
            } else {
                out.push_str(&format!("{row}\n"));
            }
        }
    }
    out
}

fn render_diagnostics(diagnostics: &[Diagnostic]) -> String {
    diagnostics.iter().map(|d| format!("{}\n\n", d.rendered.trim_end())).collect()
}

fn render_output(printer: &Printer, output: &Captured) -> String {
    let printed = format!("{}{}", output.stdout, output.stderr);
    if printed.trim().is_empty() {
        return String::new();
    }
    let mut out = format!(
        "\n{}\n{}\n",
        printer.lines(|u| u.learner_output, &[]).dimmed(),
        indent(printed.trim_end(), 2).trim_end()
    );
    if output.truncated {
        let cap = crate::runner::process::OUTPUT_CAP;
        out.push_str(&format!("{}\n", printer.lines(|u| u.output_truncated, &[("bytes", &cap)]).dimmed()));
    }
    out
}

/// Pads to a display width (a CJK character takes two columns).
fn pad_right(text: &str, width: usize) -> String {
    format!("{text}{}", " ".repeat(width.saturating_sub(text.width())))
}

fn pad_left(text: &str, width: usize) -> String {
    format!("{}{text}", " ".repeat(width.saturating_sub(text.width())))
}

fn indent(text: &str, by: usize) -> String {
    let pad = " ".repeat(by);
    text.lines().map(|l| format!("{pad}{l}\n")).collect()
}

/// Formats a number the way a person reads it: plain for ordinary magnitudes, scientific for
/// very large or small ones.
pub fn number(v: f64) -> String {
    if v.is_nan() {
        return "nan".into();
    }
    if v.is_infinite() {
        return if v > 0.0 { "inf".into() } else { "-inf".into() };
    }
    if v == 0.0 {
        return "0".into();
    }
    if (1e-4..1e5).contains(&v.abs()) {
        let text = format!("{v:.7}");
        return text.trim_end_matches('0').trim_end_matches('.').to_string();
    }
    format!("{v:.3e}")
}

fn index(at: &[usize]) -> String {
    let parts: Vec<String> = at.iter().map(usize::to_string).collect();
    if parts.len() == 1 {
        format!("({},)", parts[0])
    } else {
        format!("({})", parts.join(", "))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_read_naturally() {
        assert_eq!(number(0.8485281374), "0.8485281");
        assert_eq!(number(1.0), "1");
        assert_eq!(number(1e-6), "1.000e-6");
        assert_eq!(number(f64::NAN), "nan");
        assert_eq!(index(&[0, 1, 0]), "(0, 1, 0)");
        assert_eq!(index(&[3]), "(3,)");
    }
}
