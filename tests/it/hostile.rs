//! Exercise files that attack or misbehave, run through the real binary: every one ends in a
//! clear verdict (exit code 1, never a pass, no backtrace), nothing it started is left running
//! (checked by process id and process group in /proc, never by name), and progress survives.
//!
//! Most files in `tests/hostile/` describe themselves: `//! exercise:` (graded as), `//! args:`
//! (extra flags), `//! shows:` / `//! hides:` (what the output must and must not hold), and
//! `{{WORKSPACE}}` (the course folder) / `{{FIFO}}` (a FIFO the build may read) placeholders
//! filled in here. The attacks that need choreography (a killed tutor, a held cargo lock,
//! timestamps, a planted build script) are scripted below.

use crate::common;

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use common::fixtures::{Fixture, HOSTILE};
use common::pty::{assert_group_gone, build_group_with_rustc, group_leading_children, group_members, stat};
use common::Course;

/// Every `pid=N` and `child=N` the hostile file printed: none may be left, nor anything of
/// their process groups.
fn assert_nothing_left(output: &str, name: &str) {
    for marker in ["pid=", "child="] {
        for number in output.split(marker).skip(1) {
            let digits: String = number.chars().take_while(char::is_ascii_digit).collect();
            if let Ok(pid) = digits.parse::<i32>() {
                assert_group_gone(pid, Duration::from_secs(2), name);
                let alive = stat(pid).is_some_and(|(state, _, _)| state != 'Z' && state != 'X');
                assert!(!alive, "{name}: process {pid} outlived the check");
            }
        }
    }
}

fn headers<'a>(source: &'a str, key: &str) -> Vec<&'a str> {
    let prefix = format!("//! {key}:");
    source.lines().filter_map(|l| l.strip_prefix(&prefix)).map(str::trim).collect()
}

/// Where the FIFO of `{{FIFO}}` is: beneath the harness's `target/`, which the build may read
/// (it may read nothing else of the course folder, so a FIFO there would only be refused).
fn fifo(course: &Course) -> std::path::PathBuf {
    course.root.join(".tutor/harness/target/fifo")
}

/// Fills the placeholders of a hostile file in.
fn fill(source: &str, course: &Course) -> String {
    source.replace("{{WORKSPACE}}", course.root.to_str().unwrap()).replace("{{FIFO}}", fifo(course).to_str().unwrap())
}

/// Starts `tutor ARGS` in the course without waiting for it, its output discarded.
fn spawn_quietly(course: &Course, args: &[&str]) -> std::process::Child {
    course.command(args).stdout(Stdio::null()).stderr(Stdio::null()).spawn().expect("the tutor binary runs")
}

/// What the attacks go for, once the harness's `target/` exists: a solution beside the
/// exercises (as in a repository clone), and the FIFO of `{{FIFO}}`.
fn lay_out_targets(course: &Course) {
    std::fs::create_dir_all(course.root.join("solutions/rmsnorm")).unwrap();
    std::fs::write(course.root.join("solutions/rmsnorm/02-norm.rs"), Course::solution("02-norm")).unwrap();
    make_fifo(&fifo(course));
}

fn make_fifo(path: &Path) {
    let status = Command::new("mkfifo").arg(path).status().expect("mkfifo runs");
    assert!(status.success());
}

/// Checks one hostile file as its headers say, and asserts its verdict.
fn check_hostile(course: &Course, fixture: &Fixture) {
    let exercise = fixture.header("exercise").unwrap_or_else(|| panic!("{}: no `//! exercise:` line", fixture.name));
    course.write_exercise_of(fixture.course, exercise, &fill(fixture.source, course));
    // Every case in full: what a hostile file does to a case later than the first failure is
    // part of what is checked.
    let key = format!("{}/{exercise}", fixture.course);
    let mut args = vec!["check", key.as_str(), "--verbose"];
    args.extend(headers(fixture.source, "args").iter().flat_map(|a| a.split_whitespace()));
    let started = Instant::now();
    let run = course.tutor(&args);
    assert!(started.elapsed() < Duration::from_secs(40), "{}: the check took {:?}", fixture.name, started.elapsed());
    run.expect(1).hides("panicked at").hides("stack backtrace");
    assert!(!run.all().contains('\u{1b}'), "{}: an escape sequence reached the terminal", fixture.name);
    // tutor's own lines start at the margin; what the code printed is indented under its heading.
    let verdict_passed = run.stdout.lines().any(|l| l.contains("passes every check") && !l.starts_with(' '));
    assert!(!verdict_passed, "{}: a pass was reported:\n{}", fixture.name, run.stdout);
    for text in headers(fixture.source, "shows") {
        run.shows(text);
    }
    for text in headers(fixture.source, "hides") {
        run.hides(text);
    }
    assert_nothing_left(&run.all(), fixture.name);
}

