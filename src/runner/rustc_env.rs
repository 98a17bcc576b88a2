//! The environment cargo gives the rustc that compiles the learner's file, read from
//! `/proc/<pid>/environ` while it runs, so that a rebuild without cargo ([`super::replay`])
//! gives rustc the same variables (`env!` and `option_env!` read them at compile time).
//!
//! `cargo -vv` prints only the variables cargo sets itself; rustup's proxy and cargo add others
//! (`RUSTUP_TOOLCHAIN`, `CARGO_HOME`, the jobserver's `CARGO_MAKEFLAGS` …). Only what differs
//! from tutor's own environment is kept, so that no secret of the learner's environment is
//! written to disk; [`key`] tells whether what of tutor's environment steers the build is still
//! what it was compared with. Found by looking among cargo's children every few milliseconds: a
//! compile that ends before it is seen (a busy machine) is simply not recorded.

use std::collections::BTreeMap;
use std::hash::{Hash, Hasher};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

/// Variables that change from one shell command to the next (the folder it runs in, the last
/// command): not part of the key, and taken from tutor's environment at each rebuild, as cargo
/// would pass them on.
const VOLATILE: [&str; 4] = ["PWD", "OLDPWD", "_", "SHLVL"];

/// Variables of cargo's rustc that make no sense in a rebuild of tutor's: the jobserver's
/// descriptors are cargo's, and the build's temporary folder is set anew.
const CARGOS_OWN: [&str; 2] = ["CARGO_MAKEFLAGS", "TMPDIR"];

/// How rustc's environment differed from tutor's (whose [`key`] the record keeps).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Environment {
    /// Variables rustc had with another value than tutor's, or that tutor did not have.
    pub set: Vec<(String, String)>,
    /// tutor's variables that rustc did not have (the build settings cargo is run without).
    pub removed: Vec<String>,
}

impl Environment {
    /// Compares rustc's environment with tutor's own.
    fn between(rustc: &BTreeMap<String, String>, tutor: &BTreeMap<String, String>) -> Environment {
        let kept = |name: &String| !VOLATILE.contains(&name.as_str()) && !CARGOS_OWN.contains(&name.as_str());
        let set = rustc
            .iter()
            .filter(|(name, value)| kept(name) && tutor.get(*name) != Some(value))
            .map(|(name, value)| (name.clone(), value.clone()))
            .collect();
        let removed = tutor.keys().filter(|name| kept(name) && !rustc.contains_key(*name)).cloned().collect();
        Environment { set, removed }
    }

    /// The variables it changed: set to another value than tutor's, or removed.
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.set.iter().map(|(name, _)| name.as_str()).chain(self.removed.iter().map(String::as_str))
    }

    /// The environment rustc gets now: tutor's (`tutor`), changed as cargo changed it.
    pub fn applied(&self, mut tutor: BTreeMap<String, String>) -> BTreeMap<String, String> {
        for name in &self.removed {
            tutor.remove(name);
        }
        tutor.extend(self.set.iter().cloned());
        tutor
    }

    /// Whether every variable a dep-info file says the compile read (`# env-dep:NAME=value`,
    /// or `# env-dep:NAME` for one it found unset) would read the same now, tutor's environment
    /// being `tutor`: cargo rebuilds when one changed, and so must tutor, whatever the key
    /// (which leaves the folder out) says.
    pub fn reads_unchanged(&self, dep_info: &str, tutor: &BTreeMap<String, String>) -> bool {
        let now = self.applied(tutor.clone());
        dep_info.lines().filter_map(|line| line.strip_prefix("# env-dep:")).all(|read| {
            let (name, value) = match read.split_once('=') {
                Some((name, value)) => (name, Some(value)),
                None => (read, None),
            };
            now.get(name).map(|v| escaped(v)).as_deref() == value
        })
    }

    /// The environment to give rustc now: tutor's, changed as cargo changed it.
    pub fn apply_to(&self, command: &mut std::process::Command) {
        for name in &self.removed {
            command.env_remove(name);
        }
        command.envs(self.set.iter().map(|(name, value)| (name, value)));
    }
}

/// A value as rustc writes it in a dep-info file.
fn escaped(value: &str) -> String {
    value.replace('\\', "\\\\").replace('\n', "\\n").replace('\r', "\\r")
}

