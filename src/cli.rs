//! The command line, as clap reads it.

use std::path::PathBuf;

use clap::{Arg, ArgAction, CommandFactory, Parser, Subcommand};

use crate::course::lesson::Language;
use crate::text::{self, LangChoice, Ui};

/// A course runner for the building blocks of large language models: edit an exercise, check
/// it, ask for hints. 大模型基础模块的练习课程：编辑练习、检查、获取提示。
#[derive(Debug, Parser)]
#[command(name = "tutor", version)]
pub struct Cli {
    /// Language of everything shown: zh, en or both (default: TUTOR_LANG, else both).
    /// 显示语言：zh、en 或 both。
    #[arg(long, global = true, value_enum)]
    pub lang: Option<LangChoice>,

    /// The course folder (default: the nearest folder at or above this one holding
    /// exercises/info.toml). 课程文件夹。
    #[arg(long, global = true, value_name = "DIR")]
    pub workspace: Option<PathBuf>,

    /// No colour (NO_COLOR and non-terminal output turn it off too). 不使用颜色。
    #[arg(long, global = true)]
    pub no_color: bool,

    #[command(subcommand)]
    pub command: Option<Command>,
}

/// The commands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Every exercise with its status and the progress bar. 列出全部练习与进度。
    List,
    /// Compile and grade an exercise (default: the current one). 编译并评分一个练习。
    Check {
        /// `02-norm`, `02`, `2` or `norm`.
        exercise: Option<String>,
        /// Check every exercise. 检查全部练习。
        #[arg(long, conflicts_with = "exercise")]
        all: bool,
        /// Show every case in full. 完整显示每个用例。
        #[arg(long)]
        verbose: bool,
        /// `text` for people, `json` for classrooms and CI (docs/check-report.schema.json).
        #[arg(long, value_enum, default_value_t = Format::Text)]
        format: Format,
        #[command(flatten)]
        limits: Limits,
    },
    /// The next hint for an exercise. 显示下一条提示。
    Hint {
        /// `02-norm`, `02`, `2` or `norm` (default: the current one).
        exercise: Option<String>,
        /// Every hint level at once. 一次显示全部提示。
        #[arg(long, conflicts_with = "level")]
        all: bool,
        /// Show hint level N directly, whether or not the levels before it were read (a named
        /// mistake points at the level about it); it counts as read. 直接显示第 N 级提示，并记为已读。
        #[arg(long, value_parser = clap::value_parser!(u32).range(1..))]
        level: Option<u32>,
    },
    /// Show the reference solution, after a STOP HERE confirmation. 确认后显示参考答案。
    Reveal {
        /// `02-norm`, `02`, `2` or `norm` (default: the current one).
        exercise: Option<String>,
        /// Confirm without the typed prompt (needed without a terminal). 无需输入确认词。
        #[arg(long)]
        yes: bool,
    },
    /// Read a lesson (the overview without an argument). 阅读课程（不带参数时为总览）。
    Lesson {
        /// `02-norm`, `02`, `2` or `norm`.
        exercise: Option<String>,
    },
    /// Write a fresh course folder and warm up the grading harness. 创建新的课程文件夹。
    Init {
        /// Where (default: llm-course).
        #[arg(default_value = "llm-course")]
        dir: PathBuf,
        /// Write into a folder that already has files (existing exercise files are kept).
        /// 允许写入非空文件夹（已有的练习文件保留不动）。
        #[arg(long)]
        force: bool,
        /// Skip building the harness's dependencies now (the first check will). 暂不预编译依赖。
        #[arg(long)]
        no_build: bool,
    },
    /// Check the current exercise, then again on every save. 保存即检查。
    Watch {
        /// Re-check on Enter instead of on save (the default without a terminal). 按回车重新检查。
        #[arg(long)]
        manual: bool,
        /// Move on as soon as an exercise passes, without waiting for `n`. 通过后自动进入下一个练习。
        #[arg(long)]
        auto_advance: bool,
        /// Show every case in full. 完整显示每个用例。
        #[arg(long)]
        verbose: bool,
        #[command(flatten)]
        limits: Limits,
    },
    /// Put an exercise's original stub back (your file is backed up). 恢复练习的初始文件。
    Reset {
        /// `02-norm`, `02`, `2` or `norm`.
        exercise: String,
        /// Confirm without the typed prompt (needed without a terminal). 无需输入确认词。
        #[arg(long)]
        yes: bool,
    },
    /// Check the toolchain, the harness's dependencies, the workspace and the progress file.
    /// 检查工具链、依赖、工作区与进度文件。
    Doctor,
    /// Print a shell completion script. 输出 shell 补全脚本。
    Completions {
        /// bash, zsh, fish, elvish or powershell.
        shell: clap_complete::Shell,
    },
    /// Tools for course authors: check courses, start a new one. 课程作者工具。
    Dev {
        #[command(subcommand)]
        command: DevCommand,
    },
}

