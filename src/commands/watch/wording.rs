//! What the watch says in its own way: the running check's status with its elapsed time, the
//! keys' line cut to the width between its items, and the check's suggested commands said as the
//! watch's keys.

use std::time::Instant;

use super::worker::Status;
use crate::course::lesson::Language;
use crate::render::Printer;
use crate::text;

/// The status line of a running check, with the time it has lasted once that is a second or
/// more (a check that hangs shows it is still counting).
pub fn status_line(printer: &Printer, status: Status, since: Instant, file: &str) -> String {
    let text = match status {
        Status::WaitingForLock => printer.label(|u| u.waiting_for_lock),
        Status::Compiling { first_build } => {
            let mut text = printer.label(|u| u.watch_compiling).replace("{file}", file);
            if first_build {
                text = format!("{text}\n{}", printer.lines(|u| u.first_build, &[]));
            }
            text
        }
        Status::WaitingForCargo => printer.label(|u| u.waiting_for_cargo),
        Status::Running => format!("{}…", printer.label(|u| u.running_checks)),
    };
    match since.elapsed().as_secs() {
        0 => text,
        secs => format!("{text} {secs} s"),
    }
}

/// Each line of `text` cut into lines of at most `columns` between its ` · `-separated items (a
/// key stays beside its word), the lines after the first indented.
pub fn fit_items(text: &str, columns: usize) -> String {
    const SEPARATOR: &str = " · ";
    let mut out: Vec<String> = Vec::new();
    for line in text.lines() {
        let mut current = String::new();
        for item in line.split(SEPARATOR) {
            let joined = if current.is_empty() { item.to_string() } else { format!("{current}{SEPARATOR}{item}") };
            if current.is_empty() || crate::render::wrap::width(&joined) <= columns {
                current = joined;
            } else {
                out.push(current);
                current = format!("  {item}");
            }
        }
        out.push(current);
    }
    out.join("\n")
}

/// The report as the watch shows it: where it suggests a command the watch has a key for, it
/// names the key (each line in its own language).
pub fn said_as_keys(report: &str, id: &str) -> String {
    let prefix = crate::invocation::launcher().prefix();
    let hint = format!("`{prefix} hint {id}`");
    let ends = report.ends_with('\n');
    let mut out = report
        .lines()
        .map(|line| {
            let chinese = line.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c));
            let ui = text::ui(if chinese { Language::Zh } else { Language::En });
            let retry = text::fill(ui.fix_and_retry, &[("id", &id)]);
            line.replace(&retry, ui.watch_fix_and_save).replace(&hint, ui.watch_key_hint)
        })
        .collect::<Vec<_>>()
        .join("\n");
    if ends {
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_of_keys_breaks_between_items_only() {
        let keys = "Watching x.rs · c check · h hint · l list · q quit";
        assert_eq!(fit_items(keys, 30), "Watching x.rs · c check\n  h hint · l list · q quit");
        assert_eq!(fit_items(keys, 200), keys);
        // An item wider than the line stays whole.
        assert_eq!(fit_items("a-very-long-item · b", 5), "a-very-long-item\n  b");
    }

    #[test]
    fn the_commands_the_watch_has_keys_for_are_said_as_keys() {
        let prefix = crate::invocation::launcher().prefix();
        let report = format!(
            "1/26 cases pass · next: `{prefix} hint 01-weight`\n1/26 个用例通过 · 下一步：`{prefix} hint 01-weight`\n"
        );
        let said = said_as_keys(&report, "01-weight");
        assert_eq!(said, "1/26 cases pass · next: press `h` for a hint\n1/26 个用例通过 · 下一步：按 `h` 看提示\n");
        let retry = text::fill(text::ui(Language::En).fix_and_retry, &[("id", &"02-norm")]);
        assert_eq!(said_as_keys(&retry, "02-norm"), text::ui(Language::En).watch_fix_and_save);
        // Another exercise's command, or another command, stays as it is.
        let other = format!("`{prefix} hint 02-norm --level 2`");
        assert_eq!(said_as_keys(&other, "01-weight"), other);
    }
}