/// Whether a variable steers cargo or rustup: which toolchain, which settings, which flags, which
/// libraries the compiler loads, which folder cargo runs from (`TMPDIR`: rustup's toolchain files
/// and cargo's configuration are looked for above it). Any other variable reaches rustc in a
/// rebuild as it is in tutor's environment then, which is what cargo would pass on.
fn steers_the_build(name: &str) -> bool {
    const PREFIXES: [&str; 4] = ["CARGO", "RUST", "__CARGO", "LD_"];
    PREFIXES.iter().any(|prefix| name.starts_with(prefix)) || ["PATH", "HOME", "TMPDIR"].contains(&name)
}

/// A hash of what a recorded build depends on in tutor's environment: the variables that steer
/// the build, and `also` (those cargo or rustup gave rustc another value than tutor's, which may
/// derive from tutor's, and those the dependencies' builds read). Equal keys, equal builds. Other
/// variables are left out, so that a terminal with other settings (an editor's, say) still
/// rebuilds without cargo.
pub fn key(tutor: &BTreeMap<String, String>, also: &[&str]) -> u64 {
    let mut hasher = std::hash::DefaultHasher::new();
    let kept = tutor.iter().filter(|(name, _)| {
        !VOLATILE.contains(&name.as_str()) && (steers_the_build(name) || also.contains(&name.as_str()))
    });
    for (name, value) in kept {
        (name, value).hash(&mut hasher);
    }
    hasher.finish()
}

/// The part of tutor's environment a build is given ([`super::allowed_env`]; variables that are
/// not Unicode are left out, here and in rustc's).
pub fn current() -> BTreeMap<String, String> {
    super::allowed_env::environment()
}

/// Looks for cargo's rustc of crate `crate_name` among the children of cargo (`cargo_pid`),
/// until it is found or [`Watcher::finish`] is called.
pub struct Watcher {
    stop: Arc<AtomicBool>,
    thread: JoinHandle<Option<BTreeMap<String, String>>>,
}

impl Watcher {
    /// Starts looking.
    pub fn start(cargo_pid: i32, crate_name: String) -> Watcher {
        let stop = Arc::new(AtomicBool::new(false));
        let stopped = Arc::clone(&stop);
        let thread = std::thread::spawn(move || {
            let started = Instant::now();
            while !stopped.load(Ordering::Relaxed) && started.elapsed() < Duration::from_secs(30) {
                if let Some(environment) = children(cargo_pid).into_iter().find_map(|pid| rustc_of(pid, &crate_name)) {
                    return Some(environment);
                }
                std::thread::sleep(Duration::from_millis(3));
            }
            None
        });
        Watcher { stop, thread }
    }

    /// Stops looking; what rustc's environment was, compared with tutor's, if it was seen.
    pub fn finish(self) -> Option<Environment> {
        self.stop.store(true, Ordering::Relaxed);
        let rustc = self.thread.join().ok()??;
        Some(Environment::between(&rustc, &current()))
    }
}

/// The children of every thread of process `pid` (cargo starts rustc from a worker thread).
fn children(pid: i32) -> Vec<i32> {
    let Ok(tasks) = std::fs::read_dir(format!("/proc/{pid}/task")) else { return Vec::new() };
    tasks
        .flatten()
        .filter_map(|task| std::fs::read_to_string(task.path().join("children")).ok())
        .flat_map(|text| text.split_whitespace().filter_map(|p| p.parse().ok()).collect::<Vec<i32>>())
        .collect()
}

