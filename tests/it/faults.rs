//! Small faults through the built binary: a huge or hand-edited progress file, leftovers of a
//! killed tutor, a reset racing a check, a full disk, and what `tutor doctor` says about them.
//! None of these needs the harness built, so they stay quick.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use common::{Course, Run};

/// The pid of a process that has ended (and been waited for), so no process has it.
fn dead_pid() -> u32 {
    let mut child = Command::new("true").spawn().unwrap();
    let pid = child.id();
    child.wait().unwrap();
    pid
}

#[test]
fn a_hand_edited_maximum_hint_count_does_not_crash() {
    let course = Course::new("faults-max");
    std::fs::create_dir_all(course.root.join(".tutor")).unwrap();
    std::fs::write(
        course.root.join(".tutor/state.toml"),
        "version = 1\n[exercises.02-norm]\nchecks = 4294967295\nhints = 4294967295\n",
    )
    .unwrap();
    course.tutor(&["hint", "02"]).expect(0).shows("Hint 3/3").hides("panicked").hides("internal error");
    course.tutor(&["list"]).expect(0).shows("02-norm");
    assert!(course.state().contains("hints = 4294967295"), "{}", course.state());
}

#[test]
fn a_progress_file_over_one_mebibyte_is_set_aside_with_the_reason() {
    let course = Course::new("faults-large");
    std::fs::create_dir_all(course.root.join(".tutor")).unwrap();
    let large = format!("version = 1\n# {}\n", "x".repeat(1 << 20));
    std::fs::write(course.root.join(".tutor/state.toml"), &large).unwrap();
    course
        .tutor_with(&["list"], |c| {
            c.env("TUTOR_LANG", "both");
        })
        .expect(0)
        .shows("the file is larger than 1 MiB")
        .shows("文件大于 1 MiB")
        .shows(&common::done(0));
    let backups: Vec<PathBuf> = std::fs::read_dir(course.root.join(".tutor"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.file_name().unwrap().to_string_lossy().starts_with("state.toml.corrupt-"))
        .collect();
    assert_eq!(backups.len(), 1, "{backups:?}");
    assert_eq!(std::fs::read(&backups[0]).unwrap().len(), large.len());
}

#[test]
fn temporaries_of_a_killed_tutor_are_removed_on_the_next_run() {
    let course = Course::new("faults-leftovers");
    std::fs::create_dir_all(course.root.join(".tutor")).unwrap();
    let dead = dead_pid();
    let state_leftover = course.root.join(format!(".tutor/state.toml.tmp-{dead}"));
    let exercise_leftover = course.root.join(format!("exercises/rmsnorm/.02-norm.rs.tmp-{dead}"));
    std::fs::write(&state_leftover, "version = 1\n[exer").unwrap();
    std::fs::write(&exercise_leftover, "fn half(").unwrap();
    // The learner's edit, so that reset really writes into exercises/.
    course.write_exercise("02-norm", "// my attempt\n");
    course.tutor(&["reset", "02", "--yes"]).expect(0);
    assert!(!state_leftover.exists(), "the progress temporary is removed");
    assert!(!exercise_leftover.exists(), "the exercise temporary is removed");
    assert_eq!(
        std::fs::read_to_string(course.root.join("exercises/rmsnorm/02-norm.rs")).unwrap(),
        Course::stub("02-norm")
    );
}

#[test]
fn reset_waits_for_a_running_check() {
    let course = Course::new("faults-reset-lock");
    std::fs::create_dir_all(course.root.join(".tutor")).unwrap();
    course.write_exercise("02-norm", "// my passing attempt\n");
    // This test plays the running check: it holds the lock `tutor check` holds.
    let lock = std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(course.root.join(".tutor/check.lock"))
        .unwrap();
    lock.lock().unwrap();

    let mut reset = Command::new(env!("CARGO_BIN_EXE_tutor"))
        .args(["reset", "02", "--yes"])
        .current_dir(&course.root)
        .env("TUTOR_LANG", "en")
        .env("NO_COLOR", "1")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(Duration::from_secs(1));
    assert!(reset.try_wait().unwrap().is_none(), "reset finished while a check held the lock");
    assert_eq!(
        std::fs::read_to_string(course.root.join("exercises/rmsnorm/02-norm.rs")).unwrap(),
        "// my passing attempt\n",
        "reset touched the file while a check held the lock"
    );

    drop(lock);
    let started = Instant::now();
    while reset.try_wait().unwrap().is_none() {
        assert!(started.elapsed() < Duration::from_secs(30), "reset did not finish after the lock was released");
        std::thread::sleep(Duration::from_millis(20));
    }
    let run = Run::from(reset.wait_with_output().unwrap());
    run.expect(0).shows("waiting for it to finish").shows("is the original stub again");
    assert_eq!(
        std::fs::read_to_string(course.root.join("exercises/rmsnorm/02-norm.rs")).unwrap(),
        Course::stub("02-norm")
    );
    assert!(course.state().contains("not-started"), "{}", course.state());
}

#[cfg(target_os = "linux")]
#[test]
fn a_full_disk_is_named_with_its_file_and_exits_2() {
    let course = Course::new("faults-full");
    std::fs::create_dir_all(course.root.join(".tutor")).unwrap();
    // `exec` keeps the shell's pid, so the temporary file tutor writes its progress through is
    // known in advance: make it /dev/full, which answers every write with ENOSPC.
    let run = Run::from(
        Command::new("sh")
            .arg("-c")
            .arg(r#"ln -s /dev/full ".tutor/state.toml.tmp-$$" && exec "$0" hint 02"#)
            .arg(env!("CARGO_BIN_EXE_tutor"))
            .current_dir(&course.root)
            .env("TUTOR_LANG", "both")
            .env("NO_COLOR", "1")
            // Wide: the sentences looked for stay on one line (errors wrap to the width).
            .env("COLUMNS", "1000")
            .stdin(Stdio::null())
            .output()
            .unwrap(),
    );
    run.expect(2)
        .shows("the disk is full: could not write .tutor/state.toml.")
        .shows("磁盘已满：无法写入 .tutor/state.toml")
        .shows("not a problem in your code")
        .hides("os error")
        .hides("tmp-");
}

/// Runs `tutor ARGS` in `dir` as an ordinary user (nobody) when the tests run as root, for
/// whom permissions do not stop writes.
#[cfg(unix)]
fn tutor_unprivileged(dir: &Path, args: &[&str]) -> Run {
    use std::os::unix::process::CommandExt;
    let mut command = Command::new(env!("CARGO_BIN_EXE_tutor"));
    command.args(args).current_dir(dir).env("TUTOR_LANG", "en").env("NO_COLOR", "1").stdin(Stdio::null());
    // SAFETY: geteuid has no preconditions and cannot fail.
    if unsafe { libc::geteuid() } == 0 {
        command.uid(65534).gid(65534);
    }
    Run::from(command.output().unwrap())
}

#[cfg(unix)]
#[test]
fn a_read_only_progress_folder_is_named_and_exits_2() {
    use std::os::unix::fs::PermissionsExt;
    let course = Course::new("faults-denied");
    let private = course.root.join(".tutor");
    std::fs::create_dir_all(&private).unwrap();
    // The progress lock may be taken; only the state cannot be written.
    std::fs::write(private.join("state.lock"), "").unwrap();
    std::fs::set_permissions(private.join("state.lock"), std::fs::Permissions::from_mode(0o666)).unwrap();
    std::fs::set_permissions(&private, std::fs::Permissions::from_mode(0o555)).unwrap();
    let run = tutor_unprivileged(&course.root, &["hint", "02"]);
    std::fs::set_permissions(&private, std::fs::Permissions::from_mode(0o755)).unwrap();
    run.expect(2).shows("permission denied: could not write .tutor/state.toml.").hides("os error");
}

#[test]
fn doctor_reports_a_corrupt_progress_file_as_a_problem_on_one_line() {
    let course = Course::new("faults-doctor-state");
    std::fs::create_dir_all(course.root.join(".tutor")).unwrap();
    std::fs::write(course.root.join(".tutor/state.toml"), "[[[ not toml").unwrap();
    let run = course.tutor_with(&["doctor"], |c| {
        c.env("TUTOR_LANG", "both");
    });
    run.expect(1);
    let lines: Vec<&str> = run.stdout.lines().filter(|l| l.contains("进度文件 / progress file")).collect();
    assert_eq!(lines.len(), 1, "{}", run.stdout);
    let line = lines[0];
    assert!(line.starts_with("✗"), "{line}");
    assert!(line.contains("进度文件无法读取") && line.contains("could not be read"), "{line}");
    assert!(line.contains("state.toml.corrupt-"), "{line}");
    assert!(
        !run.stdout.contains("\n进度文件无法读取") && !run.stdout.contains("\nthe progress file"),
        "{}",
        run.stdout
    );
}

#[cfg(target_os = "linux")]
#[test]
fn doctor_reports_a_workspace_path_that_is_not_utf8() {
    use std::os::unix::ffi::OsStrExt;
    let parent = std::env::temp_dir().join(format!("tutor-e2e-faults-utf8-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&parent);
    let root = parent.join(std::ffi::OsStr::from_bytes(b"caf\xe9-course"));
    std::fs::create_dir_all(&root).unwrap();
    let copied = Command::new("cp").arg("-r").arg(common::repo().join("exercises")).arg(&root).status().unwrap();
    assert!(copied.success());
    let course = Course { root: parent };
    let run = Run::from(
        Command::new(env!("CARGO_BIN_EXE_tutor"))
            .arg("doctor")
            .current_dir(&root)
            .env("TUTOR_LANG", "en")
            .env("NO_COLOR", "1")
            .stdin(Stdio::null())
            .output()
            .unwrap(),
    );
    run.expect(1).shows("the path is not valid UTF-8").shows("fix: move the course to a short path");
    let line = run.stdout.lines().find(|l| l.contains("not valid UTF-8")).unwrap();
    assert!(line.starts_with("✗ problem  workspace:"), "{line}");
    drop(course);
}

#[test]
fn doctor_reports_an_over_long_workspace_path() {
    let parent = std::env::temp_dir().join(format!("tutor-e2e-faults-long-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&parent);
    let mut root = parent.clone();
    while root.as_os_str().len() <= 3000 {
        root.push("d".repeat(200));
    }
    std::fs::create_dir_all(&root).unwrap();
    let copied = Command::new("cp").arg("-r").arg(common::repo().join("exercises")).arg(&root).status().unwrap();
    assert!(copied.success());
    let course = Course { root: parent };
    let run = Run::from(
        Command::new(env!("CARGO_BIN_EXE_tutor"))
            .args(["--workspace"])
            .arg(&root)
            .arg("doctor")
            .env("TUTOR_LANG", "en")
            .env("NO_COLOR", "1")
            .stdin(Stdio::null())
            .output()
            .unwrap(),
    );
    run.expect(1).shows(&format!("the path is {} bytes long", root.as_os_str().len())).shows("fix: move the course");
    drop(course);
}