/// The hostile files that attack the build rather than the graded program.
const COMPILE_TIME: [&str; 9] = [
    "compile-error",
    "compile-oom",
    "const-loop",
    "global-asm-incbin",
    "include-fifo",
    "include-kit-source",
    "include-solution",
    "path-absent-piece",
    "path-solution",
];

#[test]
fn every_hostile_file_gets_a_verdict_and_leaves_nothing_running() {
    let course = Course::new("hostile");
    // Progress that must survive everything below.
    course.write_exercise("01-weight", &Course::solution("01-weight"));
    course.tutor(&["check", "01"]).expect(0);
    // After the first check, which made the harness's target/.
    lay_out_targets(&course);
    let _ = std::fs::remove_file("/tmp/tutor-hostile-write-marker");

    assert!(HOSTILE.len() >= 25, "{} hostile files", HOSTILE.len());
    for fixture in HOSTILE {
        check_hostile(&course, fixture);
    }
    // What the graded programs tried to plant is not there.
    assert!(!course.root.join(".tutor/harness/build.rs").exists(), "a build script was planted");
    assert!(!Path::new("/tmp/tutor-hostile-write-marker").exists(), "the graded program wrote a file");

    // Progress survived every run and still parses; a passing check still counts.
    course.tutor(&["list"]).expect(0).hides("could not be read");
    for id in ["01-weight", "02-norm", "03-forward"] {
        assert!(course.state().contains(&format!("[exercises.\"rmsnorm/{id}\"]")), "{}", course.state());
    }
    course.write_exercise("01-weight", &Course::solution("01-weight"));
    // Named with its course: the last file checked may have been another chapter's.
    course.tutor(&["check", "rmsnorm/01-weight"]).expect(0);
    course.tutor(&["list"]).expect(0).shows(&common::done(1));
}

#[test]
fn attacks_on_the_build_are_stopped_whether_cargo_or_rustc_alone_compiles() {
    let course = Course::new("hostile-builds");
    course.write_exercise("02-norm", &Course::solution("02-norm"));
    course.tutor(&["check", "02"]).expect(0);
    lay_out_targets(&course);
    let record = course.root.join(".tutor/builds/ex-rmsnorm-02-norm.json");
    for name in COMPILE_TIME {
        let fixture =
            HOSTILE.iter().find(|f| f.name == name).unwrap_or_else(|| panic!("tests/hostile/<course>/{name}.rs"));
        // By cargo: no record of an earlier build.
        let _ = std::fs::remove_dir_all(course.root.join(".tutor/builds"));
        check_hostile(&course, fixture);
        // By rustc alone: the command that cargo ran was recorded, whatever its outcome.
        let recorded = std::fs::read_to_string(&record).unwrap_or_default();
        assert!(recorded.contains("\"command\":{"), "{name}: no command recorded: {recorded}");
        check_hostile(&course, fixture);
    }
}

#[test]
fn descriptors_tutor_inherited_never_reach_the_graded_program() {
    let course = Course::new("inherited");
    let writer = HOSTILE
        .iter()
        .find(|f| f.name == "inherited-descriptor")
        .expect("tests/hostile/rmsnorm/inherited-descriptor.rs");
    course.write_exercise("02-norm", writer.source);
    let leak = course.root.join("leak.txt");
    std::fs::write(&leak, "").unwrap();
    // A shell that opens descriptor 9 for tutor, as `tutor check 02 9>>leak.txt` would.
    let script = format!("exec 9>>'{}'; exec '{}' check 02-norm", leak.display(), env!("CARGO_BIN_EXE_tutor"));
    let run = common::Run::from(
        Command::new("sh")
            .args(["-c", &script])
            .current_dir(&course.root)
            .env("TUTOR_LANG", "en")
            .env("NO_COLOR", "1")
            .stdin(Stdio::null())
            .output()
            .unwrap(),
    );
    run.expect(1).shows("wrote to fd 9: Err");
    assert_eq!(std::fs::read_to_string(&leak).unwrap(), "", "the graded program wrote through an inherited descriptor");
}

