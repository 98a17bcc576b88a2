//! Long text on a terminal goes through the learner's pager (`$PAGER`, else `less -R`), as `git`
//! does; anywhere else, and when no pager can be started, it is simply printed.

use std::io::{IsTerminal, Write};
use std::process::{Command, Stdio};

/// Prints `text`, paged when stdout is a terminal and the text is taller than the screen.
pub fn show(text: &str) {
    if std::io::stdout().is_terminal() {
        let rows = crossterm::terminal::size().map_or(usize::MAX, |(_, rows)| usize::from(rows));
        if text.lines().count() >= rows && page(text) {
            return;
        }
    }
    print!("{text}");
}

/// Hands `text` to the pager; false when none could run (then the caller prints it).
fn page(text: &str) -> bool {
    let pager = std::env::var("PAGER").ok().filter(|p| !p.trim().is_empty()).unwrap_or_else(|| "less -R".into());
    // Quitting the pager early closes the pipe: that is not an error worth dying of.
    #[cfg(unix)]
    // SAFETY: SIG_IGN is a valid disposition; tutor ends right after the lesson is shown.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_IGN);
    }
    let Ok(mut child) = Command::new("sh").arg("-c").arg(&pager).stdin(Stdio::piped()).spawn() else {
        return false;
    };
    if let Some(mut stdin) = child.stdin.take() {
        let _ = stdin.write_all(text.as_bytes());
    }
    // `sh` says 127 when the pager itself does not exist.
    child.wait().is_ok_and(|status| status.code() != Some(127))
}
