//! Real confined processes: each test spawns one and reads what it could and could not do.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use super::*;
use crate::runner::process::{self, Captured, Ending};

const PYTHON: &str = "/usr/bin/python3";

/// Tries each thing in turn and prints `name: ok`, or `name: ERRNO` for the refusal. Run as
/// `python3 -I -c PROBE TEMP_DIR [exec]`; `exec` (last, since it replaces the process when it
/// works) tries to execute another program, through a descriptor and by path.
const PROBE: &str = r#"
import errno, fcntl, os, socket, subprocess, sys, termios, threading
tmp = sys.argv[1]

def attempt(name, action):
    try:
        action()
        result = "ok"
    except OSError as e:
        result = errno.errorcode.get(e.errno, str(e.errno))
    except Exception as e:
        result = type(e).__name__
    print(f"{name}: {result}", flush=True)

def fork():
    pid = os.fork()
    if pid == 0:
        os._exit(0)
    os.waitpid(pid, 0)

def thread():
    ran = []
    worker = threading.Thread(target=lambda: ran.append(True))
    worker.start()
    worker.join()
    if not ran:
        raise RuntimeError("the thread did not run")

attempt("fork", fork)
attempt("subprocess", lambda: subprocess.run(["/bin/true"], check=True))
attempt("write", lambda: open(os.path.join(tmp, "new.txt"), "w").close())
attempt("read-temp", lambda: open(os.path.join(tmp, "secret.txt")).read())
attempt("mkdir", lambda: os.mkdir(os.path.join(tmp, "folder")))
attempt("unlink", lambda: os.unlink(os.path.join(tmp, "secret.txt")))
attempt("socket", lambda: socket.socket(socket.AF_INET, socket.SOCK_STREAM).close())
attempt("thread", thread)
attempt("read-etc", lambda: open("/etc/ld.so.cache", "rb").read())
attempt("read-shadow", lambda: open("/etc/shadow").read())
attempt("read-urandom", lambda: open("/dev/urandom", "rb").read(8))
attempt("list-dev-pts", lambda: os.listdir("/dev/pts"))
attempt("read-usr", lambda: os.listdir("/usr/lib"))
attempt("read-own-proc", lambda: open("/proc/self/maps").read())
attempt("read-parent-proc", lambda: open(f"/proc/{os.getppid()}/environ", "rb").read())
attempt("signal-parent", lambda: os.kill(os.getppid(), 0))
attempt("memfd", lambda: os.close(os.memfd_create("probe")))
# Typing into a terminal; standard input is /dev/null, which is no terminal (ENOTTY) when allowed.
attempt("tiocsti", lambda: fcntl.ioctl(0, termios.TIOCSTI, b"x"))
attempt("isatty", lambda: os.isatty(1) or None)
status = open("/proc/self/status").read().splitlines()
held = [line.split(":")[0] for line in status if line.startswith("Cap") and int(line.split()[1], 16)]
print("capabilities: " + (" ".join(held) or "none"), flush=True)
if "exec" in sys.argv[2:]:
    # A descriptor as the path: fexecve, that is execveat(fd, "", AT_EMPTY_PATH).
    attempt("execveat", lambda: os.execve(os.open("/bin/true", os.O_RDONLY), ["true"], {}))
    if "loader" in sys.argv[2:]:
        # The dynamic loader, which Landlock must let the kernel run, run as a program itself.
        maps = open("/proc/self/maps").read().split()
        loader = next(word for word in maps if "/ld-linux" in word or "/ld-musl" in word)
        attempt("exec-loader", lambda: os.execv(loader, [loader, "/bin/true"]))
    attempt("exec", lambda: os.execv("/bin/true", ["true"]))
"#;

/// A fresh folder in the system's temporary folder (outside everything the subject may read),
/// holding `secret.txt`; removed on drop.
struct TempDir(PathBuf);

