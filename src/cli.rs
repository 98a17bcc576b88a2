//! The command line, as clap reads it.

use std::path::PathBuf;

use clap::{Parser, Subcommand};

use crate::text::LangChoice;

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
        /// Where (default: rmsnorm-course).
        #[arg(default_value = "rmsnorm-course")]
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
}

/// How a check is bounded, and which random inputs it draws.
#[derive(Debug, Clone, clap::Args)]
pub struct Limits {
    /// Seconds the graded code may run, all cases together, before it is stopped. 运行时限（秒）。
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u64).range(1..=3600))]
    pub timeout: u64,
    /// Seconds compiling your file may take before it is stopped. 编译时限（秒）。
    #[arg(long, default_value_t = 60, value_parser = clap::value_parser!(u64).range(1..=3600))]
    pub build_timeout: u64,
    /// Repeat the random inputs of an earlier check (its seed is printed). 复现某次检查的随机输入。
    #[arg(long, value_name = "N")]
    pub seed: Option<u64>,
}