/// The environment of process `pid`, if it is rustc compiling `crate_name`.
fn rustc_of(pid: i32, crate_name: &str) -> Option<BTreeMap<String, String>> {
    let command = std::fs::read(format!("/proc/{pid}/cmdline")).ok()?;
    let mut words = command.split(|b| *b == 0);
    let named = words.by_ref().any(|w| w == b"--crate-name") && words.next() == Some(crate_name.as_bytes());
    if !named {
        return None;
    }
    let environ = std::fs::read(format!("/proc/{pid}/environ")).ok()?;
    let pairs = environ.split(|b| *b == 0).filter_map(|entry| {
        let text = std::str::from_utf8(entry).ok()?;
        let (name, value) = text.split_once('=')?;
        Some((name.to_string(), value.to_string()))
    });
    Some(pairs.collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn map(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
        pairs.iter().map(|(n, v)| (n.to_string(), v.to_string())).collect()
    }

    #[test]
    fn only_what_cargo_changed_is_kept_and_applied_again() {
        let tutor = map(&[("HOME", "/h"), ("SECRET", "s3"), ("RUSTFLAGS", "-Cx"), ("PWD", "/a"), ("PATH", "/bin")]);
        let rustc = map(&[
            ("HOME", "/h"),
            ("SECRET", "s3"),
            ("PWD", "/a"),
            ("PATH", "/bin"),
            ("RUSTUP_TOOLCHAIN", "stable"),
            ("CARGO_MAKEFLAGS", "-j --jobserver-fds=8,9"),
            ("TMPDIR", "/t"),
        ]);
        let environment = Environment::between(&rustc, &tutor);
        assert_eq!(environment.set, [("RUSTUP_TOOLCHAIN".to_string(), "stable".to_string())]);
        assert_eq!(environment.removed, ["RUSTFLAGS"]);
        assert!(!format!("{environment:?}").contains("s3"), "tutor's own variables are not kept");

        let mut command = std::process::Command::new("rustc");
        environment.apply_to(&mut command);
        let changes: Vec<_> = command.get_envs().map(|(n, v)| (n.to_owned(), v.map(|v| v.to_owned()))).collect();
        assert!(changes.contains(&("RUSTFLAGS".into(), None)));
        assert!(changes.contains(&("RUSTUP_TOOLCHAIN".into(), Some("stable".into()))));
    }

    #[test]
    fn what_the_compile_read_is_compared_as_rustc_would_see_it_now() {
        let environment =
            Environment { set: vec![("CARGO_PKG_NAME".into(), "h".into())], removed: vec!["HOME".into()] };
        let path = std::env::var("PATH").unwrap_or_default();
        let dep_info = |lines: &str| format!("ex: a.rs\n\na.rs:\n\n{lines}\n");
        let tutor = current();
        let reads = |dep_info: &str| environment.reads_unchanged(dep_info, &tutor);
        assert!(reads(&dep_info("# env-dep:CARGO_PKG_NAME=h")));
        assert!(!reads(&dep_info("# env-dep:CARGO_PKG_NAME=other")));
        assert!(reads(&dep_info("# env-dep:HOME")), "removed: read as unset");
        assert!(reads(&dep_info(&format!("# env-dep:PATH={}", escaped(&path)))));
        assert!(!reads(&dep_info("# env-dep:PATH=/elsewhere")));
        assert!(!reads(&dep_info("# env-dep:TUTOR_SURELY_UNSET_VARIABLE=1")));
        assert_eq!(escaped("a\nb\\c"), "a\\nb\\\\c");
    }

    #[test]
    fn the_key_holds_what_steers_the_build_and_what_cargo_changed() {
        let one = map(&[("PWD", "/a"), ("CARGO_HOME", "/c"), ("TERM_PROGRAM", "vscode"), ("PROBE", "1")]);
        let moved = map(&[("PWD", "/b"), ("CARGO_HOME", "/c"), ("TERM_PROGRAM", "vscode"), ("PROBE", "1")]);
        let other_terminal = map(&[("PWD", "/a"), ("CARGO_HOME", "/c"), ("PROBE", "1")]);
        let other_cargo = map(&[("PWD", "/a"), ("CARGO_HOME", "/d"), ("TERM_PROGRAM", "vscode"), ("PROBE", "1")]);
        let probe_changed = map(&[("PWD", "/a"), ("CARGO_HOME", "/c"), ("TERM_PROGRAM", "vscode"), ("PROBE", "2")]);
        assert_eq!(key(&one, &[]), key(&moved, &[]), "the folder");
        assert_eq!(key(&one, &[]), key(&other_terminal, &[]), "a variable that steers nothing");
        assert_ne!(key(&one, &[]), key(&other_cargo, &[]));
        assert_eq!(key(&one, &[]), key(&probe_changed, &[]));
        // A variable cargo or rustup set for rustc from tutor's (rustup's PATH-like values, say).
        let derived = Environment { set: vec![("PROBE".into(), "1:/toolchain".into())], removed: Vec::new() };
        let derived: Vec<&str> = derived.names().collect();
        assert_ne!(key(&one, &derived), key(&probe_changed, &derived));
        let removed = Environment { set: Vec::new(), removed: vec!["PROBE".into()] };
        let removed: Vec<&str> = removed.names().collect();
        assert_ne!(key(&one, &removed), key(&probe_changed, &removed));
        for steering in
            ["PATH", "HOME", "TMPDIR", "RUSTUP_TOOLCHAIN", "RUSTC_WRAPPER", "LD_LIBRARY_PATH", "__CARGO_FIX_YOLO"]
        {
            let mut changed = one.clone();
            changed.insert(steering.to_string(), "x".to_string());
            assert_ne!(key(&one, &[]), key(&changed, &[]), "{steering}");
        }
    }
}
