//! The command line with its help in the chosen languages, made from [`super::defs`]: every
//! command's about and every argument's help, the defaults clap holds, the headings of the help
//! page. clap's usage line keeps its own placeholders (`[OPTIONS]`, `<EXERCISE>`): clap gives no
//! way to translate them.

use clap::{Arg, ArgAction, CommandFactory};

use super::defs::{self, default_note, Help};
use super::Cli;
use crate::text::{self, LangChoice, Ui};

/// `tutor`'s command with its help in `choice`'s languages (also what completions are made of).
pub fn localized(choice: LangChoice) -> clap::Command {
    let heading = |pick: fn(&Ui) -> &'static str| -> String {
        choice.languages().iter().map(|&l| pick(text::ui(l))).collect::<Vec<_>>().join(" / ")
    };
    let headings = Headings {
        options: heading(|u| u.cli_options_heading),
        arguments: heading(|u| u.cli_arguments_heading),
        commands: heading(|u| u.cli_commands_heading),
        template: format!(
            "{{about-with-newline}}\n{}: {{usage}}\n\n{{all-args}}{{after-help}}",
            heading(|u| u.cli_usage_heading)
        ),
    };
    let say = |path: &str, arg: Option<&str>| say(choice, lookup(path, arg), None);
    let command = <Cli as CommandFactory>::command()
        .disable_help_flag(true)
        .disable_version_flag(true)
        .arg(Arg::new("help").short('h').long("help").action(ArgAction::Help).global(true))
        .arg(Arg::new("version").short('V').long("version").action(ArgAction::Version))
        .version(version());
    let mut command = describe(command, "", choice, &headings);
    // The `help` commands exist only once clap has built the command.
    command.build();
    command
        .mut_subcommand("help", |s| s.about(say("help", None)))
        .mut_subcommand("dev", |s| s.mut_subcommand("help", |h| h.about(say("dev help", None))))
}

/// What `--version` says after `tutor`: the version, the commit it was built from (see
/// `build.rs`) and the chapters it carries, so that two builds of one version are told apart.
pub fn version() -> String {
    let chapters: Vec<&str> = crate::course::embedded::courses().iter().map(|c| c.id).collect();
    format!("{} (commit {}; chapters: {})", env!("CARGO_PKG_VERSION"), env!("TUTOR_COMMIT"), chapters.join(", "))
}

/// clap's help page fitted to `columns` (clap wraps only with a feature that needs one more
/// crate): a line too wide goes on under the column where its description starts.
pub fn fit_help(text: &str, columns: usize) -> String {
    let fitted: Vec<String> = text.lines().map(|line| fit_help_line(line, columns)).collect();
    let end = if text.ends_with('\n') { "\n" } else { "" };
    format!("{}{end}", fitted.join("\n"))
}

fn fit_help_line(line: &str, columns: usize) -> String {
    use crate::render::wrap::{width, wrap};
    if width(line) <= columns {
        return line.to_string();
    }
    let indent = line.len() - line.trim_start().len();
    // The description starts after the first gap of two spaces or more past the indent (clap's
    // layout); a line without one, or with its description past the middle, wraps at its indent.
    let body = &line[indent..];
    let start = body.find("  ").map(|gap| indent + gap + (body[gap..].len() - body[gap..].trim_start().len()));
    let start = start.filter(|&s| width(&line[..s]) <= columns / 2).unwrap_or(indent);
    let (head, description) = line.split_at(start);
    wrap(description, head, &" ".repeat(width(head)), columns)
}

/// The help page's headings and template in the chosen languages.
struct Headings {
    options: String,
    arguments: String,
    commands: String,
    template: String,
}

/// Gives `command` (at `path`) and its arguments and subcommands their help.
fn describe(command: clap::Command, path: &str, choice: LangChoice, headings: &Headings) -> clap::Command {
    let about = say(choice, lookup(path, None), None);
    let mut command = command
        .about(about)
        .long_about(None)
        .disable_help_flag(true)
        .help_template(headings.template.clone())
        .subcommand_help_heading(headings.commands.clone());
    let ids: Vec<String> = command.get_arguments().map(|a| a.get_id().to_string()).collect();
    for id in ids {
        command = command.mut_arg(&id, |a| {
            // A flag that takes no value has clap's `false` as its default: not worth saying.
            let default = a.get_default_values().first().filter(|_| a.get_action().takes_values());
            let default = default.map(|v| v.to_string_lossy().into_owned());
            let heading = if a.is_positional() { &headings.arguments } else { &headings.options };
            let takes_values = a.get_action().takes_values();
            let a = a
                .help(say(choice, lookup(path, Some(&id)), default.as_deref()))
                .long_help(None)
                .help_heading(heading.clone());
            // The sentence names the values and the default: clap would list them in English.
            if takes_values {
                a.hide_possible_values(true).hide_default_value(true)
            } else {
                a
            }
        });
    }
    let names: Vec<String> = command.get_subcommands().map(|s| s.get_name().to_string()).collect();
    for name in names {
        let inner = if path.is_empty() { name.clone() } else { format!("{path} {name}") };
        command = command.mut_subcommand(&name, |s| describe(s, &inner, choice, headings));
    }
    command
}

/// The help defined for `arg` (or the command) at `path`. Every argument has one: a unit test
/// walks clap's command to make sure; a missing one in a build that skipped it reads as empty.
fn lookup(path: &str, arg: Option<&str>) -> Option<Help> {
    defs::find(path, arg).map(|d| d.help)
}

