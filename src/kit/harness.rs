//! The `main` of the grading binary that the CLI builds around a learner's file.
//!
//! Protocol: the CLI passes the report path as the only argument and writes a secret token on
//! standard input. The token is read before any of the learner's code runs and is written into
//! the report, so nothing the learner's code prints or writes can pass for a report: the CLI
//! accepts only a complete report with the right token, and anything else (an early exit, an
//! abort, a crash) is a failed check.

use std::io::{self, BufRead};
use std::path::PathBuf;
use std::process::ExitCode;

use crate::checks::{self, Build};
use crate::report;

/// Exit code when the harness was started without the CLI's protocol.
const USAGE_EXIT: u8 = 3;

/// Runs every check on the exercise `subject` builds and writes the report; see the module docs for the protocol.
pub fn main(subject: Build) -> ExitCode {
    let Some(report_path) = std::env::args_os().nth(1).map(PathBuf::from) else {
        eprintln!("usage: <harness> REPORT_PATH  (token on stdin); run it through `tutor check`");
        return ExitCode::from(USAGE_EXIT);
    };
    let mut token = String::new();
    if io::stdin().lock().read_line(&mut token).is_err() || token.trim().is_empty() {
        eprintln!("no token on stdin; run it through `tutor check`");
        return ExitCode::from(USAGE_EXIT);
    }
    let token = token.trim().to_string();

    checks::install_quiet_panic_hook();
    let results = checks::run_all(subject);
    let encoded = report::encode_complete(&results, &token);

    // Write then rename, so the CLI never reads half a report.
    let partial = report_path.with_extension("partial");
    let written = std::fs::write(&partial, encoded).and_then(|()| std::fs::rename(&partial, &report_path));
    match written {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("could not write the report to {}: {error}", report_path.display());
            ExitCode::from(USAGE_EXIT)
        }
    }
}
