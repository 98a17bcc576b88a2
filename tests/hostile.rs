//! Exercise files that misbehave (`tests/hostile/`), each run through the real binary: every one
//! ends in a clear verdict, exit code 1, no backtrace, and progress that is still readable.

mod common;

use std::time::{Duration, Instant};

use common::Course;

fn hostile(name: &str) -> String {
    std::fs::read_to_string(common::repo().join("tests/hostile").join(format!("{name}.rs"))).unwrap()
}

/// Command lines of the running processes (read from /proc; empty elsewhere).
fn command_lines() -> Vec<String> {
    let Ok(entries) = std::fs::read_dir("/proc") else { return Vec::new() };
    entries
        .filter_map(|e| std::fs::read(e.ok()?.path().join("cmdline")).ok())
        .map(|cmd| String::from_utf8_lossy(&cmd).replace('\0', " ").trim().to_string())
        .collect()
}

/// Processes whose command line is exactly `command`.
fn processes_running(command: &str) -> usize {
    command_lines().iter().filter(|c| *c == command).count()
}

/// Processes whose command line starts with `program`.
fn processes_starting_with(program: &str) -> usize {
    command_lines().iter().filter(|c| c.starts_with(program)).count()
}

#[test]
fn every_kind_of_misbehaviour_gets_a_verdict() {
    let course = Course::new("hostile");
    // Progress that must survive everything below.
    course.write_exercise("01-weight", &Course::solution("01-weight"));
    course.tutor(&["check", "01"]).expect(0);

    let check = |name: &str, extra: &[&str]| {
        course.write_exercise("02-norm", &hostile(name));
        let mut args = vec!["check", "02-norm"];
        args.extend_from_slice(extra);
        let run = course.tutor(&args);
        run.expect(1).hides("panicked at").hides("stack backtrace");
        run
    };

    check("compile-error", &[])
        .shows("exercises/02-norm.rs does not compile")
        .shows("mismatched types")
        .hides("kit/")
        .hides("bins/ex-")
        .hides(".tutor/harness");

    check("panic-in-new", &[])
        .shows("your code panicked: boom in new")
        .shows("(exercises/02-norm.rs:")
        .hides(course.root.to_str().unwrap());
    check("panic-in-norm", &[]).shows("your code panicked: index out of bounds");
    check("panic-in-forward", &[]).shows("your code panicked: boom in forward").shows("✓ pass tutorial case");
    check("panic-in-backward", &[]).shows("your code panicked: boom in backward").shows("✓ pass f16 input 2×3×4");

    let started = Instant::now();
    check("endless-loop", &["--timeout", "2"]).shows("ran for more than 2 s and was stopped");
    assert!(started.elapsed() < Duration::from_secs(30), "the time limit took {:?}", started.elapsed());
    assert_eq!(processes_running("sleep 987"), 0, "a child of the graded program outlived it");
    check("slow-answer", &["--timeout", "2"]).shows("ran for more than 2 s");

    // Ctrl-C (here SIGINT to tutor alone) during an endless loop: the graded program goes too.
    course.write_exercise("02-norm", &hostile("endless-loop"));
    let mut interrupted = std::process::Command::new(env!("CARGO_BIN_EXE_tutor"))
        .args(["check", "02-norm"])
        .current_dir(&course.root)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let graded = course.root.join(".tutor/harness/target/debug/ex-02-norm");
    let graded = graded.to_str().unwrap();
    let started = Instant::now();
    while processes_starting_with(graded) == 0 && started.elapsed() < Duration::from_secs(30) {
        std::thread::sleep(Duration::from_millis(50));
    }
    assert_eq!(processes_starting_with(graded), 1, "the graded program did not start");
    std::process::Command::new("kill").args(["-INT", &interrupted.id().to_string()]).status().unwrap();
    interrupted.wait().unwrap();
    std::thread::sleep(Duration::from_millis(500));
    assert_eq!(processes_starting_with(graded), 0, "the graded program outlived an interrupted tutor");
    assert_eq!(processes_running("sleep 987"), 0, "a child of the graded program outlived an interrupted tutor");

    check("exit-zero", &[])
        .shows("ended the grading process before it could report (exit code 0)")
        .shows("What your code printed:");
    check("abort", &[]).shows("before it could report").shows("signal 6");
    check("stack-overflow", &[]).shows("before it could report").shows("overflowed its stack");
    check("huge-allocation", &[]).shows("before it could report").shows("memory allocation");
    check("fake-report", &[]).shows("could not be trusted");
    check("endless-output", &["--timeout", "2"]).shows("ran for more than 2 s").shows("output cut after 16384 bytes");

    std::fs::remove_file(course.root.join("exercises/02-norm.rs")).unwrap();
    course.tutor(&["check", "02"]).expect(1).shows("exercises/02-norm.rs is missing").shows("tutor reset 02-norm");
    course.write_exercise("02-norm", "\n  \n");
    course.tutor(&["check", "02"]).expect(1).shows("exercises/02-norm.rs is empty").shows("tutor reset 02-norm");

    // Progress survived: 01 is still done, 02 is failing, the file parses.
    course.tutor(&["list"]).expect(0).shows("1/3 done").hides("could not be read");
    assert!(course.state().contains("failing"));

    // Two checks at once in one workspace: both finish with the right verdict, nothing is lost.
    course.write_exercise("02-norm", &Course::solution("02-norm"));
    let spawn = || {
        std::process::Command::new(env!("CARGO_BIN_EXE_tutor"))
            .args(["check", "02-norm"])
            .current_dir(&course.root)
            .env("TUTOR_LANG", "en")
            .env("NO_COLOR", "1")
            .stdin(std::process::Stdio::null())
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
    let checks_02 =
        state.split("[exercises.02-norm]").nth(1).and_then(|s| s.lines().find(|l| l.starts_with("checks"))).unwrap();
    assert_eq!(checks_02, "checks = 17", "{state}");
    course.tutor(&["list"]).expect(0).shows("2/3 done");
}

#[test]
fn a_missing_or_old_cargo_is_named() {
    let course = Course::new("toolchain");
    // No cargo at all.
    let empty_bin = course.root.join("empty-bin");
    std::fs::create_dir_all(&empty_bin).unwrap();
    course
        .tutor_with(&["check", "02"], |c| {
            c.env("PATH", &empty_bin);
        })
        .expect(2)
        .shows("cargo was not found on PATH")
        .shows("rustup");

    // A cargo that is too old.
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
