//! The privileged-call probes (issue 19): whoever runs tutor — CI and these machines run as
//! root — the graded program holds no capability and every privileged kernel interface is
//! refused; and the build of a learner's file reads no secret (`CARGO_HOME`'s `env` and
//! credentials, a program installed in `CARGO_HOME/bin`, `/etc/shadow`), so no compile error can
//! print one.
//!
//! The probes are a learner's file, `tests/hostile/rmsnorm/privileged-calls.rs` (it also runs with the
//! other hostile files), checked through the real binary: each call is made inside the confined
//! graded program, never by this test.

use crate::common;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use common::Course;

const PROBES: &str = include_str!("../hostile/rmsnorm/privileged-calls.rs");
const INCLUDE_SECRET: &str = include_str!("privileged/include-secret.rs");

/// The error numbers that mean "refused": EPERM, EACCES, ENOSYS.
const REFUSED: [&str; 3] = ["errno 1", "errno 13", "errno 38"];

/// The calls the probe file must report, each refused.
const PROBED: [&str; 28] = [
    "perf_event_open system-wide",
    "perf_event_open uprobe",
    "bpf prog load",
    "sched_setscheduler FIFO 99",
    "sched_setattr FIFO 99",
    "keyctl",
    "add_key",
    "request_key",
    "ptrace traceme",
    "process_vm_readv",
    "process_vm_writev",
    "io_uring_setup",
    "io_uring_enter",
    "io_uring_register",
    "userfaultfd",
    "syslog",
    "unlisted call 1000",
    "reboot cad_off",
    "kexec_load",
    "kexec_file_load",
    "init_module",
    "finit_module",
    "delete_module",
    "settimeofday",
    "clock_settime",
    "open /dev/pts/0",
    "open /dev/tty",
    "machine-changing calls",
];

/// `prefix NAME: RESULT` lines of the check's output, as `NAME → RESULT`.
fn lines_after(output: &str, prefix: &str) -> BTreeMap<String, String> {
    output
        .lines()
        .filter_map(|line| line.trim_start().strip_prefix(prefix))
        .filter_map(|rest| rest.split_once(": "))
        .map(|(name, result)| (name.to_string(), result.trim().to_string()))
        .collect()
}

#[test]
fn every_privileged_call_is_refused_and_the_graded_program_holds_no_capability() {
    let course = Course::new("privileged");
    course.write_exercise("02-norm", PROBES);
    let run = course.tutor(&["check", "02-norm", "--verbose"]);
    run.expect(1).shows("probes done").hides("ALLOWED");
    let output = run.all();

    let capabilities = lines_after(&output, "capability set ");
    for set in ["CapInh", "CapPrm", "CapEff", "CapBnd", "CapAmb"] {
        let bits = capabilities.get(set).unwrap_or_else(|| panic!("{set} not printed:\n{output}"));
        let bits = u64::from_str_radix(bits, 16).unwrap_or_else(|_| panic!("{set}: {bits}"));
        // Without root the bounding set cannot be emptied (that needs CAP_SETPCAP), and need not
        // be: with no-new-privileges, exec grants nothing from it.
        if set != "CapBnd" || running_as_root() {
            assert_eq!(bits, 0, "{set} is not empty inside the graded program:\n{output}");
        }
    }

    let probes = lines_after(&output, "probe ");
    // The machine-changing calls are only made by a program without capabilities: the line
    // that says they were skipped must not be there.
    assert!(!probes.contains_key("machine-changing calls"), "the probes ran with capabilities:\n{output}");
    for name in PROBED.iter().filter(|name| **name != "machine-changing calls") {
        let result = probes.get(*name).unwrap_or_else(|| panic!("probe {name} not printed:\n{output}"));
        // A terminal that does not exist cannot be refused: only then is "no such file" fine.
        let absent = name.starts_with("open /dev/") && !Path::new(&name["open ".len()..]).exists();
        let refused = REFUSED.contains(&result.as_str()) || (absent && result == "errno 2");
        assert!(refused, "{name}: {result}, not refused:\n{output}");
    }
}

/// Whether this test runs as root (from /proc: no `unsafe` needed).
fn running_as_root() -> bool {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    let uid = status.lines().find_map(|line| line.strip_prefix("Uid:")).unwrap_or("");
    uid.split_whitespace().nth(1) == Some("0")
}