#[test]
fn files_that_cannot_be_graded_are_refused_with_a_reason() {
    let course = Course::new("refused");
    let file = course.root.join("exercises/rmsnorm/02-norm.rs");
    std::fs::remove_file(&file).unwrap();
    course
        .tutor(&["check", "02"])
        .expect(1)
        .shows("exercises/rmsnorm/02-norm.rs is missing")
        .shows("tutor reset 02-norm");
    course.write_exercise("02-norm", "\n  \n");
    course.tutor(&["check", "02"]).expect(1).shows("exercises/rmsnorm/02-norm.rs is empty");
    std::fs::write(&file, [0xff, 0xfe, 0x00]).unwrap();
    course.tutor(&["check", "02"]).expect(1).shows("is not UTF-8 text");
    std::fs::write(&file, vec![b'/'; 2 << 20]).unwrap();
    course.tutor(&["check", "02"]).expect(1).shows("more than the 1048576");
    // A FIFO would block an ordinary read for ever.
    std::fs::remove_file(&file).unwrap();
    make_fifo(&file);
    let started = Instant::now();
    course.tutor(&["check", "02"]).expect(1).shows("02-norm.rs is a FIFO (named pipe), not an ordinary file");
    assert!(started.elapsed() < Duration::from_secs(10));
}

#[test]
fn what_is_graded_is_the_files_content_whatever_its_timestamp() {
    let course = Course::new("mtime");
    course.write_exercise("02-norm", &Course::solution("02-norm"));
    course.tutor(&["check", "02"]).expect(0);
    // A restore from a backup (`cp -p`, `tar`, `rsync -a`): the stub comes back with an old time.
    course.write_exercise("02-norm", &Course::stub("02-norm"));
    let old = std::time::SystemTime::UNIX_EPOCH + Duration::from_secs(1_000_000_000);
    std::fs::File::options()
        .write(true)
        .open(course.root.join("exercises/rmsnorm/02-norm.rs"))
        .unwrap()
        .set_modified(old)
        .unwrap();
    course.tutor(&["check", "02"]).expect(1).shows("TODO 2 is not written yet");
    // And back: the same content as an earlier build needs no stale binary either.
    course.write_exercise("02-norm", &Course::solution("02-norm"));
    course.tutor(&["check", "02"]).expect(0);
}

#[test]
fn a_planted_build_script_never_runs() {
    let course = Course::new("planted");
    course.write_exercise("02-norm", &Course::solution("02-norm"));
    course.tutor(&["check", "02"]).expect(0);
    let marker = course.root.join("planted-marker");
    let script = format!("fn main() {{ std::fs::write({:?}, \"ran\").unwrap(); }}\n", marker.to_str().unwrap());
    std::fs::write(course.root.join(".tutor/harness/build.rs"), script).unwrap();
    std::fs::create_dir_all(course.root.join(".cargo")).unwrap();
    std::fs::write(course.root.join(".cargo/config.toml"), "[build]\nrustflags = [\"--cfg\", \"planted\"]\n").unwrap();
    course.write_exercise("02-norm", &format!("{}\n// edited\n", Course::solution("02-norm")));
    course.tutor(&["check", "02"]).expect(0);
    assert!(!marker.exists(), "the planted build script ran");
    assert!(!course.root.join(".tutor/harness/build.rs").exists(), "the planted build script is still there");
}

#[test]
fn a_killed_tutor_takes_its_build_with_it_and_the_next_check_works() {
    let course = Course::new("killed");
    course.write_exercise("02-norm", &Course::solution("02-norm"));
    course.tutor(&["check", "02"]).expect(0);
    let endless = HOSTILE.iter().find(|f| f.name == "const-loop").expect("tests/hostile/rmsnorm/const-loop.rs");
    // Built by rustc alone (only the file changed since the last build), then by cargo (tutor's
    // record of the last build gone).
    for by_cargo in [false, true] {
        if by_cargo {
            std::fs::remove_dir_all(course.root.join(".tutor/builds")).unwrap();
        }
        course.write_exercise("02-norm", endless.source);
        let mut tutor = spawn_quietly(&course, &["check", "02", "--build-timeout", "120"]);
        let tutor_pid = tutor.id() as i32;
        let build_group = build_group_with_rustc(tutor_pid);
        assert_eq!(group_members(build_group).len() >= 2, by_cargo, "cargo leads the group of its build only");
        std::thread::sleep(Duration::from_millis(500));
        Command::new("kill").args(["-KILL", &tutor_pid.to_string()]).status().unwrap();
        tutor.wait().unwrap();
        assert_group_gone(build_group, Duration::from_secs(5), "the build after `kill -9` of tutor");

        course.write_exercise("02-norm", &Course::solution("02-norm"));
        let started = Instant::now();
        course.tutor(&["check", "02"]).expect(0);
        assert!(started.elapsed() < Duration::from_secs(60), "the next check waited {:?}", started.elapsed());
    }
}