impl TempDir {
    fn new(tag: &str) -> TempDir {
        let nanos = SystemTime::now().duration_since(UNIX_EPOCH).map(|d| d.as_nanos()).unwrap_or(0);
        let path = std::env::temp_dir().join(format!("tutor-confine-{tag}-{}-{nanos}", std::process::id()));
        std::fs::create_dir_all(&path).expect("creating the temporary folder");
        std::fs::write(path.join("secret.txt"), "secret").expect("writing the secret");
        let path = path.canonicalize().expect("resolving the temporary folder");
        assert!(
            !["/usr", "/lib", "/etc", "/proc", "/dev", "/sys"].iter().any(|dir| path.starts_with(dir)),
            "{} is beneath a folder the subject may read: the test would prove nothing",
            path.display()
        );
        TempDir(path)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// How a run ended and what it printed.
struct Finished {
    ending: Ending,
    output: Captured,
}

fn run(command: Command) -> Finished {
    let (ending, output) = process::run(command, Duration::from_secs(60), 4 << 30).expect("spawning the subject");
    Finished { ending, output }
}

fn shown(done: &Finished) -> String {
    format!("{:?} {:?}", done.ending, done.output)
}

/// Runs the probe, confined or not, and returns its lines as `name → result`.
fn probe(confined: bool, tmp: &Path) -> BTreeMap<String, String> {
    let mut command = Command::new(PYTHON);
    command.args(["-I", "-c", PROBE]).arg(tmp);
    if confined {
        command.arg("exec");
        if support().exec_once {
            command.arg("loader");
        }
        Confinement::prepare(Path::new(PYTHON)).apply_to(&mut command);
    }
    let done = run(command);
    assert_eq!(done.ending, Ending::Exited(0), "the probe failed: {:?}", done.output);
    let lines = done.output.stdout.lines();
    lines
        .filter_map(|line| line.split_once(": "))
        .map(|(name, result)| (name.to_string(), result.to_string()))
        .collect()
}

/// The effective user id of this test process, from /proc (no `unsafe` needed).
fn effective_uid() -> u32 {
    let status = std::fs::read_to_string("/proc/self/status").expect("reading /proc/self/status");
    let uid = status.lines().find_map(|line| line.strip_prefix("Uid:")).expect("a Uid line");
    uid.split_whitespace().nth(1).and_then(|euid| euid.parse().ok()).expect("an effective uid")
}

#[test]
fn the_probe_sees_success_when_unconfined() {
    // The control: every attempt works without confinement, so a refusal below is the
    // confinement's doing, not a broken probe.
    let tmp = TempDir::new("control");
    let results = probe(false, &tmp.0);
    for name in [
        "fork",
        "subprocess",
        "write",
        "read-temp",
        "mkdir",
        "unlink",
        "socket",
        "thread",
        "read-etc",
        "read-urandom",
        "list-dev-pts",
        "read-usr",
        "read-own-proc",
        "read-parent-proc",
        "signal-parent",
        "memfd",
        "isatty",
    ] {
        assert_eq!(results.get(name).map(String::as_str), Some("ok"), "{name} in {results:?}");
    }
    assert_eq!(results.get("tiocsti").map(String::as_str), Some("ENOTTY"), "{results:?}");
}

#[test]
fn a_confined_program_can_read_the_system_and_start_threads_but_nothing_else() {
    let support = support();
    let tmp = TempDir::new("confined");
    let results = probe(true, &tmp.0);
    let result = |name: &str| results.get(name).map(String::as_str).unwrap_or("missing");

    // What it still may do.
    assert_eq!(result("thread"), "ok", "{results:?}");
    assert_eq!(result("read-etc"), "ok", "{results:?}");
    assert_eq!(result("read-urandom"), "ok", "{results:?}");
    if support.exec_once {
        assert_eq!(result("exec-loader"), "EPERM", "{results:?}");
    } else {
        eprintln!("note: no seccomp user notification (Linux 5.8); the loader check skipped");
    }
    // No privilege, whoever runs the tests: with root's bounding set emptied too (without root,
    // it cannot be, and no-new-privileges keeps exec from granting any of it).
    let root = effective_uid() == 0;
    let expected = if root { "none" } else { "CapBnd" };
    assert_eq!(result("capabilities"), expected, "{results:?}");
    assert_eq!(result("read-usr"), "ok", "{results:?}");
    assert_eq!(result("read-own-proc"), "ok", "{results:?}");
    // Not another process's folder: the parent's environment is tutor's, which the program's own
    // is emptied of.
    if support.landlock_abi.is_some() {
        assert_eq!(result("read-parent-proc"), "EACCES", "{results:?}");
    }
    // Writing is refused by either layer.
    if support.seccomp || support.landlock_abi.is_some() {
        assert_eq!(result("write"), "EACCES", "{results:?}");
        assert!(!tmp.0.join("new.txt").exists());
        assert!(!tmp.0.join("folder").exists());
        assert!(tmp.0.join("secret.txt").exists());
    }
    if support.seccomp {
        assert_eq!(result("fork"), "EPERM", "{results:?}");
        assert_eq!(result("subprocess"), "EPERM", "{results:?}");
        assert_eq!(result("mkdir"), "EPERM", "{results:?}");
        assert_eq!(result("unlink"), "EPERM", "{results:?}");
        assert_eq!(result("socket"), "EACCES", "{results:?}");
        // No becoming another program, not even one carried in memory.
        assert_eq!(result("memfd"), "EPERM", "{results:?}");
        assert_eq!(result("execveat"), "EPERM", "{results:?}");
        assert_eq!(result("tiocsti"), "EPERM", "{results:?}");
        // While asking whether a descriptor is a terminal still works.
        assert_eq!(result("isatty"), "ok", "{results:?}");
    } else {
        eprintln!("note: no seccomp on this kernel; process, file and socket call checks skipped");
    }
    match support.landlock_abi {
        Some(abi) => {
            // Only Landlock refuses a read-only open, or an exec that seccomp lets through.
            assert_eq!(result("read-temp"), "EACCES", "{results:?}");
            // Not all of /etc (as root, the shadow file is the owner's to read), nor of /dev
            // (other terminals' pending input).
            assert_eq!(result("read-shadow"), "EACCES", "{results:?}");
            assert_eq!(result("list-dev-pts"), "EACCES", "{results:?}");
            // The program's own start was its one exec (where the kernel lets tutor count).
            let exec = if support.exec_once { "EPERM" } else { "EACCES" };
            assert_eq!(result("exec"), exec, "{results:?}");
            if abi >= 6 {
                assert_eq!(result("signal-parent"), "EPERM", "{results:?}");
            } else {
                eprintln!("note: Landlock ABI {abi} < 6; signal scoping check skipped");
            }
        }
        None => eprintln!("note: no Landlock on this kernel; read, exec and signal checks skipped"),
    }
}

#[test]
fn a_shell_cannot_start_a_background_child() {
    let script = "sleep 1 & echo started";
    let mut free = Command::new("/bin/sh");
    free.args(["-c", script]);
    let free = run(free);
    assert_eq!(
        (free.ending, free.output.stdout.as_str()),
        (Ending::Exited(0), "started\n"),
        "control: {}",
        shown(&free)
    );

    if !support().seccomp {
        eprintln!("note: no seccomp on this kernel; background child check skipped");
        return;
    }
    let mut confined = Command::new("/bin/sh");
    confined.args(["-c", script]);
    Confinement::prepare(Path::new("/bin/sh")).apply_to(&mut confined);
    let confined = run(confined);
    assert_ne!(confined.ending, Ending::Exited(0), "{}", shown(&confined));
    assert_eq!(confined.output.stdout, "", "{}", shown(&confined));
    assert!(confined.output.stderr.to_lowercase().contains("fork"), "{}", shown(&confined));
}

#[test]
fn missing_names_what_the_kernel_lacks() {
    assert!(Support { landlock_abi: Some(7), seccomp: true, exec_once: true }.missing().is_empty());
    assert_eq!(
        Support { landlock_abi: Some(5), seccomp: true, exec_once: true }.missing(),
        ["landlock signal scoping (ABI 6)"]
    );
    assert_eq!(
        Support { landlock_abi: Some(1), seccomp: false, exec_once: false }.missing(),
        [
            "landlock for builds (ABI 2: linking and renaming across folders)",
            "landlock network rules (ABI 4)",
            "landlock signal scoping (ABI 6)",
            "seccomp (no new processes, no writes, no sockets)"
        ]
    );
    assert_eq!(Support { landlock_abi: None, seccomp: true, exec_once: true }.missing().len(), 1);
    assert_eq!(
        Support { landlock_abi: Some(6), seccomp: true, exec_once: false }.missing(),
        ["seccomp user notification (Linux 5.8: one exec only, no program run through the loader)"]
    );
}

#[test]
fn prepare_degrades_instead_of_failing() {
    let kernel = support();
    eprintln!("this kernel: {kernel:?}, missing {:?}", kernel.missing());
    let ready = Confinement::prepare(Path::new(PYTHON));
    assert_eq!(ready.gaps(), kernel.missing().as_slice());
    // An executable that is not there: no Landlock rules can name it, and that is reported.
    let broken = Confinement::prepare(Path::new("/nonexistent/subject"));
    if kernel.landlock_abi.is_some() {
        assert!(broken.gaps().iter().any(|gap| gap.contains("landlock ruleset")), "{:?}", broken.gaps());
    }
}

#[test]
fn finds_the_dynamic_loader() {
    let loader = super::elf::loads(Path::new(PYTHON)).interpreter.expect("python3 is dynamically linked");
    assert!(loader.is_absolute() && loader.exists(), "{}", loader.display());
    assert_eq!(super::elf::loads(Path::new("/etc/hostname")).interpreter, None);
}

/// Tries each step of a build's file access in a shell and prints `name: ok` or
/// `name: refused`. Run as `sh -c BUILD_PROBE sh HARNESS OUTSIDE`.
const BUILD_PROBE: &str = r#"
harness=$1 outside=$2
try() {
    name=$1
    shift
    if "$@" >/dev/null 2>&1; then echo "$name: ok"; else echo "$name: refused"; fi
}
try read-harness cat "$harness/exercises/own.rs"
try read-outside cat "$outside/secret.txt"
try read-system cat /etc/passwd
try write-target sh -c 'echo built > "$1"' sh "$harness/target/debug/out.txt"
try temp-file sh -c 'echo temporary > "$1"' sh "$harness/target/tmp/cc.res"
try write-harness sh -c 'echo planted > "$1"' sh "$harness/build.rs"
try write-outside sh -c 'echo leaked > "$1"' sh "$outside/leaked.txt"
try run-from-target "$harness/target/debug/build-script"
try run-outside "$outside/tool"
"#;

/// A harness folder (`exercises/own.rs`, `target/debug/build-script`) inside a temporary
/// folder that also holds `secret.txt` and a program `tool` outside it.
fn build_probe(tmp: &TempDir, confined: bool) -> BTreeMap<String, String> {
    let harness = tmp.0.join("harness");
    std::fs::create_dir_all(harness.join("exercises")).expect("creating the harness");
    std::fs::create_dir_all(harness.join("target/debug")).expect("creating target/debug");
    std::fs::create_dir_all(build_temp_dir(&harness)).expect("creating target/tmp");
    std::fs::write(harness.join("exercises/own.rs"), "// the learner's copy\n").expect("writing the copy");
    std::fs::copy("/bin/true", harness.join("target/debug/build-script")).expect("copying /bin/true");
    std::fs::copy("/bin/true", tmp.0.join("tool")).expect("copying /bin/true");
    let mut command = Command::new("/bin/sh");
    command.args(["-c", BUILD_PROBE, "sh"]).arg(&harness).arg(&tmp.0);
    if confined {
        let confinement = Confinement::for_build(&harness);
        assert_eq!(confinement.gaps(), &[] as &[&str], "the build's rules could not be built");
        confinement.apply_to(&mut command);
    }
    let done = run(command);
    assert_eq!(done.ending, Ending::Exited(0), "the probe failed: {}", shown(&done));
    let lines = done.output.stdout.lines();
    lines
        .filter_map(|line| line.split_once(": "))
        .map(|(name, result)| (name.to_string(), result.to_string()))
        .collect()
}

/// Whether this kernel confines builds (Landlock ABI 2 or later); says why not otherwise.
fn builds_are_confined() -> bool {
    match support().landlock_abi {
        Some(abi) if abi >= 2 => true,
        other => {
            eprintln!("note: Landlock ABI {other:?}; build confinement checks skipped");
            false
        }
    }
}

#[test]
fn a_confined_build_reads_the_harness_and_writes_its_target_only() {
    let tmp = TempDir::new("build");
    // The control: every step works unconfined.
    let free = build_probe(&tmp, false);
    assert!(free.len() == 9 && free.values().all(|result| result == "ok"), "control: {free:?}");
    for leftover in ["harness/build.rs", "leaked.txt", "harness/target/debug/out.txt"] {
        std::fs::remove_file(tmp.0.join(leftover)).expect("removing what the control wrote");
    }
    if !builds_are_confined() {
        return;
    }
    let toolchain = toolchain::find(&std::env::temp_dir());
    let folders = toolchain.cargo_home.iter().chain(&toolchain.rustup_home).chain(&toolchain.elsewhere);
    for folder in folders {
        assert!(!tmp.0.starts_with(folder), "{} is in the toolchain's {}", tmp.0.display(), folder.display());
    }

    let results = build_probe(&tmp, true);
    let result = |name: &str| results.get(name).map(String::as_str).unwrap_or("missing");
    for allowed in ["read-harness", "read-system", "write-target", "temp-file", "run-from-target"] {
        assert_eq!(result(allowed), "ok", "{allowed} in {results:?}");
    }
    for refused in ["read-outside", "write-harness", "write-outside", "run-outside"] {
        assert_eq!(result(refused), "refused", "{refused} in {results:?}");
    }
    assert!(tmp.0.join("harness/target/debug/out.txt").exists());
    assert!(!tmp.0.join("harness/build.rs").exists());
    assert!(!tmp.0.join("leaked.txt").exists());
}

#[test]
fn a_confined_build_can_run_the_toolchain() {
    if !builds_are_confined() {
        return;
    }
    let tmp = TempDir::new("toolchain");
    let harness = tmp.0.join("harness");
    std::fs::create_dir_all(harness.join("target")).expect("creating the harness");
    // Through rustup's proxy when there is one, as cargo is run: the folders found for the
    // build must hold every program and library that takes.
    let mut command = Command::new("rustc");
    command.args(["--print", "sysroot"]).current_dir(std::env::temp_dir());
    Confinement::for_build(&harness).apply_to(&mut command);
    let done = run(command);
    assert_eq!(done.ending, Ending::Exited(0), "{}", shown(&done));
    assert!(Path::new(done.output.stdout.trim()).join("lib/rustlib").is_dir(), "{}", shown(&done));
}

#[test]
fn for_build_degrades_instead_of_failing() {
    // No target/ to name: the rules cannot be built, and that is reported, not fatal.
    let missing = Confinement::for_build(Path::new("/nonexistent/harness"));
    match support().landlock_abi {
        Some(abi) if abi >= 2 => {
            assert_eq!(missing.gaps(), ["landlock ruleset for the build (could not be built)"]);
        }
        _ => assert_eq!(missing.gaps().len(), 1, "{:?}", missing.gaps()),
    }
}

/// Tries each read a build might attempt in a fake `CARGO_HOME` and prints `name: ok` or
/// `name: refused`. Run as `sh -c CARGO_HOME_PROBE sh CARGO_HOME`.
const CARGO_HOME_PROBE: &str = r#"
home=$1
try() {
    name=$1
    shift
    if "$@" >/dev/null 2>&1; then echo "$name: ok"; else echo "$name: refused"; fi
}
try registry cat "$home/registry/src/crate/lib.rs"
try git cat "$home/git/checkouts/repo/lib.rs"
try config cat "$home/config.toml"
try proxy "$home/bin/cargo"
try env cat "$home/env"
try credentials cat "$home/credentials.toml"
try installed-read cat "$home/bin/tutor"
try installed-run "$home/bin/tutor"
"#;

/// A fake `CARGO_HOME` in `tmp`: sources, settings, secrets, rustup (a copy of /bin/true) with
/// `cargo` linked to it, and an installed program beside them.
fn fake_cargo_home(tmp: &TempDir) -> PathBuf {
    let home = tmp.0.join("cargo-home");
    for folder in ["bin", "registry/src/crate", "git/checkouts/repo"] {
        std::fs::create_dir_all(home.join(folder)).expect("creating the fake CARGO_HOME");
    }
    for (file, text) in [
        ("registry/src/crate/lib.rs", "// a dependency\n"),
        ("git/checkouts/repo/lib.rs", "// a git dependency\n"),
        ("config.toml", "[net]\n"),
        ("env", "export SECRET=1\n"),
        ("credentials.toml", "[registry]\ntoken = \"secret\"\n"),
    ] {
        std::fs::write(home.join(file), text).expect("writing the fake CARGO_HOME");
    }
    std::fs::copy("/bin/true", home.join("bin/rustup")).expect("copying /bin/true");
    std::os::unix::fs::symlink("rustup", home.join("bin/cargo")).expect("linking the proxy");
    std::fs::copy("/bin/true", home.join("bin/tutor")).expect("copying /bin/true");
    home
}

#[test]
fn the_build_reads_cargo_homes_sources_and_runs_its_proxies_but_reads_no_secret() {
    let tmp = TempDir::new("cargo-home");
    let home = fake_cargo_home(&tmp);
    let harness = tmp.0.join("harness");
    std::fs::create_dir_all(harness.join("target")).expect("creating the harness");
    let probe = |confinement: Option<Confinement>| {
        let mut command = Command::new("/bin/sh");
        command.args(["-c", CARGO_HOME_PROBE, "sh"]).arg(&home);
        if let Some(confinement) = confinement {
            confinement.apply_to(&mut command);
        }
        let done = run(command);
        assert_eq!(done.ending, Ending::Exited(0), "the probe failed: {}", shown(&done));
        let lines = done.output.stdout.lines();
        lines.filter_map(|line| line.split_once(": ")).map(|(n, r)| (n.to_string(), r.to_string())).collect()
    };
    let free: BTreeMap<String, String> = probe(None);
    assert!(free.len() == 8 && free.values().all(|result| result == "ok"), "control: {free:?}");
    if !builds_are_confined() {
        return;
    }
    let confined = |downloads: bool| {
        let toolchain = toolchain::Toolchain { cargo_home: Some(home.clone()), ..Default::default() };
        let ruleset = landlock::build_ruleset(&harness, &toolchain, downloads).expect("the build's ruleset");
        let prepared =
            Prepared { ruleset: Some(ruleset), own_proc: false, unprivileged: false, filters: &[], exec_once: false };
        Confinement { prepared: std::sync::Arc::new(prepared), gaps: Vec::new() }
    };

    let results = probe(Some(confined(false)));
    let result = |name: &str| results.get(name).map(String::as_str).unwrap_or("missing");
    for allowed in ["registry", "git", "config", "proxy"] {
        assert_eq!(result(allowed), "ok", "{allowed} in {results:?}");
    }
    for refused in ["env", "credentials", "installed-read", "installed-run"] {
        assert_eq!(result(refused), "refused", "{refused} in {results:?}");
    }
    // Fetching the dependencies (never the learner's file) may write anywhere in CARGO_HOME.
    let downloading = probe(Some(confined(true)));
    assert!(downloading.values().all(|result| result == "ok"), "downloads: {downloading:?}");
}

/// The threads of this process with `name`.
fn threads_named(name: &str) -> usize {
    let tasks = std::fs::read_dir("/proc/self/task").expect("reading /proc/self/task");
    let names = tasks.flatten().filter_map(|task| std::fs::read_to_string(task.path().join("comm")).ok());
    names.filter(|comm| comm.trim() == name).count()
}

#[test]
fn each_exec_supervisor_ends_with_its_program() {
    if !support().exec_once {
        eprintln!("note: no seccomp user notification (Linux 5.8); supervisor check skipped");
        return;
    }
    for _ in 0..5 {
        let mut command = Command::new("/bin/true");
        Confinement::prepare(Path::new("/bin/true")).apply_to(&mut command);
        let done = run(command);
        assert_eq!(done.ending, Ending::Exited(0), "{}", shown(&done));
    }
    // A command dropped unspawned: its supervisor, never sent a listener, ends too.
    let mut unspawned = Command::new("/bin/true");
    Confinement::prepare(Path::new("/bin/true")).apply_to(&mut unspawned);
    drop(unspawned);
    // Other tests of this binary start programs at the same time: wait for all to end.
    let deadline = std::time::Instant::now() + Duration::from_secs(20);
    while threads_named("tutor-exec-once") > 0 {
        assert!(std::time::Instant::now() < deadline, "a supervisor outlived its program");
        std::thread::sleep(Duration::from_millis(20));
    }
}
