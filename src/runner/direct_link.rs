//! Linking a replayed build with the toolchain's own lld, without the C compiler driver.
//!
//! rustc links a graded program by running `cc`, which runs `collect2`, which runs the
//! toolchain's `ld.lld` wrapper, which runs `rust-lld`: four programs started for one link, and
//! lld on every core of the machine for a few objects. Of a warm re-check's 60 ms of rustc here,
//! that is about 6 ms (measured: `bench/every_exercise.sh`). rustc can run `rust-lld` itself
//! (`-C linker-flavor=ld.lld`), but then nothing adds what the driver adds around rustc's
//! arguments: the C runtime's start and end objects, the dynamic loader's path, its search
//! folders. Those are the driver's answer to `-###` for the very command rustc gives it, so they
//! are read from it once per compiler, linker and driver, and kept (`.tutor/builds/link.json`).
//!
//! rustc places every `-C link-arg` after its own objects and libraries, the C runtime's start
//! objects included: lld resolves symbols whatever the order, and `.init`/`.fini` hold only the
//! runtime's own prologue and epilogue, so the order is of no consequence (the probe below runs
//! what depends on it: the start, static constructors of the standard library, thread-local
//! destructors, unwinding).
//!
//! Nothing is trusted unproven: a small program is built both ways and must run alike and load
//! the same loader and libraries, or every build keeps linking through `cc`. A replay whose
//! direct link fails at the link is run again through `cc` (`super::build`), and if that one
//! links, the direct link is given up for this compiler. A proof that fails for a passing reason
//! (a full disk, a probe that timed out) is not kept: the next replay proves it again.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use serde::{Deserialize, Serialize};

use super::replay::{is_assignment, Invocation};
use crate::fsutil::below::write_below;
use crate::fsutil::regular::{read_text, Links};

/// What a probe prints when it started, ran a thread whose thread-local value was dropped, and
/// caught a panic by unwinding.
const PROBE_SAYS: &str = "dropped unwound\n";

/// A program that needs what a graded program needs of its link: the loader, the standard
/// library as a shared library, thread-local destructors, unwinding through its frames, its
/// output.
const PROBE: &str = "struct Noted;\n\
impl Drop for Noted { fn drop(&mut self) { print!(\"dropped \"); } }\n\
thread_local! { static NOTED: Noted = const { Noted }; }\n\
fn main() {\n\
    std::thread::spawn(|| NOTED.with(|_| ())).join().ok();\n\
    std::panic::set_hook(Box::new(|_| {}));\n\
    let caught = std::panic::catch_unwind(|| if std::env::args().count() < 64 { panic!(\"probe\") });\n\
    println!(\"{}\", if caught.is_err() { \"unwound\" } else { \"not unwound\" });\n\
}\n";

/// How long each step of a proof may take (a compile of the probe, the driver's answer, a run).
const STEP_LIMIT: Duration = Duration::from_secs(30);

/// The direct link as derived for one compiler, linker and driver, or why there is none.
#[derive(Debug, Serialize, Deserialize)]
struct Recipe {
    key: String,
    arguments: Option<Vec<String>>,
    why_not: Option<String>,
}

/// Why a proof did not give a direct link.
#[derive(Debug)]
enum NoLink {
    /// For good, for this compiler and driver: not this system, no lld, a probe that runs
    /// otherwise.
    Never(String),
    /// For now: a failure that says nothing of the link (a full disk, a step that timed out).
    NotNow,
}

fn recipe_at(private_dir: &Path) -> PathBuf {
    private_dir.join("builds").join("link.json")
}

/// `invocation`'s arguments as rustc takes them to link its program with `rust-lld` itself
/// ([`adapted`], then the linker and what the driver would add), derived and proven once for its
/// compiler, that linker and the C compiler driver (then kept); `None` where the direct link is
/// not for this build or system, or did not prove itself. `temp` is a folder the probes may use.
pub fn arguments(private_dir: &Path, invocation: &Invocation, temp: &Path) -> Option<Vec<String>> {
    let mut args = adapted(&invocation.args)?;
    args.extend(recipe(private_dir, invocation, temp)?);
    Some(args)
}