#[test]
fn a_check_waiting_for_cargos_lock_says_so() {
    let course = Course::new("cargo-lock");
    course.write_exercise("02-norm", &Course::solution("02-norm"));
    course.tutor(&["check", "02"]).expect(0);
    let lock = course.root.join(".tutor/harness/target/debug/.cargo-lock");
    assert!(lock.exists(), "cargo's build lock is at {}", lock.display());
    // Built by rustc alone (only the file changed), then by cargo (tutor's record gone): both
    // wait for cargo's lock, and say so.
    for (edit, by_cargo) in [("one", false), ("two", true)] {
        if by_cargo {
            std::fs::remove_dir_all(course.root.join(".tutor/builds")).unwrap();
        }
        let mut holder = Command::new("flock").arg(&lock).args(["sleep", "3"]).spawn().expect("flock runs");
        std::thread::sleep(Duration::from_millis(300));
        course.write_exercise("02-norm", &format!("{}\n// {edit}\n", Course::solution("02-norm")));
        let started = Instant::now();
        course.tutor(&["check", "02"]).expect(0).shows("the build is waiting for another cargo");
        assert!(started.elapsed() >= Duration::from_secs(2), "the build did not wait: {:?}", started.elapsed());
        holder.wait().unwrap();
    }
}

#[test]
fn ctrl_c_during_a_check_takes_the_graded_program_with_it() {
    let course = Course::new("interrupted");
    let endless = HOSTILE.iter().find(|f| f.name == "endless-loop").expect("tests/hostile/rmsnorm/endless-loop.rs");
    course.write_exercise("02-norm", endless.source);
    let mut tutor = spawn_quietly(&course, &["check", "02-norm", "--timeout", "120"]);
    let tutor_pid = tutor.id() as i32;
    // The graded program is the group-leading child whose executable is the built exercise, as
    // rustc wrote it (in `deps/`, its name hashed).
    let deps = course.root.join(".tutor/harness/target/debug/deps");
    let is_graded = |exe: &Path| {
        exe.parent() == Some(deps.as_path())
            && exe.file_name().is_some_and(|name| name.to_string_lossy().starts_with("ex_rmsnorm_02_norm-"))
    };
    let started = Instant::now();
    let group = loop {
        let found = group_leading_children(tutor_pid)
            .into_iter()
            .find(|pid| std::fs::read_link(format!("/proc/{pid}/exe")).is_ok_and(|exe| is_graded(&exe)));
        if let Some(pid) = found {
            break pid;
        }
        assert!(started.elapsed() < Duration::from_secs(60), "the graded program did not start");
        std::thread::sleep(Duration::from_millis(50));
    };
    Command::new("kill").args(["-INT", &tutor_pid.to_string()]).status().unwrap();
    tutor.wait().unwrap();
    assert_group_gone(group, Duration::from_secs(3), "the graded program after Ctrl-C");
}

#[test]
fn two_checks_at_once_both_finish_with_the_right_verdict() {
    let course = Course::new("concurrent");
    course.write_exercise("02-norm", &Course::solution("02-norm"));
    let spawn = || {
        Command::new(env!("CARGO_BIN_EXE_tutor"))
            .args(["check", "02-norm"])
            .current_dir(&course.root)
            .env("TUTOR_LANG", "en")
            .env("NO_COLOR", "1")
            .stdin(Stdio::null())
            .output()
            .unwrap()
    };
    let (a, b) = std::thread::scope(|s| {
        let a = s.spawn(spawn);
        let b = s.spawn(spawn);
        (a.join().unwrap(), b.join().unwrap())
    });
    assert_eq!(a.status.code(), Some(0), "{}", String::from_utf8_lossy(&a.stdout));
    assert_eq!(b.status.code(), Some(0), "{}", String::from_utf8_lossy(&b.stdout));
    let state = course.state();
    let checks = state
        .split("[exercises.\"rmsnorm/02-norm\"]")
        .nth(1)
        .and_then(|s| s.lines().find(|l| l.starts_with("checks")))
        .unwrap();
    assert_eq!(checks, "checks = 2", "{state}");
}

#[test]
fn a_missing_or_old_cargo_is_named() {
    // The toolchain is checked at a harness's first build.
    let course = Course::cold("toolchain");
    let empty_bin = course.root.join("empty-bin");
    std::fs::create_dir_all(&empty_bin).unwrap();
    course
        .tutor_with(&["check", "02"], |c| {
            c.env("PATH", &empty_bin);
        })
        .expect(2)
        .shows("cargo was not found on PATH")
        .shows("rustup");

    let old_bin = course.root.join("old-bin");
    std::fs::create_dir_all(&old_bin).unwrap();
    let fake = old_bin.join("cargo");
    std::fs::write(&fake, "#!/bin/sh\necho 'cargo 1.60.0 (d1fd9fe2c 2022-03-01)'\n").unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&fake, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    course
        .tutor_with(&["check", "02"], |c| {
            c.env("PATH", &old_bin);
        })
        .expect(2)
        .shows("cargo 1.60.0")
        .shows("rustup update");
    // Nothing was recorded for an environment failure.
    assert!(!course.state().contains("checks"), "{}", course.state());
}