/// `CARGO_HOME` as cargo resolves it: the variable, else `~/.cargo`.
fn cargo_home() -> Option<PathBuf> {
    let variable = std::env::var_os("CARGO_HOME").filter(|value| !value.is_empty()).map(PathBuf::from);
    variable.or_else(|| std::env::home_dir().map(|home| home.join(".cargo"))).filter(|home| home.is_dir())
}

/// Checks the template reading `secret` and returns the output, which must be a compile error.
fn compile_reading(course: &Course, secret: &Path) -> String {
    let source = INCLUDE_SECRET.replace("{{SECRET}}", secret.to_str().expect("a UTF-8 path"));
    course.write_exercise("02-norm", &source);
    let run = course.tutor(&["check", "02-norm"]);
    run.expect(1).shows("does not compile").hides("panicked at");
    run.all()
}

#[test]
fn a_compile_error_never_prints_a_secret_file() {
    let course = Course::new("build-secrets");
    course.write_exercise("02-norm", &Course::solution("02-norm"));
    course.tutor(&["check", "02"]).expect(0);

    // The control: a file the build may read (in the harness) is printed by this very template,
    // so a secret's absence below is the confinement's doing.
    let control = course.root.join(".tutor/harness/target/control.txt");
    std::fs::write(&control, "control-content-4711\n").unwrap();
    let output = compile_reading(&course, &control);
    assert!(output.contains("control-content-4711"), "the template does not print what it reads:\n{output}");

    let mut secrets = vec![PathBuf::from("/etc/shadow")];
    if let Some(home) = cargo_home() {
        secrets.extend(["env", "credentials.toml", "credentials"].map(|name| home.join(name)));
    }
    let mut tried = 0;
    for secret in secrets.iter().filter(|secret| secret.is_file()) {
        let output = compile_reading(&course, secret);
        assert!(output.contains("Permission denied"), "{}: not refused:\n{output}", secret.display());
        // As root this test can read every one of them; otherwise what it cannot read, the
        // build (the same user) could not read either.
        let Ok(content) = std::fs::read_to_string(secret) else { continue };
        for line in content.lines().map(str::trim).filter(|line| line.len() >= 8) {
            assert!(!output.contains(line), "{}: a line of it was printed:\n{output}", secret.display());
        }
        tried += 1;
    }
    eprintln!("secret files tried: {tried} of {secrets:?}");
}

#[test]
fn a_compile_error_never_prints_a_program_installed_beside_cargo() {
    // A CARGO_HOME of this test's own, laid out as rustup and `cargo install` leave one: rustup's
    // proxies in bin/, the registry (the real one, linked), and an installed program, which for
    // tutor would carry every solution.
    let Some(real_home) = cargo_home() else {
        eprintln!("note: no CARGO_HOME; skipped");
        return;
    };
    let rustup = real_home.join("bin/rustup");
    if !rustup.is_file() || !real_home.join("registry").is_dir() {
        eprintln!("note: no rustup in {}; skipped", real_home.display());
        return;
    }
    let course = Course::new("build-installed");
    let home = course.root.join("cargo-home");
    std::fs::create_dir_all(home.join("bin")).unwrap();
    for proxy in ["cargo", "rustc", "rustdoc"] {
        std::os::unix::fs::symlink(&rustup, home.join("bin").join(proxy)).unwrap();
    }
    std::os::unix::fs::symlink(real_home.join("registry"), home.join("registry")).unwrap();
    let installed = home.join("bin/tutor");
    std::fs::write(&installed, "installed-program-with-solutions-0xC0FFEE\n").unwrap();
    let path = std::env::join_paths(
        std::iter::once(home.join("bin")).chain(std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default())),
    )
    .unwrap();
    let with_home = |command: &mut std::process::Command| {
        command.env("CARGO_HOME", &home).env("PATH", &path);
    };

    // The control: with this CARGO_HOME, a correct file builds and passes.
    course.write_exercise("02-norm", &Course::solution("02-norm"));
    course.tutor_with(&["check", "02"], with_home).expect(0);

    let source = INCLUDE_SECRET.replace("{{SECRET}}", installed.to_str().expect("a UTF-8 path"));
    course.write_exercise("02-norm", &source);
    let run = course.tutor_with(&["check", "02-norm"], with_home);
    run.expect(1).shows("does not compile").shows("Permission denied").hides("0xC0FFEE");
}
