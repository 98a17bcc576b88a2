//! The command line, as clap reads it: its shape here (commands, flags, types, defaults), the
//! help of every command and flag in both languages in [`defs`], put together by [`localize`].
//! No `///` comment below becomes help: the help a learner reads is written once, in `defs`.

mod defs;
mod localize;

use std::path::PathBuf;

use clap::{Parser, Subcommand};

pub use localize::{fit_help, localized};

use crate::course::lesson::Language;
use crate::text::{self, LangChoice, Ui};

/// The command line (what each command and flag does: [`defs::DEFS`]).
#[derive(Debug, Parser)]
#[command(name = "tutor", version)]
pub struct Cli {
    #[arg(long, global = true, value_enum)]
    pub lang: Option<LangChoice>,

    #[arg(long, global = true, value_name = "DIR")]
    pub workspace: Option<PathBuf>,

    #[arg(long, global = true)]
    pub no_color: bool,

    #[command(subcommand)]
    pub command: Option<Command>,
}

/// The commands (what each does: [`defs::DEFS`]).
#[derive(Debug, Subcommand)]
pub enum Command {
    List,
    Check {
        exercise: Option<String>,
        #[arg(long, conflicts_with = "exercise")]
        all: bool,
        #[arg(long)]
        verbose: bool,
        #[arg(long, value_enum, default_value_t = Format::Text)]
        format: Format,
        #[command(flatten)]
        limits: Limits,
    },
    Hint {
        exercise: Option<String>,
        #[arg(long, conflicts_with = "level")]
        all: bool,
        #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
        level: Option<u32>,
    },
    Reveal {
        exercise: Option<String>,
        #[arg(long)]
        yes: bool,
    },
    Lesson {
        exercise: Option<String>,
    },
    Init {
        // No default here: without DIR, init upgrades the course folder it runs in, and only
        // elsewhere writes `llm-course` (see `commands::init`, and the help in `defs`).
        dir: Option<PathBuf>,
        #[arg(long)]
        force: bool,
        #[arg(long)]
        no_build: bool,
    },
    Watch {
        #[arg(long)]
        manual: bool,
        #[arg(long)]
        auto_advance: bool,
        #[arg(long)]
        verbose: bool,
        #[command(flatten)]
        limits: Limits,
    },
    Reset {
        exercise: String,
        #[arg(long)]
        yes: bool,
    },
    Doctor,
    Completions {
        shell: clap_complete::Shell,
    },
    Dev {
        #[command(subcommand)]
        command: DevCommand,
    },
}

/// What `tutor dev` does: tools for course authors, which need no learner workspace.
#[derive(Debug, Subcommand)]
pub enum DevCommand {
    Check {
        course: Option<String>,
        #[arg(long, value_name = "DIR")]
        root: Option<PathBuf>,
        #[command(flatten)]
        limits: Limits,
    },
    New {
        name: String,
        #[arg(long, value_name = "DIR")]
        root: Option<PathBuf>,
    },
}

/// Seconds the graded code may run by default.
const DEFAULT_TIMEOUT: u64 = 10;
/// Seconds compiling the learner's file may take by default.
const DEFAULT_BUILD_TIMEOUT: u64 = 60;

/// How `tutor check` reports.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// For people: the report on the terminal.
    Text,
    /// For classrooms and CI: one JSON document on stdout.
    Json,
}

/// How a check is bounded, and which random inputs it draws.
#[derive(Debug, Clone, clap::Args)]
pub struct Limits {
    #[arg(long, default_value_t = DEFAULT_TIMEOUT, value_parser = clap::value_parser!(u64).range(1..=3600))]
    pub timeout: u64,
    #[arg(long, default_value_t = DEFAULT_BUILD_TIMEOUT, value_parser = clap::value_parser!(u64).range(1..=3600))]
    pub build_timeout: u64,
    #[arg(long, value_name = "N")]
    pub seed: Option<u64>,
}

impl Default for Limits {
    /// The limits when no flag is given (bare `tutor` starting the watch).
    fn default() -> Self {
        Limits { timeout: DEFAULT_TIMEOUT, build_timeout: DEFAULT_BUILD_TIMEOUT, seed: None }
    }
}

/// The language asked for on the command line (`--lang zh`, `--lang=zh`), read before clap so
/// that clap's help and errors can be in it.
pub fn lang_in_args(args: &[std::ffi::OsString]) -> Option<LangChoice> {
    let words: Vec<&str> = args.iter().filter_map(|a| a.to_str()).take_while(|a| *a != "--").collect();
    let value = words.iter().enumerate().find_map(|(i, word)| match word.strip_prefix("--lang") {
        Some("") => words.get(i + 1).copied(),
        Some(rest) => rest.strip_prefix('='),
        None => None,
    })?;
    <LangChoice as clap::ValueEnum>::from_str(value, true).ok()
}

/// clap's error in the chosen languages: clap's own words for English, ours for Chinese.
pub fn describe_error(error: &clap::Error, choice: LangChoice) -> String {
    choice
        .languages()
        .iter()
        .map(|&language| match language {
            Language::En => error.render().to_string().trim_end().to_string(),
            Language::Zh => chinese_error(error, text::ui(Language::Zh)),
        })
        .collect::<Vec<_>>()
        .join("\n\n")
}

/// What went wrong on the command line, in Chinese, from the context clap gives.
fn chinese_error(error: &clap::Error, ui: &Ui) -> String {
    use clap::error::{ContextKind, ErrorKind};
    let context = |kind| error.get(kind).map(|v| v.to_string()).unwrap_or_default();
    let (value, arg) = (context(ContextKind::InvalidValue), context(ContextKind::InvalidArg));
    let line = match error.kind() {
        ErrorKind::UnknownArgument => text::fill(ui.cli_error_unknown_argument, &[("value", &arg)]),
        ErrorKind::InvalidSubcommand => {
            text::fill(ui.cli_error_unknown_command, &[("value", &context(ContextKind::InvalidSubcommand))])
        }
        ErrorKind::InvalidValue | ErrorKind::ValueValidation => {
            let mut line = text::fill(ui.cli_error_invalid_value, &[("value", &value), ("arg", &arg)]);
            let possible = context(ContextKind::ValidValue);
            if !possible.is_empty() {
                line = format!("{line}；{}", text::fill(ui.cli_error_possible_values, &[("values", &possible)]));
            }
            line
        }
        ErrorKind::MissingRequiredArgument => text::fill(ui.cli_error_missing, &[("arg", &arg)]),
        ErrorKind::ArgumentConflict => {
            text::fill(ui.cli_error_conflict, &[("arg", &arg), ("other", &context(ContextKind::PriorArg))])
        }
        _ => ui.cli_error_other.to_string(),
    };
    format!("{}：{line}\n{}", ui.error, text::fill(ui.cli_error_more, &[]))
}
