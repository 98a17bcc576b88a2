//! `tutor`: the command-line course runner. See `README.md` and `../DESIGN.md` for the map.

mod cli;
mod commands;
mod course;
mod errors;
mod fsutil;
mod invocation;
mod migrate;
mod progress;
mod render;
mod runner;
mod text;
mod tty;
mod workspace;

use std::process::ExitCode;

use crate::course::lesson::Language;
use crate::render::Printer;
use crate::text::LangChoice;

fn main() -> ExitCode {
    restore_default_sigpipe();
    install_panic_hook();
    let args: Vec<std::ffi::OsString> = std::env::args_os().collect();
    let asked = cli::lang_in_args(&args).unwrap_or_else(LangChoice::from_env);
    let cli = match parse(asked, args) {
        Ok(cli) => cli,
        Err(code) => return code,
    };
    let printer = Printer::new(cli.lang.unwrap_or(asked), cli.no_color);
    match commands::run(cli, printer.clone()) {
        Ok(code) => code,
        Err(error) => {
            errors::report(&printer, &error);
            ExitCode::from(2)
        }
    }
}

/// Reads the command line with clap's help and errors in the languages asked for; help and
/// version end the program here (exit 0), a usage error too (exit 2).
fn parse(choice: LangChoice, args: Vec<std::ffi::OsString>) -> Result<cli::Cli, ExitCode> {
    use clap::error::ErrorKind;
    let matches = cli::localized(choice).try_get_matches_from(args);
    let error = match matches.and_then(|m| <cli::Cli as clap::FromArgMatches>::from_arg_matches(&m)) {
        Ok(cli) => return Ok(cli),
        Err(error) => error,
    };
    match error.kind() {
        ErrorKind::DisplayHelp => {
            let page = error.render().to_string();
            print!("{}", cli::fit_help(&page, crate::render::wrap::terminal_width()));
            Err(ExitCode::SUCCESS)
        }
        ErrorKind::DisplayVersion => {
            let _ = error.print();
            Err(ExitCode::SUCCESS)
        }
        _ => {
            eprintln!("{}", cli::describe_error(&error, choice));
            Err(ExitCode::from(2))
        }
    }
}

/// A bug in tutor must not greet a learner with a backtrace: say what happened, in both
/// languages, and that nothing was lost.
fn install_panic_hook() {
    std::panic::set_hook(Box::new(|info| {
        // `tutor watch` may have the terminal in key mode with the cursor hidden: give it back
        // first.
        tty::restore();
        let detail = info.to_string();
        for language in Language::BOTH {
            eprintln!("{}", text::fill(text::ui(language).internal_error, &[("detail", &detail)]));
        }
        std::process::exit(2);
    }));
}

/// `tutor list | head` should end quietly when `head` closes the pipe, as other command-line
/// tools do, instead of failing to print. Rust ignores SIGPIPE by default; restore the default.
fn restore_default_sigpipe() {
    #[cfg(unix)]
    // SAFETY: called first thing in main, before any other thread exists; SIG_DFL is a valid
    // disposition for SIGPIPE.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}
