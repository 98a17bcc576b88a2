//! `tutor list`, and bare `tutor`: the list plus the next step.

use std::process::ExitCode;

use anyhow::Result;

use super::Session;
use crate::render::list::{current, render};

/// Prints the list; with `with_next_step`, also what to do next.
pub fn run(session: &Session, with_next_step: bool) -> Result<ExitCode> {
    let state = session.state()?;
    print!("{}", render(&session.printer, &session.catalogue, &state));
    if with_next_step {
        println!();
        match current(&session.catalogue, &state) {
            Some(next) => session.printer.say(|u| u.next_step, &[("file", &next.file), ("id", &next.id)]),
            None => session.printer.say(|u| u.all_done, &[]),
        }
    }
    Ok(ExitCode::SUCCESS)
}
