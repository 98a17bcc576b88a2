//! What every command and flag does, in both languages, each defined once (as ripgrep's
//! `flags/defs.rs` does). The help pages and the shell completions are made from this list by
//! [`super::localize`]; clap's own defaults and value lists are added there, so a sentence here
//! never repeats a default (`--timeout`'s 10 s is said where the flag is declared, in `mod.rs`).

use crate::course::lesson::Language;

/// One sentence in both languages.
#[derive(Debug, Clone, Copy)]
pub struct Help {
    pub zh: &'static str,
    pub en: &'static str,
}

impl Help {
    /// The sentence in one language.
    pub fn get(&self, language: Language) -> &'static str {
        match language {
            Language::Zh => self.zh,
            Language::En => self.en,
        }
    }
}

/// The help of one command (`arg: None`) or of one of its arguments.
#[derive(Debug)]
pub struct Def {
    /// The command's path as typed after `tutor` (`"check"`, `"dev check"`; `""` for `tutor`
    /// itself); `"*"`: an argument of that id in any command; `"* help"`: every `help` command.
    pub command: &'static str,
    /// The argument's id (the field's name), or `None` for the command itself.
    pub arg: Option<&'static str>,
    pub help: Help,
}

impl Def {
    /// Whether this definition is the one for `arg` (or the command itself) at `path`.
    pub fn applies(&self, path: &str, arg: Option<&str>) -> bool {
        let place = match self.command.strip_prefix("* ") {
            Some(last) => path.rsplit(' ').next() == Some(last),
            None => self.command == path || self.command == "*",
        };
        place && self.arg == arg
    }
}

/// `(default: …)`, after a flag's sentence, with the value clap holds.
pub fn default_note(language: Language, value: &str) -> String {
    match language {
        Language::Zh => format!("（默认：{value}）"),
        Language::En => format!(" (default: {value})"),
    }
}

const fn cmd(command: &'static str, zh: &'static str, en: &'static str) -> Def {
    Def { command, arg: None, help: Help { zh, en } }
}

const fn arg(command: &'static str, arg: &'static str, zh: &'static str, en: &'static str) -> Def {
    Def { command, arg: Some(arg), help: Help { zh, en } }
}

