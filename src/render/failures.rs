//! Which failure a compact report shows in full, and the others each on a line of its own, with
//! identical ones counted on a single line (an endless loop leaves twenty cases "not run": one
//! line says so, not twenty).

use colored::Colorize;
use tutor_grade::report::{CaseResult, Report, Status};

use super::{wrap, Printer};

/// The case a compact report shows in full: of the failures that show the first named mistake
/// (the one the report's advice is about), the one whose title speaks of it (eps outside the
/// root: the case about eps and the root, not the one about the axis), else the first of them;
/// with no named mistake, the first failure. A title speaks of a mistake when they share two
/// words or more (one shared word is too often chance: "too", "square").
pub fn shown_in_full(report: &Report) -> Option<usize> {
    let failed = |c: &CaseResult| c.status == Status::Failed;
    let named = report.named_mistakes().first().and_then(|mistake| {
        let words = content_words(mistake.en);
        // Words in common, each once: a title that says "eps" five times speaks of eps once.
        let shared = |c: &CaseResult| {
            let title: std::collections::BTreeSet<String> = content_words(&c.title.en).into_iter().collect();
            title.iter().filter(|w| words.contains(w)).count()
        };
        let showing: Vec<(usize, &CaseResult)> = report
            .cases
            .iter()
            .enumerate()
            .filter(|(_, c)| failed(c) && c.mistake.as_deref() == Some(mistake.id))
            .collect();
        // `max_by_key` keeps the last of equals: the first of them is wanted, so ties go by position.
        let speaking =
            showing.iter().filter(|(_, c)| shared(c) >= 2).max_by_key(|(at, c)| (shared(c), std::cmp::Reverse(*at)));
        speaking.or(showing.first()).map(|(at, _)| *at)
    });
    named.or_else(|| report.cases.iter().position(failed))
}

/// The words of an English title that say something (not "the", "of", …), lower case.
fn content_words(text: &str) -> Vec<String> {
    const LITTLE: [&str; 13] =
        ["the", "and", "for", "its", "are", "not", "one", "only", "with", "each", "into", "than", "about"];
    text.split(|c: char| !c.is_alphanumeric())
        .map(str::to_lowercase)
        .filter(|w| w.len() >= 3 && !LITTLE.contains(&w.as_str()))
        .collect()
}

/// The failed cases a compact report lists on one line, in order, identical ones together.
pub enum Line<'a> {
    /// One case: its title and what went wrong.
    Case(&'a CaseResult),
    /// Several cases that failed with the same message, counted; `as_shown` when it is the
    /// message of the case shown in full (then it is not repeated).
    Alike { first: &'a CaseResult, count: usize, as_shown: bool },
}

impl Line<'_> {
    /// How many cases the line stands for.
    pub fn cases(&self) -> usize {
        match self {
            Line::Case(_) => 1,
            Line::Alike { count, .. } => *count,
        }
    }
}

/// The one-line failures of `cases` (the case shown in full left out): a failure whose message
/// another one shares is counted where the first of them is, and listed nowhere else.
pub fn one_line_failures<'a>(cases: &[&'a CaseResult], full: Option<&CaseResult>) -> Vec<(usize, Line<'a>)> {
    let listed: Vec<(usize, &CaseResult)> = cases
        .iter()
        .enumerate()
        .filter(|(_, c)| c.status == Status::Failed && !full.is_some_and(|f| std::ptr::eq(f, **c)))
        .map(|(at, c)| (at, *c))
        .collect();
    let mut lines: Vec<(usize, Line)> = Vec::new();
    for (at, case) in &listed {
        let Some(key) = alike_key(case) else {
            lines.push((*at, Line::Case(case)));
            continue;
        };
        if lines.iter().any(|(_, line)| matches!(line, Line::Alike { first, .. } if alike_key(first) == Some(key))) {
            continue;
        }
        let count = listed.iter().filter(|(_, other)| alike_key(other) == Some(key)).count();
        let as_shown = full.is_some_and(|f| alike_key(f) == Some(key));
        let line = if count > 1 { Line::Alike { first: case, count, as_shown } } else { Line::Case(case) };
        lines.push((*at, line));
    }
    lines
}

/// What makes two failures alike: the same message and no numbers of their own.
fn alike_key(case: &CaseResult) -> Option<&tutor_grade::text::Bi> {
    case.message.as_ref().filter(|_| case.mismatch.is_none())
}

/// A one-line failure, wrapped: the case's whole title and what went wrong (a panic's message
/// ends with where it happened), or how many cases failed alike.
pub fn render_line(printer: &Printer, line: &Line, columns: usize) -> String {
    let text = match line {
        Line::Case(case) => format!("{} · {}", printer.bi_label(&case.title), detail(printer, case)),
        Line::Alike { count, as_shown: true, .. } => printer.inline(|u| u.cases_alike_shown, &[("n", count)]),
        Line::Alike { first, count, .. } => printer.inline_each(
            |u| u.cases_alike,
            |language| vec![("n", count.to_string()), ("detail", first_line(first, language))],
        ),
    };
    let prefix = "  ✗ ";
    let wrapped = wrap::wrap(&text, prefix, "    ", columns);
    wrapped.replacen(prefix, &format!("  {} ", "✗".red()), 1)
}

