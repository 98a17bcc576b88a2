//! The numbers of a failed comparison, in the style of `torch.testing.assert_close`: how many
//! elements differ, the greatest differences and where, and (for small tensors) expected and
//! actual side by side, the differing elements marked.

use colored::Colorize;
use tutor_grade::report::{Mismatch, NonFinite};
use tutor_grade::{is_close, unravel};

use super::check::{Detail, BODY_INDENT};
use super::wrap::{self, width};
use super::Printer;

/// Rows of a side-by-side table a compact report shows.
const COMPACT_TABLE_ROWS: usize = 6;

/// The `assert_close`-style block: count, greatest differences and where, then (for small
/// tensors) expected and actual side by side with the differing elements marked; a compact
/// report shows the first rows of a long table.
pub fn render_mismatch(printer: &Printer, m: &Mismatch, detail: Detail, columns: usize) -> String {
    let percent = if m.total == 0 { 0.0 } else { 100.0 * m.mismatched as f64 / m.total as f64 };
    let pad = " ".repeat(BODY_INDENT);
    let hang = " ".repeat(BODY_INDENT + 2);
    let stat = |text: String| format!("{}\n", wrap::wrap(&text, &pad, &hang, columns));
    let mut out = String::new();
    out.push_str(&stat(
        printer.lines(
            |u| u.mismatched_elements,
            &[("k", &m.mismatched), ("n", &m.total), ("p", &format!("{percent:.1}"))],
        ),
    ));
    out.push_str(&stat(printer.lines(
        |u| u.greatest_abs,
        &[("value", &number(m.max_abs)), ("index", &index(&m.max_abs_at)), ("tol", &number(m.atol))],
    )));
    out.push_str(&stat(printer.lines(
        |u| u.greatest_rel,
        &[("value", &number(m.max_rel)), ("index", &index(&m.max_rel_at)), ("tol", &number(m.rtol))],
    )));
    if let Some(non_finite) = &m.non_finite {
        out.push_str(&stat(where_non_finite(printer, non_finite)));
    }
    if m.expected.is_empty() || m.expected.len() != m.actual.len() {
        return out;
    }
    let shape = format!("{:?}", m.shape);
    let heading = printer.per_language(|ui, language| {
        let what = super::pick_bi(&m.what, language);
        let values: [(&str, &dyn std::fmt::Display); 3] = [("what", &what), ("dtype", &m.dtype), ("shape", &shape)];
        crate::text::fill(ui.side_by_side, &values)
    });
    out.push_str(&stat(heading.replace('\n', " · ")));
    out.push_str(&format!(
        "{pad}  {} {} {}\n",
        pad_right(&printer.label(|u| u.index), 14),
        pad_left(&printer.label(|u| u.expected), 14),
        pad_left(&printer.label(|u| u.actual), 14)
    ));
    let rows = shown_rows(m, detail);
    for (flat, (&e, &a)) in m.expected.iter().zip(&m.actual).enumerate().skip(rows.start).take(rows.len()) {
        let row = format!("{pad}  {:<14} {:>14} {:>14}", index(&unravel(flat, &m.shape)), number(e), number(a));
        if is_close(a, e, m.atol, m.rtol) {
            out.push_str(&format!("{row}\n"));
        } else {
            out.push_str(&format!("{}  ←\n", row.red().bold()));
        }
    }
    let hidden = m.expected.len() - rows.len();
    if hidden > 0 {
        out.push_str(&format!("{pad}  {}\n", printer.inline(|u| u.more_rows, &[("n", &hidden)]).dimmed()));
    }
    out
}

/// Where the output first is NaN or infinite while the reference is a number, and the input
/// that gave it when the case traced it: `x[3] = 89.5`, or the row with its first values.
fn where_non_finite(printer: &Printer, n: &NonFinite) -> String {
    let (value, at, expected) = (number(n.actual), index(&n.at), number(n.expected));
    let mut values: Vec<(&str, &dyn std::fmt::Display)> =
        vec![("value", &value), ("index", &at), ("expected", &expected)];
    let Some(input) = &n.input else { return printer.lines(|u| u.non_finite_plain, &values) };
    let listed = |at: &[usize], rest: &str| {
        let mut parts: Vec<String> = at.iter().map(usize::to_string).collect();
        parts.extend((!rest.is_empty()).then(|| rest.to_string()));
        format!("{}[{}]", input.name, parts.join(", "))
    };
    match input.row {
        None => {
            let (name, x) = (listed(&input.at, ""), input.values.first().map_or_else(String::new, |v| number(*v)));
            values.extend([("input", &name as &dyn std::fmt::Display), ("x", &x)]);
            printer.lines(|u| u.non_finite_element, &values)
        }
        Some((length, largest)) => {
            let (name, largest) = (listed(&input.at, ":"), number(largest));
            let mut shown: Vec<String> = input.values.iter().map(|v| number(*v)).collect();
            if length > shown.len() {
                shown.push("…".into());
            }
            let shown = shown.join(", ");
            values.extend([
                ("input", &name as &dyn std::fmt::Display),
                ("values", &shown),
                ("n", &length),
                ("name", &input.name),
                ("largest", &largest),
            ]);
            printer.lines(|u| u.non_finite_row, &values)
        }
    }
}

/// The rows of the side-by-side table to show: all of them when verbose; else a few, from just
/// before the first element that differs.
fn shown_rows(m: &Mismatch, detail: Detail) -> std::ops::Range<usize> {
    let len = m.expected.len();
    if detail == Detail::Verbose || len <= COMPACT_TABLE_ROWS {
        return 0..len;
    }
    let differs = |i: &usize| !is_close(m.actual[*i], m.expected[*i], m.atol, m.rtol);
    let first = (0..len).find(differs).unwrap_or(0);
    let start = first.saturating_sub(1).min(len - COMPACT_TABLE_ROWS);
    start..start + COMPACT_TABLE_ROWS
}

/// Pads to a display width (a CJK character takes two columns).
fn pad_right(text: &str, columns: usize) -> String {
    format!("{text}{}", " ".repeat(columns.saturating_sub(width(text))))
}

fn pad_left(text: &str, columns: usize) -> String {
    format!("{}{text}", " ".repeat(columns.saturating_sub(width(text))))
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
    fn a_compact_table_starts_just_before_the_first_difference() {
        let mismatch = |actual: Vec<f64>| Mismatch {
            expected: vec![1.0; actual.len()],
            actual,
            atol: 1e-6,
            rtol: 1e-5,
            ..Mismatch::default()
        };
        let late = mismatch([vec![1.0; 9], vec![2.0; 3], vec![1.0; 4]].concat());
        assert_eq!(shown_rows(&late, Detail::Compact), 8..14);
        assert_eq!(shown_rows(&late, Detail::Verbose), 0..16);
        let at_the_end = mismatch([vec![1.0; 15], vec![2.0]].concat());
        assert_eq!(shown_rows(&at_the_end, Detail::Compact), 10..16);
        assert_eq!(shown_rows(&mismatch(vec![2.0; 4]), Detail::Compact), 0..4);
    }

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