/// The linker and what the driver would add, kept for `invocation`'s compiler or derived now.
fn recipe(private_dir: &Path, invocation: &Invocation, temp: &Path) -> Option<Vec<String>> {
    let key = key(invocation)?;
    let file = recipe_at(private_dir);
    if let Some(kept) = read_text(&file, Links::Refuse).and_then(|t| serde_json::from_str::<Recipe>(&t).ok()) {
        if kept.key == key {
            return kept.arguments;
        }
    }
    // A folder of this process's own: two checks at once (a watch and a `tutor check`) must not
    // remove each other's probes.
    let dir = temp.join(format!("link-probe-{}", std::process::id()));
    let derived = derive(invocation, &dir);
    let _ = std::fs::remove_dir_all(&dir);
    let recipe = match derived {
        Ok(arguments) => Recipe { key, arguments: Some(arguments), why_not: None },
        Err(NoLink::Never(why)) => Recipe { key, arguments: None, why_not: Some(why) },
        Err(NoLink::NotNow) => return None,
    };
    keep(private_dir, &recipe);
    recipe.arguments
}

/// Gives up the direct link for `invocation`'s compiler: a replay linked through `cc` where the
/// direct link failed.
pub fn give_up(private_dir: &Path, invocation: &Invocation, why: &str) {
    if let Some(key) = key(invocation) {
        keep(private_dir, &Recipe { key, arguments: None, why_not: Some(why.to_string()) });
    }
}

fn keep(private_dir: &Path, recipe: &Recipe) {
    if let Ok(text) = serde_json::to_string_pretty(recipe) {
        let _ = write_below(private_dir, &recipe_at(private_dir), &text);
    }
}

/// Whether rustc's message says the link failed (or the linker could not be run): what a direct
/// link that did not work says, never a message about the learner's code.
pub fn is_link_failure(message: &str) -> bool {
    message.starts_with("linking with")
        || message.starts_with("linker `")
        || message.starts_with("could not exec the linker")
}

/// `args` as rustc takes them with a linker of the `ld` kind: the driver's `-Wl,a,b` link
/// arguments as `a` and `b`. `None` when a link argument is for the driver alone, or the build
/// names a linker or a target of its own.
fn adapted(args: &[String]) -> Option<Vec<String>> {
    let mut out = Vec::with_capacity(args.len());
    let mut words = args.iter();
    while let Some(arg) = words.next() {
        if arg == "--target" || arg.starts_with("--target=") {
            return None;
        }
        let Some(value) = codegen_option(arg, &mut words) else {
            out.push(arg.clone());
            continue;
        };
        match value.strip_prefix("link-arg=") {
            Some(link_arg) => {
                let parts = link_arg.strip_prefix("-Wl,")?;
                out.extend(parts.split(',').map(|part| format!("-Clink-arg={part}")));
            }
            None if value.starts_with("link-args=") || value.starts_with("linker") => return None,
            None => out.push(format!("-C{value}")),
        }
    }
    Some(out)
}

/// The link arguments of `args` as given (`-Clink-arg=…`), for a build through the driver.
fn link_arguments(args: &[String]) -> Vec<String> {
    let mut words = args.iter();
    let mut out = Vec::new();
    while let Some(arg) = words.next() {
        if let Some(value) = codegen_option(arg, &mut words).filter(|v| v.starts_with("link-arg=")) {
            out.push(format!("-C{value}"));
        }
    }
    out
}

/// The value of a codegen option, `-Cname=value` or `-C name=value` (the value taken from
/// `words`); `None` for another argument.
fn codegen_option<'a>(arg: &'a str, words: &mut impl Iterator<Item = &'a String>) -> Option<String> {
    match arg {
        "-C" => words.next().cloned(),
        other => other.strip_prefix("-C").map(str::to_string),
    }
}