/// Every command and argument; a unit test checks that the list and clap's command agree.
pub static DEFS: &[Def] = &[
    cmd(
        "",
        "大模型基础模块的练习课程：编辑练习、检查、获取提示。",
        "A course runner for the building blocks of large language models: edit an exercise, check it, ask for hints.",
    ),
    arg("*", "lang", "显示语言：zh、en 或 both（默认：TUTOR_LANG，否则 both）。", "Language of everything shown: zh, en or both (default: TUTOR_LANG, else both)."),
    arg(
        "*",
        "workspace",
        "课程文件夹（默认：当前或上级目录中最近的、含有 exercises/<课程>/info.toml 的文件夹；`tutor init` 创建一个）。",
        "The course folder (default: the nearest folder at or above this one holding exercises/<course>/info.toml; `tutor init` makes one).",
    ),
    arg("*", "no_color", "不使用颜色（设置 NO_COLOR 或输出不是终端时也不使用）。", "No colour (NO_COLOR and non-terminal output turn it off too)."),
    arg("*", "help", "显示帮助。", "Print help."),
    arg("*", "version", "显示版本。", "Print the version."),
    cmd("* help", "显示本帮助，或某个命令的帮助。", "Print this message or the help of the given command."),
    cmd("list", "列出全部练习与进度。", "Every exercise with its status and the progress bar."),
    cmd("check", "编译并评分一个练习（默认：当前练习）。", "Compile and grade an exercise (default: the current one)."),
    arg("check", "exercise", "`02-norm`、`02`、`2` 或 `norm`（默认：当前练习）。", "`02-norm`, `02`, `2` or `norm` (default: the current one)."),
    arg("check", "all", "检查全部练习。", "Check every exercise."),
    arg(
        "*",
        "verbose",
        "完整显示每个用例（默认只完整显示第一个失败的用例，其余每个一行）。",
        "Show every case in full (by default a failure shows the first failing case in full and the others on one line each).",
    ),
    arg(
        "check",
        "format",
        "报告格式：`text` 给人看，`json` 给课堂与 CI，在标准输出写出一份文档（结构见 docs/check-report.schema.json）。",
        "How to report: `text` for people, `json` for classrooms and CI, one document on stdout (schema: docs/check-report.schema.json).",
    ),
    arg("*", "timeout", "被评分的代码（全部用例合计）最多运行的秒数，超时即停止。", "Seconds the graded code may run, all cases together, before it is stopped."),
    arg("*", "build_timeout", "编译你的文件最多允许的秒数，超时即停止。", "Seconds compiling your file may take before it is stopped."),
    arg("*", "seed", "复现某次检查的随机输入（检查时会打印种子）。", "Repeat the random inputs of an earlier check (its seed is printed)."),
    cmd("hint", "显示下一条提示。", "The next hint for an exercise."),
    arg("hint", "exercise", "`02-norm`、`02`、`2` 或 `norm`（默认：当前练习）。", "`02-norm`, `02`, `2` or `norm` (default: the current one)."),
    arg("hint", "all", "一次显示全部提示。", "Every hint level at once."),
    // A named mistake points at the hint about it, often not the next one: the level is shown
    // whether or not the ones before it were read.
    arg(
        "hint",
        "level",
        "直接显示第 N 级提示，不论前面几级是否看过（指出的常见错误会给出对应的级别）；它算作已读。",
        "Show hint level N directly, whether or not the levels before it were read (a named mistake gives the level about it); it counts as read.",
    ),
    cmd("reveal", "确认后显示参考答案。", "Show the reference solution, after a STOP HERE confirmation."),
    arg("reveal", "exercise", "`02-norm`、`02`、`2` 或 `norm`（默认：当前练习）。", "`02-norm`, `02`, `2` or `norm` (default: the current one)."),
    arg("*", "yes", "无需输入确认词（没有终端时必须使用）。", "Confirm without the typed prompt (needed without a terminal)."),
    cmd("lesson", "阅读课程（不带参数时为总览）。", "Read a lesson (the overview without an argument)."),
    arg("lesson", "exercise", "`02-norm`、`02`、`2` 或 `norm`。", "`02-norm`, `02`, `2` or `norm`."),
    cmd(
        "init",
        "创建新的课程文件夹，并预先构建评分程序；在已有的课程文件夹里运行时，补上新增的章节（你写的文件与进度不变）。",
        "Write a fresh course folder and warm up the grading harness; in an existing course folder, add the chapters it lacks (your files and progress stay as they are).",
    ),
    arg(
        "init",
        "dir",
        "位置（默认：在课程文件夹里运行时就是这个课程文件夹，否则为 llm-course）。",
        "Where (default: the course folder it runs in, which is upgraded; elsewhere llm-course).",
    ),
    arg("init", "force", "允许写入非空文件夹（已有的练习文件保留不动）。", "Write into a folder that already has files (existing exercise files are kept)."),
    arg("init", "no_build", "暂不预编译依赖（第一次检查时再编译）。", "Skip building the harness's dependencies now (the first check will)."),
    cmd("watch", "检查当前练习，之后每次保存都重新检查。", "Check the current exercise, then again on every save."),
    arg("watch", "manual", "按回车重新检查，而不是保存时检查（没有终端时的默认行为）。", "Re-check on Enter instead of on save (the default without a terminal)."),
    arg("watch", "auto_advance", "练习通过后立即进入下一个，不等待按 `n`。", "Move on as soon as an exercise passes, without waiting for `n`."),
    cmd("reset", "恢复练习的初始文件（你的文件会先备份）。", "Put an exercise's original stub back (your file is backed up)."),
    arg("reset", "exercise", "`02-norm`、`02`、`2` 或 `norm`。", "`02-norm`, `02`, `2` or `norm`."),
    cmd("doctor", "检查工具链、评分依赖、工作区与进度文件。", "Check the toolchain, the harness's dependencies, the workspace and the progress file."),
    cmd("completions", "输出 shell 补全脚本。", "Print a shell completion script."),
    arg("completions", "shell", "bash、zsh、fish、elvish 或 powershell。", "bash, zsh, fish, elvish or powershell."),
    cmd("dev", "课程作者工具：检查课程、创建新课程。", "Tools for course authors: check courses, start a new one."),
    cmd(
        "dev check",
        "像 CI 一样检查全部课程（或其中一门）：练习文件在自己的 TODO 上失败、参考答案通过、课文两种语言齐全、提示不泄露答案、常见错误指向存在的提示。",
        "Check every course (or one), as CI does: stubs fail on their TODO, solutions pass, lessons are complete in both languages, hints give nothing away, mistakes point at hints that exist.",
    ),
    arg("dev check", "course", "要检查的课程（默认：全部已注册的课程）。", "The course to check (default: every registered course)."),
    arg(
        "dev check",
        "root",
        "从这个仓库检出中读取课程内容（exercises/、solutions/、lessons/），并把其中的评分代码（courses/）与编译进来的版本比较（默认：当前文件夹是仓库检出时用它，否则用 tutor 自带的文件）。",
        "Read the courses' content (exercises/, solutions/, lessons/) from this repository checkout, and compare its grading code (courses/) with the compiled-in one (default: the current folder when it is a checkout, else the files inside tutor).",
    ),
    cmd(
        "dev new",
        "创建一门新课程的骨架（目录、练习、答案、课文、kit 与评分 crate）并注册它。",
        "Scaffold a new course (catalogue, stub, solution, lessons, kit and grading crates) and register it.",
    ),
    arg("dev new", "name", "课程的 id：以小写字母开头，其后为小写字母、数字或 `_`。", "The course's id: a lowercase letter, then lowercase letters, digits or `_`."),
    arg("dev new", "root", "要写入的仓库检出（默认：当前文件夹）。", "The repository checkout to write into (default: the current folder)."),
];

/// The definition for `arg` (or the command itself) at `path`: the command's own first, then one
/// for every command.
pub fn find(path: &str, arg: Option<&str>) -> Option<&'static Def> {
    DEFS.iter().find(|d| d.command == path && d.arg == arg).or_else(|| DEFS.iter().find(|d| d.applies(path, arg)))
}