/// What `tutor dev` does: tools for course authors, which need no learner workspace.
#[derive(Debug, Subcommand)]
pub enum DevCommand {
    /// Check every course (or one), as CI does. 像 CI 一样检查课程。
    Check {
        /// The course to check (default: every registered course). 要检查的课程。
        course: Option<String>,
        /// Read the courses' content from this repository checkout, and compare its grading code
        /// (default: the current folder when it is a checkout). 从仓库检出中读取课程内容并比较评分代码。
        #[arg(long, value_name = "DIR")]
        root: Option<PathBuf>,
        #[command(flatten)]
        limits: Limits,
    },
    /// Scaffold a new course and register it. 创建新课程的骨架并注册。
    New {
        /// The course's id. 课程的 id。
        name: String,
        /// The repository checkout to write into (default: the current folder). 要写入的仓库检出。
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
    /// Seconds the graded code may run, all cases together, before it is stopped. 运行时限（秒）。
    #[arg(long, default_value_t = DEFAULT_TIMEOUT, value_parser = clap::value_parser!(u64).range(1..=3600))]
    pub timeout: u64,
    /// Seconds compiling your file may take before it is stopped. 编译时限（秒）。
    #[arg(long, default_value_t = DEFAULT_BUILD_TIMEOUT, value_parser = clap::value_parser!(u64).range(1..=3600))]
    pub build_timeout: u64,
    /// Repeat the random inputs of an earlier check (its seed is printed). 复现某次检查的随机输入。
    #[arg(long, value_name = "N")]
    pub seed: Option<u64>,
}

/// The command line with its help in the chosen languages: every `about` and `help` string,
/// the headings of the help page, and the help and version flags. clap's usage line keeps its
/// own placeholders (`[OPTIONS]`, `<EXERCISE>`): clap gives no way to translate them.
pub fn localized(choice: LangChoice) -> clap::Command {
    let say_with = |pick: fn(&Ui) -> &'static str, default: u64| -> String {
        let values: [(&str, &dyn std::fmt::Display); 1] = [("default", &default)];
        choice.languages().iter().map(|&l| text::fill(pick(text::ui(l)), &values)).collect::<Vec<_>>().join(" ")
    };
    let say = |pick: fn(&Ui) -> &'static str| say_with(pick, 0);
    let heading = |pick: fn(&Ui) -> &'static str| -> String {
        choice.languages().iter().map(|&l| pick(text::ui(l))).collect::<Vec<_>>().join(" / ")
    };
    let template = format!(
        "{{about-with-newline}}\n{}: {{usage}}\n\n{{all-args}}{{after-help}}",
        heading(|u| u.cli_usage_heading)
    );
    let (options, arguments) = (heading(|u| u.cli_options_heading), heading(|u| u.cli_arguments_heading));
    let help = Arg::new("help").short('h').long("help").action(ArgAction::Help).global(true).help(say(|u| u.cli_help));
    let bounds = |c: clap::Command| {
        // The defaults are in the sentences: clap would add them in English.
        c.mut_arg("timeout", |a| a.help(say_with(|u| u.cli_timeout, DEFAULT_TIMEOUT)).hide_default_value(true))
            .mut_arg("build_timeout", |a| {
                a.help(say_with(|u| u.cli_build_timeout, DEFAULT_BUILD_TIMEOUT)).hide_default_value(true)
            })
            .mut_arg("seed", |a| a.help(say(|u| u.cli_seed)))
    };
    let limits = |c: clap::Command| bounds(c).mut_arg("verbose", |a| a.help(say(|u| u.cli_verbose)));
    let exercise = |c: clap::Command, pick: fn(&Ui) -> &'static str| c.mut_arg("exercise", |a| a.help(say(pick)));
    let yes = |c: clap::Command| c.mut_arg("yes", |a| a.help(say(|u| u.cli_yes)));
    let command = <Cli as CommandFactory>::command()
        .about(say(|u| u.cli_about))
        // The sentence names the values: clap would list them with English descriptions.
        .mut_arg("lang", |a| a.help(say(|u| u.cli_lang)).hide_possible_values(true))
        .mut_arg("workspace", |a| a.help(say(|u| u.cli_workspace)))
        .mut_arg("no_color", |a| a.help(say(|u| u.cli_no_color)))
        .mut_subcommand("list", |s| s.about(say(|u| u.cli_list)))
        .mut_subcommand("check", |s| {
            limits(exercise(s.about(say(|u| u.cli_check)), |u| u.cli_exercise_or_current))
                .mut_arg("all", |a| a.help(say(|u| u.cli_check_all)))
                .mut_arg("format", |a| {
                    a.help(say(|u| u.cli_format)).hide_possible_values(true).hide_default_value(true)
                })
        })
        .mut_subcommand("hint", |s| {
            exercise(s.about(say(|u| u.cli_hint)), |u| u.cli_exercise_or_current)
                .mut_arg("all", |a| a.help(say(|u| u.cli_hint_all)))
                .mut_arg("level", |a| a.help(say(|u| u.cli_hint_level)))
        })
        .mut_subcommand("reveal", |s| yes(exercise(s.about(say(|u| u.cli_reveal)), |u| u.cli_exercise_or_current)))
        .mut_subcommand("lesson", |s| exercise(s.about(say(|u| u.cli_lesson)), |u| u.cli_exercise))
        .mut_subcommand("init", |s| {
            s.about(say(|u| u.cli_init))
                .mut_arg("dir", |a| a.help(say(|u| u.cli_init_dir)))
                .mut_arg("force", |a| a.help(say(|u| u.cli_init_force)))
                .mut_arg("no_build", |a| a.help(say(|u| u.cli_init_no_build)))
        })
        .mut_subcommand("watch", |s| {
            limits(s.about(say(|u| u.cli_watch)))
                .mut_arg("manual", |a| a.help(say(|u| u.cli_watch_manual)))
                .mut_arg("auto_advance", |a| a.help(say(|u| u.cli_auto_advance)))
        })
        .mut_subcommand("reset", |s| yes(exercise(s.about(say(|u| u.cli_reset)), |u| u.cli_exercise)))
        .mut_subcommand("doctor", |s| s.about(say(|u| u.cli_doctor)))
        .mut_subcommand("completions", |s| {
            s.about(say(|u| u.cli_completions)).mut_arg("shell", |a| a.help(say(|u| u.cli_shell)))
        })
        .mut_subcommand("dev", |s| {
            s.about(say(|u| u.cli_dev))
                .mut_subcommand("check", |c| {
                    bounds(c.about(say(|u| u.cli_dev_check)))
                        .mut_arg("course", |a| a.help(say(|u| u.cli_dev_course)))
                        .mut_arg("root", |a| a.help(say(|u| u.cli_dev_root)))
                })
                .mut_subcommand("new", |c| {
                    c.about(say(|u| u.cli_dev_new))
                        .mut_arg("name", |a| a.help(say(|u| u.cli_dev_name)))
                        .mut_arg("root", |a| a.help(say(|u| u.cli_dev_new_root)))
                })
                .subcommand_help_heading(heading(|u| u.cli_commands_heading))
                .mut_subcommands(|c| c.disable_help_flag(true).help_template(template.clone()))
                .mut_subcommands(|c| with_headings(c, &options, &arguments))
        })
        .subcommand_help_heading(heading(|u| u.cli_commands_heading))
        .disable_help_flag(true)
        .disable_version_flag(true)
        .arg(help)
        .arg(Arg::new("version").short('V').long("version").action(ArgAction::Version).help(say(|u| u.cli_version)))
        .mut_subcommands(|s| s.disable_help_flag(true).help_template(template.clone()))
        .help_template(template.clone());
    let command = with_headings(command, &options, &arguments);
    // The `help` subcommand exists only once clap has built the command.
    let mut command = command.mut_subcommands(|s| with_headings(s, &options, &arguments));
    command.build();
    command
        .mut_subcommand("help", |s| s.about(say(|u| u.cli_help_command)))
        .mut_subcommand("dev", |s| s.mut_subcommand("help", |h| h.about(say(|u| u.cli_help_command))))
}

/// Puts a command's options and positional arguments under headings in the chosen languages.
fn with_headings(command: clap::Command, options: &str, arguments: &str) -> clap::Command {
    let (options, arguments) = (options.to_string(), arguments.to_string());
    command.mut_args(move |a| {
        let heading = if a.is_positional() { arguments.clone() } else { options.clone() };
        a.help_heading(heading)
    })
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
