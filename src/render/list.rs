//! `tutor list`: every exercise with its status, hints used and a progress bar.

use colored::Colorize;

use super::{title, wrap, Printer};
use crate::course::{Catalogue, Lesson};
use crate::progress::{ExerciseStatus, State};

/// The first exercise not yet passed of the course being taken (the one last checked in), else
/// of the whole catalogue, if any.
pub fn current<'a>(catalogue: &'a Catalogue, state: &State) -> Option<&'a crate::course::Exercise> {
    let open = |e: &&crate::course::Exercise| state.of(&e.key()).status != ExerciseStatus::Passed;
    let taking = state.taking.as_deref();
    catalogue
        .exercises
        .iter()
        .filter(|e| taking == Some(e.course.as_str()))
        .find(open)
        .or_else(|| catalogue.exercises.iter().find(open))
}

/// The first exercise after the one at `index` (going round the catalogue) not passed yet: the
/// rest of its course first, then the courses after it.
pub fn next_not_passed(catalogue: &Catalogue, state: &State, index: usize) -> Option<usize> {
    let count = catalogue.exercises.len();
    (1..count)
        .map(|step| (index + step) % count)
        .find(|&i| state.of(&catalogue.exercises[i].key()).status != ExerciseStatus::Passed)
}

/// Whether every exercise of `course` has passed.
pub fn course_done(catalogue: &Catalogue, state: &State, course: &str) -> bool {
    catalogue.exercises_of(course).all(|e| state.of(&e.key()).status == ExerciseStatus::Passed)
}

/// A course's title in the chosen languages, by its id.
pub fn course_title(printer: &Printer, catalogue: &Catalogue, course: &str) -> String {
    catalogue.course(course).map_or_else(|| course.to_string(), |c| title(printer, &c.info.title_zh, &c.info.title_en))
}

/// Renders the list.
pub fn render(printer: &Printer, catalogue: &Catalogue, state: &State) -> String {
    render_with_cursor(printer, catalogue, state, None)
}

/// Renders the list with the exercise at index `cursor` marked by `>` (`tutor watch`'s list).
pub fn render_with_cursor(printer: &Printer, catalogue: &Catalogue, state: &State, cursor: Option<usize>) -> String {
    let entries = render_marking(printer, catalogue, state, cursor).0;
    format!("{entries}\n{}\n", progress_bar(printer, catalogue, state))
}

/// The entries of [`render_with_cursor`] (without its progress bar), and the lines (first, one
/// past the last) the cursor's exercise takes, for a window that keeps it on screen.
pub fn render_marking(
    printer: &Printer,
    catalogue: &Catalogue,
    state: &State,
    cursor: Option<usize>,
) -> (String, (usize, usize)) {
    let mut marked = (0, 0);
    let mut out = String::new();
    let columns = printer.width();
    // The titles line up under the longest id (eleven cells at least, as `04-backward` takes).
    let width = catalogue.exercises.iter().map(|e| e.id.chars().count()).max().unwrap_or(0).max(11);
    let current_id = current(catalogue, state).map(|e| e.key());
    let mut course_shown = None;
    for (index, exercise) in catalogue.exercises.iter().enumerate() {
        // Each course under its title, with its id (what `check COURSE/EXERCISE` takes).
        if course_shown != Some(&exercise.course) {
            if let Some(course) = catalogue.course(&exercise.course) {
                let heading = title(printer, &course.info.title_zh, &course.info.title_en);
                let gap = if course_shown.is_some() { "\n" } else { "" };
                let heading = format!("{} {}", heading.bold(), format!("({})", course.id).dimmed());
                out.push_str(&format!("{gap}{}\n\n", wrap::wrap(&heading, "", "  ", columns)));
            }
            course_shown = Some(&exercise.course);
        }
        let progress = state.of(&exercise.key());
        let (mark, status) = match progress.status {
            ExerciseStatus::Passed => ("✓".green(), printer.label(|u| u.status_done).green()),
            ExerciseStatus::Failing => ("✗".red(), printer.label(|u| u.status_failing).red()),
            ExerciseStatus::NotStarted => ("·".normal(), printer.label(|u| u.status_not_started).normal()),
        };
        let total_hints = Lesson::parse(exercise.lesson_source()).map_or(0, |l| l.hint_count());
        let mut extras = vec![printer
            .lines(|u| u.hints_used, &[("n", &progress.hints), ("total", &total_hints)])
            .replace('\n', " / ")];
        if let Some(failed_at) = progress.failed_after_pass {
            let time = crate::progress::clock(failed_at);
            extras.push(printer.inline(|u| u.status_failed_after_pass, &[("time", &time)]).yellow().to_string());
        }
        if progress.revealed {
            extras.push(printer.label(|u| u.status_revealed).yellow().to_string());
        }
        let here = if current_id.as_deref() == Some(exercise.key().as_str()) {
            format!("  {}", printer.label(|u| u.current).cyan().bold())
        } else {
            String::new()
        };
        let (pointer, id) = if cursor == Some(index) {
            (">".cyan().bold(), exercise.id.bold().reversed())
        } else {
            (" ".normal(), exercise.id.bold())
        };
        // Each line wrapped under its own text: the title under the title, the status under
        // the status.
        let head = format!("{pointer}{mark} {:<width$} ", id);
        let title_line =
            wrap::wrap(&title(printer, &exercise.title_zh, &exercise.title_en), &head, &" ".repeat(width + 4), columns);
        let status_line = wrap::wrap(&format!("{status} · {}{here}", extras.join(" · ")), "     ", "       ", columns);
        let entry = format!("{title_line}\n{status_line}\n");
        if cursor == Some(index) {
            let first = out.matches('\n').count();
            marked = (first, first + entry.matches('\n').count());
        }
        out.push_str(&entry);
    }
    (out, marked)
}

/// The progress bar and its count, e.g. ` [########----------------] 1/3 done`.
pub fn progress_bar(printer: &Printer, catalogue: &Catalogue, state: &State) -> String {
    let done = catalogue.exercises.iter().filter(|e| state.of(&e.key()).status == ExerciseStatus::Passed).count();
    format!(
        " {} {}",
        bar(done, catalogue.exercises.len()),
        printer.lines(|u| u.progress, &[("done", &done), ("total", &catalogue.exercises.len())]).replace('\n', " / ")
    )
}

/// A text progress bar, 24 cells wide.
fn bar(done: usize, total: usize) -> String {
    const WIDTH: usize = 24;
    let filled = (done * WIDTH).checked_div(total).unwrap_or(0);
    format!("[{}{}]", "#".repeat(filled).green(), "-".repeat(WIDTH - filled))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_bar_fills_in_proportion() {
        colored::control::set_override(false);
        assert_eq!(bar(0, 3), format!("[{}]", "-".repeat(24)));
        assert_eq!(bar(3, 3), format!("[{}]", "#".repeat(24)));
        assert_eq!(bar(1, 3), format!("[{}{}]", "#".repeat(8), "-".repeat(16)));
    }
}