/// What the direct link depends on: the compiler, its `rust-lld`, the driver (`cc` on the
/// path) and tutor's own way of deriving it.
fn key(invocation: &Invocation) -> Option<String> {
    let driver = std::env::var_os("PATH").and_then(|paths| {
        std::env::split_paths(&paths).map(|dir| dir.join("cc")).find(|cc| crate::fsutil::is_executable(cc))
    })?;
    let parts = [invocation.program.clone(), lld(invocation)?, driver];
    let stamps: Option<Vec<String>> = parts.iter().map(|p| crate::fsutil::identity(p)).collect();
    Some(format!("{} | {}", stamps?.join(" | "), env!("TUTOR_COMMIT")))
}

/// The toolchain's own lld, beside its compiler (`<toolchain>/bin/rustc`), for tutor's target.
fn lld(invocation: &Invocation) -> Option<PathBuf> {
    let toolchain = invocation.program.parent().and_then(Path::parent)?;
    Some(toolchain.join("lib/rustlib").join(env!("TUTOR_TARGET")).join("bin/rust-lld"))
}

/// Derives the direct link's arguments in the scratch folder `dir` and proves them.
fn derive(invocation: &Invocation, dir: &Path) -> Result<Vec<String>, NoLink> {
    let never = |why: &str| NoLink::Never(why.to_string());
    if !cfg!(all(target_os = "linux", target_env = "gnu")) {
        return Err(never("not a GNU/Linux system"));
    }
    let lld = lld(invocation).filter(|lld| lld.is_file()).ok_or_else(|| never("no rust-lld in the toolchain"))?;
    let adapted = adapted(&invocation.args).ok_or_else(|| never("the build links in a way of its own"))?;
    std::fs::create_dir_all(dir).map_err(|_| NoLink::NotNow)?;
    std::fs::write(dir.join("probe.rs"), PROBE).map_err(|_| NoLink::NotNow)?;
    let through_cc = link_arguments(&invocation.args);
    let printed =
        compile(invocation, dir, "through-cc", &[through_cc, vec!["--print".into(), "link-args".into()]].concat())?;
    let additions = driver_additions(&printed, dir)?;
    let mut direct = vec!["-Clinker-flavor=ld.lld".to_string(), format!("-Clinker={}", lld.display())];
    direct.extend(additions.iter().map(|a| format!("-Clink-arg={a}")));
    // A few objects: one thread links them sooner than two that must be started.
    direct.push("-Clink-arg=--threads=1".into());
    let link_args = adapted.iter().filter(|a| a.starts_with("-Clink-arg="));
    compile(invocation, dir, "direct", &link_args.cloned().chain(direct.iter().cloned()).collect::<Vec<_>>())?;
    for probe in ["through-cc", "direct"] {
        let mut command = Command::new(dir.join(probe));
        command.env_clear();
        let (ending, printed) =
            super::process::run(command, STEP_LIMIT, super::cargo::MEMORY_LIMIT).map_err(|_| NoLink::NotNow)?;
        match ending {
            super::process::Ending::TimedOut => return Err(NoLink::NotNow),
            _ if printed.stdout != PROBE_SAYS => {
                return Err(NoLink::Never(format!("the probe linked {probe} said {:?}", printed.stdout)))
            }
            _ => {}
        }
    }
    let shape = |probe: &str| super::confine::linked_shape(&dir.join(probe));
    match (shape("through-cc"), shape("direct")) {
        (Some(cc), Some(linked)) if cc == linked => Ok(direct),
        _ => Err(never("the probes load different loaders or libraries")),
    }
}