/// A sentence in the chosen languages, one after the other, each with the default when there is
/// one.
fn say(choice: LangChoice, help: Option<Help>, default: Option<&str>) -> String {
    let Some(help) = help else { return String::new() };
    choice
        .languages()
        .iter()
        .map(|&l| {
            let sentence = help.get(l);
            match default {
                Some(value) => {
                    let (body, stop) = split_stop(sentence);
                    format!("{body}{}{stop}", default_note(l, value))
                }
                None => sentence.to_string(),
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// A sentence without its final full stop, and the stop (so that the default goes before it).
fn split_stop(sentence: &str) -> (&str, &str) {
    for stop in ["。", "."] {
        if let Some(body) = sentence.strip_suffix(stop) {
            return (body, stop);
        }
    }
    (sentence, "")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every command and argument of the built command, with its path.
    fn every_place(command: &clap::Command, path: &str, out: &mut Vec<(String, Option<String>)>) {
        out.push((path.to_string(), None));
        for a in command.get_arguments() {
            out.push((path.to_string(), Some(a.get_id().to_string())));
        }
        // clap's `help` lists the commands again under itself, with no text of their own.
        if command.get_name() == "help" {
            return;
        }
        for s in command.get_subcommands() {
            let inner = if path.is_empty() { s.get_name().to_string() } else { format!("{path} {}", s.get_name()) };
            every_place(s, &inner, out);
        }
    }

    fn places() -> Vec<(String, Option<String>)> {
        let mut out = Vec::new();
        every_place(&localized(LangChoice::En), "", &mut out);
        out
    }

    #[test]
    fn every_command_and_argument_has_its_help_and_every_definition_is_used() {
        let places = places();
        let missing: Vec<_> = places.iter().filter(|(p, a)| defs::find(p, a.as_deref()).is_none()).collect();
        assert!(missing.is_empty(), "no help defined for {missing:?}");
        let unused: Vec<_> = defs::DEFS
            .iter()
            .filter(|d| !places.iter().any(|(p, a)| defs::find(p, a.as_deref()).is_some_and(|f| std::ptr::eq(f, *d))))
            .map(|d| (d.command, d.arg))
            .collect();
        assert!(unused.is_empty(), "definitions nothing uses: {unused:?}");
    }

    #[test]
    fn each_definition_says_the_same_in_both_languages() {
        let chinese = |s: &str| s.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c));
        // The code spans, paths and numbers a sentence names.
        let named = |s: &str| -> Vec<String> {
            let mut words: Vec<String> = s.split('`').skip(1).step_by(2).map(str::to_string).collect();
            words.extend(
                s.split(|c: char| !(c.is_ascii_alphanumeric() || "/._-".contains(c)))
                    .filter(|w| w.contains('/') || w.chars().all(|c| c.is_ascii_digit()) && !w.is_empty())
                    .map(|w| w.trim_end_matches('.').to_string()),
            );
            words.sort();
            words
        };
        for d in defs::DEFS {
            let where_ = (d.command, d.arg);
            assert!(chinese(d.help.zh) && !chinese(d.help.en), "{where_:?}: a sentence in the wrong language");
            assert_eq!(named(d.help.zh), named(d.help.en), "{where_:?}");
            assert!(!d.help.zh.contains('{') && !d.help.en.contains('{'), "{where_:?}: a placeholder");
        }
    }

    #[test]
    fn a_default_is_said_once_in_each_language_from_the_value_clap_holds() {
        let help = |choice| localized(choice).render_help().to_string();
        let check = localized(LangChoice::Both).find_subcommand_mut("check").map(|c| c.render_help().to_string());
        let check = check.unwrap_or_default();
        assert!(check.contains("before it is stopped (default: 10)."), "{check}");
        assert!(check.contains("超时即停止（默认：10）。"), "{check}");
        assert!(check.contains("(default: 60)") && check.contains("(default: text)"), "{check}");
        assert!(!check.contains("[default"), "clap's own English default is hidden: {check}");
        assert!(help(LangChoice::Zh).contains("显示帮助。") && !help(LangChoice::Zh).contains("Print help"));
    }

    #[test]
    fn help_lines_fit_the_width_under_their_description() {
        let line = "  init         Write a fresh course folder and warm up the grading harness; in an existing one, add chapters.";
        let fitted = fit_help(line, 60);
        assert!(fitted.lines().count() > 1, "{fitted}");
        for (i, l) in fitted.lines().enumerate() {
            assert!(crate::render::wrap::width(l) <= 60, "{l:?}");
            if i > 0 {
                assert!(l.starts_with(&" ".repeat(15)) && !l.starts_with(&" ".repeat(16)), "{l:?}");
            }
        }
        // Chinese: display columns, two per character.
        let zh = "  init         写入新的课程文件夹，并预先构建评分程序；在已有的课程文件夹里运行时，补上新增的章节。";
        assert!(fit_help(zh, 50).lines().all(|l| crate::render::wrap::width(l) <= 50));
        assert_eq!(fit_help("short\n", 60), "short\n");
    }

    #[test]
    fn completions_carry_the_same_help_in_the_chosen_language() {
        let script = |choice| {
            let mut out = Vec::new();
            clap_complete::generate(clap_complete::Shell::Fish, &mut localized(choice), "tutor", &mut out);
            String::from_utf8(out).unwrap_or_default()
        };
        let timeout = defs::find("check", Some("timeout")).map(|d| d.help).expect("--timeout has help");
        // fish quotes each description: its first words are enough.
        let start = |s: &str| s.chars().take(8).collect::<String>();
        let (zh, en) = (script(LangChoice::Zh), script(LangChoice::En));
        assert!(zh.contains(&start(timeout.zh)) && !zh.contains(&start(timeout.en)), "{zh}");
        assert!(en.contains(&start(timeout.en)) && !en.contains(&start(timeout.zh)), "{en}");
    }
}