/// What went wrong, short: the greatest difference, or the first line of the message.
fn detail(printer: &Printer, case: &CaseResult) -> String {
    match &case.mismatch {
        Some(m) => format!("{} {}", printer.label(|u| u.greatest_difference), super::mismatch::number(m.max_abs)),
        None => printer.languages().iter().map(|&l| first_line(case, l)).collect::<Vec<_>>().join(" / "),
    }
}

fn first_line(case: &CaseResult, language: crate::course::lesson::Language) -> String {
    let message = case.message.as_ref().map_or(String::new(), |m| super::shown(super::pick(language, &m.zh, &m.en)));
    message.lines().next().unwrap_or_default().to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use tutor_grade::report::Contract;
    use tutor_grade::text::Bi;
    use tutor_grade::Mistake;

    fn case(id: &str, status: Status, message: Option<&str>, mistake: Option<&str>) -> CaseResult {
        CaseResult {
            contract: Contract { id: "values", zh: "数值契约", en: "Value contract" },
            id: id.into(),
            title: Bi::new(id, id),
            status,
            message: message.map(|m| Bi::new(m, m)),
            mismatch: None,
            mistake: mistake.map(String::from),
        }
    }

    static MISTAKES: [Mistake; 1] = [Mistake {
        id: "eps-outside-sqrt",
        exercise: "02-norm",
        hint: 3,
        zh: "eps 加在了平方根外面",
        en: "eps is added outside the square root",
    }];

    #[test]
    fn the_failure_shown_in_full_is_the_one_of_the_named_mistake() {
        let mut report = Report {
            cases: vec![
                case("ok", Status::Passed, None, None),
                case("axis", Status::Failed, Some("differs"), None),
                case("last axis only (square input)", Status::Failed, Some("differs"), Some("eps-outside-sqrt")),
                case("eps inside the square root", Status::Failed, Some("differs"), Some("eps-outside-sqrt")),
                case(
                    "the layer's own eps, with a square root",
                    Status::Failed,
                    Some("differs"),
                    Some("eps-outside-sqrt"),
                ),
            ],
            mistakes: vec!["eps-outside-sqrt".into()],
            known_mistakes: &MISTAKES,
            ..Report::default()
        };
        assert_eq!(shown_in_full(&report), Some(3), "the case about eps and the root, not the first one tagged");
        report.cases[3].mistake = None;
        assert_eq!(shown_in_full(&report), Some(4), "the next that speaks of it (eps, square, root)");
        report.cases[4].mistake = None;
        assert_eq!(shown_in_full(&report), Some(2), "one shared word is chance: the first tagged");
        report.mistakes.clear();
        assert_eq!(shown_in_full(&report), Some(1), "without a named mistake, the first failure");
        report.cases.truncate(1);
        assert_eq!(shown_in_full(&report), None);
    }

    #[test]
    fn little_words_say_nothing_about_a_mistake() {
        // "outputs about 1.4" and "outputs about sqrt(D) times too small" share one word that
        // says something: not enough for a title to speak of the mistake.
        assert_eq!(content_words("outputs about 1.4"), vec!["outputs".to_string()]);
        assert!(content_words("the sum of squares instead of their mean").contains(&"squares".to_string()));
    }

    #[test]
    fn identical_failures_are_counted_on_one_line() {
        let cases = [
            case("timed", Status::Failed, Some("time limit"), None),
            case("a", Status::Failed, Some("not run"), None),
            case("ok", Status::Passed, None, None),
            case("b", Status::Failed, Some("not run"), None),
            case("c", Status::Failed, Some("panicked at x.rs:3"), None),
            case("d", Status::Failed, Some("not run"), None),
        ];
        let refs: Vec<&CaseResult> = cases.iter().collect();
        let lines = one_line_failures(&refs, Some(&cases[0]));
        let shown: Vec<(usize, usize)> = lines.iter().map(|(at, line)| (*at, line.cases())).collect();
        assert_eq!(shown, vec![(1, 3), (4, 1)], "the full case left out, the three alike counted where the first is");
        colored::control::set_override(false);
        let printer = Printer::new(crate::text::LangChoice::En, true);
        let text = render_line(&printer, &lines[0].1, 80);
        assert_eq!(text, "  ✗ not run (3 cases)");
        let panic = render_line(&printer, &lines[1].1, 80);
        assert_eq!(panic, "  ✗ c · panicked at x.rs:3", "the title whole, the message with its location");
        // The message of the case shown in full is not said twice.
        let lines = one_line_failures(&refs, Some(&cases[1]));
        let shown: Vec<(usize, usize)> = lines.iter().map(|(at, line)| (*at, line.cases())).collect();
        assert_eq!(shown, vec![(0, 1), (3, 2), (4, 1)]);
        assert_eq!(render_line(&printer, &lines[1].1, 80), "  ✗ 2 more cases fail the same way");
    }
}