/// Compiles the probe in `dir` to `out` with `invocation`'s compiler and environment and the
/// arguments `more`; what rustc printed.
fn compile(invocation: &Invocation, dir: &Path, out: &str, more: &[String]) -> Result<String, NoLink> {
    let mut command = Command::new(&invocation.program);
    super::allowed_env::give_to(&mut command);
    invocation.environment.apply_to(&mut command);
    command.current_dir(dir).env("TMPDIR", dir);
    command.args(["probe.rs", "--crate-type", "bin", "--edition", "2021", "-Cprefer-dynamic", "-Crpath", "-o", out]);
    command.args(more);
    let (ending, printed) =
        super::process::run(command, STEP_LIMIT, super::cargo::MEMORY_LIMIT).map_err(|_| NoLink::NotNow)?;
    match ending {
        super::process::Ending::Exited(0) => Ok(printed.stdout),
        super::process::Ending::TimedOut => Err(NoLink::NotNow),
        // A link that fails is the link's; anything else (a full disk) says nothing of it.
        _ if printed.stderr.lines().any(|l| l.strip_prefix("error: ").is_some_and(is_link_failure)) => {
            Err(NoLink::Never(format!("the probe {out} did not link: {}", printed.stderr)))
        }
        _ => Err(NoLink::NotNow),
    }
}

/// What the driver adds around rustc's arguments, from the link command rustc printed (`--print
/// link-args`): the driver's own linker command for it (`-###`), less rustc's part, the output,
/// the compiler plugin and the driver's own folder of linkers.
fn driver_additions(printed: &str, dir: &Path) -> Result<Vec<String>, NoLink> {
    let never = |why: &str| NoLink::Never(why.to_string());
    let line = printed.lines().find(|l| l.contains("\"-o\"")).ok_or_else(|| never("rustc printed no link command"))?;
    let words = shlex::split(line).ok_or_else(|| never("the link command does not parse"))?;
    let first = words.iter().position(|w| !is_assignment(w)).ok_or_else(|| never("no driver in the link command"))?;
    let (driver, args) = words[first..].split_first().ok_or_else(|| never("no driver"))?;
    let mut command = Command::new(driver);
    command.env_clear().envs(super::allowed_env::environment()).current_dir(dir);
    for word in &words[..first] {
        if let Some((name, value)) = word.split_once('=') {
            command.env(name, value);
        }
    }
    command.arg("-###").args(args);
    let (_, said) = super::process::run(command, STEP_LIMIT, super::cargo::MEMORY_LIMIT).map_err(|_| NoLink::NotNow)?;
    let objects: Vec<&String> = args.iter().filter(|a| a.ends_with(".o")).collect();
    let first_object = objects.first().ok_or_else(|| never("rustc's link command has no object"))?;
    let link = said
        .stderr
        .lines()
        .filter_map(shlex::split)
        .find(|words| words.iter().any(|w| w == *first_object))
        .ok_or_else(|| never("the driver's answer to -### has no link command"))?;
    let start = link.iter().position(|w| w == *first_object).ok_or_else(|| never("no object"))?;
    let ends: usize = link.iter().rev().take_while(|w| w.ends_with(".o") && !objects.contains(w)).count();
    // rustc's own search folders, which it gives again itself (one of them temporary), and the
    // folder of the driver's linkers (`-B`), which holds no library.
    let rustcs_folders: Vec<&String> = args.windows(2).filter(|w| w[0] == "-L").map(|w| &w[1]).collect();
    let linkers: Vec<&str> = args.iter().filter_map(|a| a.strip_prefix("-B")).collect();
    let known = |folder: &str| rustcs_folders.iter().any(|r| r.as_str() == folder) || linkers.contains(&folder);
    let mut kept = Vec::new();
    let mut before = link[1..start].iter();
    while let Some(word) = before.next() {
        match word.as_str() {
            "-plugin" | "-o" => {
                before.next();
            }
            "-L" => match before.next() {
                Some(folder) if !known(folder) => kept.extend(["-L".to_string(), folder.clone()]),
                _ => {}
            },
            // collect2's own: the compiler's plugin, and the linker it is to run.
            w if w.starts_with("-plugin-opt=") || w.starts_with("-fuse-ld=") => {}
            w if w.strip_prefix("-L").is_some_and(known) => {}
            _ => kept.push(word.clone()),
        }
    }
    kept.extend(link[link.len() - ends..].iter().cloned());
    if !kept.iter().any(|w| w.ends_with(".o")) {
        return Err(never("the driver adds no start object"));
    }
    Ok(kept)
}

#[cfg(test)]
mod tests;
