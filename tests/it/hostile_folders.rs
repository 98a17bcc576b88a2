//! Hostile files and folders in a course folder (issue 19), through the built binary: a FIFO,
//! a folder or a device where tutor expects a file, a link where it manages a folder, a path
//! that is not UTF-8. Every command must finish with a plain message: each run has a watchdog
//! that kills it and fails the test when it hangs, instead of a timing assertion.

use crate::common;

use std::io::Read;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use common::{Course, Run};

/// Far more than any of these commands needs on a loaded machine, far less than for ever.
const WATCHDOG: Duration = Duration::from_secs(60);

/// Runs `command` to its end, or kills it after [`WATCHDOG`] and fails: a hang is a failure.
#[track_caller]
fn finishes(mut command: Command, what: &str) -> Run {
    command.stdin(Stdio::null()).stdout(Stdio::piped()).stderr(Stdio::piped());
    let mut child = command.spawn().expect("the tutor binary runs");
    let drain = |pipe: Option<Box<dyn Read + Send>>| {
        std::thread::spawn(move || {
            let mut bytes = Vec::new();
            if let Some(mut pipe) = pipe {
                let _ = pipe.read_to_end(&mut bytes);
            }
            String::from_utf8_lossy(&bytes).into_owned()
        })
    };
    let stdout = drain(child.stdout.take().map(|p| Box::new(p) as Box<dyn Read + Send>));
    let stderr = drain(child.stderr.take().map(|p| Box::new(p) as Box<dyn Read + Send>));
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().expect("waiting for tutor") {
            break status;
        }
        if started.elapsed() > WATCHDOG {
            let _ = child.kill();
            let _ = child.wait();
            panic!("`tutor {what}` hung: killed after {WATCHDOG:?}");
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    Run {
        code: status.code().unwrap_or(-1),
        stdout: stdout.join().unwrap_or_default(),
        stderr: stderr.join().unwrap_or_default(),
    }
}

/// `tutor ARGS` in `course`, under the watchdog.
#[track_caller]
fn tutor(course: &Course, args: &[&str]) -> Run {
    finishes(course.command(args), &args.join(" "))
}

fn make_fifo(path: &Path) {
    let _ = std::fs::remove_file(path);
    let status = Command::new("mkfifo").arg(path).status().expect("mkfifo runs");
    assert!(status.success(), "mkfifo {}", path.display());
}

fn is_fifo(path: &Path) -> bool {
    use std::os::unix::fs::FileTypeExt;
    std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_fifo())
}

const NORM: &str = "exercises/rmsnorm/02-norm.rs";

#[test]
fn a_fifo_as_the_exercise_hangs_no_command() {
    let course = Course::new("fifo-exercise");
    let file = course.root.join(NORM);
    make_fifo(&file);
    tutor(&course, &["reset", "02-norm", "--yes"])
        .expect(2)
        .shows(&format!("{NORM}, the file of exercise 02-norm, is a FIFO (named pipe), not an ordinary file"))
        .hides("backup");
    assert!(is_fifo(&file), "what is not a file is left for the learner to move");
    tutor(&course, &["reveal", "02-norm", "--yes"])
        .expect(0)
        .shows(&format!("{NORM} is a FIFO (named pipe), not an ordinary file: there is no file of yours"));
    // The refused reset held the check lock only while it ran: a check after it goes ahead.
    tutor(&course, &["check", "02"]).expect(1).shows(&format!("{NORM} is a FIFO (named pipe), not an ordinary file"));
    // The watch checks the current exercise first, then waits for a key.
    make_fifo(&course.root.join("exercises/rmsnorm/01-weight.rs"));
    let mut watch = common::pty::tutor_on_a_terminal(&course.root, "watch");
    let at = watch.wait_for("exercises/rmsnorm/01-weight.rs is a FIFO (named pipe), not an ordinary file", 0, WATCHDOG);
    let at = watch.wait_for("Watching exercises/rmsnorm/01-weight.rs", at, WATCHDOG);
    // A reset from the watch's list says so about the exercise, and the watch goes on.
    watch.send("l");
    let at = watch.wait_for("r reset it", at, WATCHDOG);
    watch.send("j");
    let at = watch.wait_for("02-norm", at, WATCHDOG);
    let at = watch.wait_for("r reset it", at, WATCHDOG);
    watch.send("r");
    let at = watch.wait_for("Type `reset` to replace exercises/rmsnorm/02-norm.rs", at, WATCHDOG);
    watch.send("reset\r");
    let at = watch.wait_for("the file of exercise 02-norm, is a FIFO (named pipe)", at, WATCHDOG);
    let at = watch.wait_for("r reset it", at, WATCHDOG);
    // Esc alone (with a key right after it, it would read as Alt and that key).
    watch.send("\x1b");
    watch.wait_for("Watching exercises/rmsnorm/01-weight.rs", at, WATCHDOG);
    watch.send("q");
    let (code, output) = watch.finish(WATCHDOG);
    assert_eq!(code, 0, "{output}");
    // Moved away, the reset brings the stub back.
    std::fs::remove_file(&file).unwrap();
    tutor(&course, &["reset", "02-norm", "--yes"]).expect(0);
    assert_eq!(std::fs::read_to_string(&file).unwrap(), Course::stub("02-norm"));
}

#[test]
fn a_fifo_as_the_progress_file_is_set_aside_by_every_command() {
    let course = Course::new("fifo-state");
    let state = course.root.join(".tutor/state.toml");
    let set_aside =
        "the progress file could not be read (it is a FIFO (named pipe), not an ordinary file); it was kept as";
    for args in [&["list"][..], &["hint", "02"], &["check", "01"], &["doctor"]] {
        make_fifo(&state);
        let run = tutor(&course, args);
        run.shows(set_aside);
        assert!(!is_fifo(&state), "`tutor {}` set the FIFO aside", args.join(" "));
    }
    let kept = std::fs::read_dir(course.root.join(".tutor"))
        .unwrap()
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().starts_with("state.toml.corrupt-") && is_fifo(&e.path()))
        .count();
    assert_eq!(kept, 4, "each FIFO is kept, none deleted");
    // Progress goes on in a fresh file.
    tutor(&course, &["hint", "02"]).expect(0);
    assert!(course.state().contains("hints = "), "{}", course.state());
}

#[test]
fn fifos_as_the_lock_files_are_refused_at_once() {
    let course = Course::new("fifo-locks");
    std::fs::create_dir_all(course.root.join(".tutor")).unwrap();
    let check_lock = course.root.join(".tutor/check.lock");
    make_fifo(&check_lock);
    tutor(&course, &["check", "01"])
        .expect(2)
        .shows(".tutor/check.lock is a FIFO (named pipe), not an ordinary file")
        .shows("Remove it or move it away");
    std::fs::remove_file(&check_lock).unwrap();
    let state_lock = course.root.join(".tutor/state.lock");
    make_fifo(&state_lock);
    tutor(&course, &["hint", "02"]).expect(2).shows(".tutor/state.lock is a FIFO (named pipe), not an ordinary file");
    tutor(&course, &["check", "01"]).expect(2).shows(".tutor/state.lock is a FIFO (named pipe), not an ordinary file");
    std::fs::remove_file(&state_lock).unwrap();
    tutor(&course, &["hint", "02"]).expect(0);
    // tutor's record of the last build is read before a build: a FIFO there is replaced unread.
    let record = course.root.join(".tutor/builds/ex-rmsnorm-01-weight.json");
    std::fs::create_dir_all(record.parent().unwrap()).unwrap();
    make_fifo(&record);
    tutor(&course, &["check", "01"]).expect(1).shows("TODO 1 is not written yet");
    assert!(!is_fifo(&record));
}

#[test]
fn a_link_to_a_device_as_the_exercise_is_never_read() {
    let course = Course::new("dev-zero");
    let file = course.root.join(NORM);
    std::fs::remove_file(&file).unwrap();
    std::os::unix::fs::symlink("/dev/zero", &file).unwrap();
    tutor(&course, &["reveal", "02-norm", "--yes"])
        .expect(0)
        .shows(&format!("{NORM} is a symbolic link, not an ordinary file: there is no file of yours"));
    tutor(&course, &["reset", "02-norm", "--yes"]).expect(2).shows("the file of exercise 02-norm, is a symbolic link");
    tutor(&course, &["check", "02"]).expect(1).shows(&format!("{NORM} is a symbolic link, not an ordinary file"));
    tutor(&course, &["doctor"]).shows("02-norm");
}

#[test]
fn a_folder_as_the_exercise_is_named_as_such() {
    let course = Course::new("folder-exercise");
    let file = course.root.join(NORM);
    std::fs::remove_file(&file).unwrap();
    std::fs::create_dir(&file).unwrap();
    std::fs::write(file.join("notes.txt"), "mine").unwrap();
    tutor(&course, &["reset", "02-norm", "--yes"])
        .expect(2)
        .shows(&format!("{NORM}, the file of exercise 02-norm, is a folder, not an ordinary file"))
        .hides("writing");
    tutor(&course, &["reveal", "02-norm", "--yes"])
        .expect(0)
        .shows(&format!("{NORM} is a folder, not an ordinary file"));
    assert_eq!(std::fs::read_to_string(file.join("notes.txt")).unwrap(), "mine", "the folder is left as it was");
}

#[test]
fn a_linked_harness_folder_is_refused_and_its_target_kept() {
    let course = Course::new("linked-harness");
    let outside = std::env::temp_dir().join(format!("tutor-e2e-outside-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&outside);
    std::fs::create_dir_all(outside.join("sub")).unwrap();
    std::fs::write(outside.join("precious.txt"), "not tutor's").unwrap();
    std::fs::write(outside.join("sub/deeper.txt"), "not tutor's either").unwrap();
    let harness = course.root.join(".tutor/harness");
    std::fs::remove_dir_all(&harness).unwrap();
    std::os::unix::fs::symlink(&outside, &harness).unwrap();
    tutor(&course, &["check", "01"])
        .expect(2)
        .shows(".tutor/harness is a symbolic link (to ")
        .shows("the folder it points to stays as it is");
    assert_eq!(std::fs::read_to_string(outside.join("precious.txt")).unwrap(), "not tutor's");
    assert_eq!(std::fs::read_to_string(outside.join("sub/deeper.txt")).unwrap(), "not tutor's either");
    assert_eq!(std::fs::read_dir(&outside).unwrap().count(), 2, "nothing was written there");
    // The whole private folder as a link is refused the same way.
    std::fs::remove_file(&harness).unwrap();
    let private = course.root.join(".tutor");
    std::fs::rename(&private, outside.join("private")).unwrap();
    std::os::unix::fs::symlink(outside.join("private"), &private).unwrap();
    tutor(&course, &["check", "01"]).expect(2).shows(".tutor is a symbolic link (to ");
    tutor(&course, &["hint", "02"]).expect(2).shows(".tutor is a symbolic link (to ");
    tutor(&course, &["doctor"]).expect(1).shows(".tutor is a symbolic link (to ");
    assert!(!outside.join("private/state.toml").exists(), "no progress was written through the link");
    assert_eq!(std::fs::read_to_string(outside.join("precious.txt")).unwrap(), "not tutor's");
    std::fs::remove_dir_all(&outside).unwrap();
}

#[test]
fn a_course_folder_whose_path_is_not_utf8_is_told_to_move() {
    use std::os::unix::ffi::OsStrExt;
    let base = std::env::temp_dir().join(format!("tutor-e2e-not-utf8-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&base);
    // "café" in Latin-1: a valid name on Linux, not UTF-8.
    let folder = base.join(std::ffi::OsStr::from_bytes(b"caf\xe9"));
    std::fs::create_dir_all(&folder).unwrap();
    let moved = "The course folder's path is not valid UTF-8";
    let mut init = Command::new(env!("CARGO_BIN_EXE_tutor"));
    init.args(["init", "--no-build", "."]).current_dir(&folder).env("TUTOR_LANG", "both").env("NO_COLOR", "1");
    let run = finishes(init, "init");
    run.expect(2).shows(moved).shows("课程文件夹的路径不是有效的 UTF-8").hides("Usage");
    assert_eq!(std::fs::read_dir(&folder).unwrap().count(), 0, "nothing was written");
    // A course moved there after it was made.
    let course = Course::new("latin1");
    let inside = folder.join("course");
    let copied = Command::new("cp").arg("-a").arg(&course.root).arg(&inside).status().unwrap();
    assert!(copied.success());
    let mut check = course.command(&["check", "01"]);
    check.current_dir(&inside);
    finishes(check, "check").expect(2).shows(moved).hides("Usage");
    let mut list = course.command(&["list"]);
    list.current_dir(&inside);
    finishes(list, "list").expect(0).shows("01-weight");
    std::fs::remove_dir_all(&base).unwrap();
}

#[test]
fn bidi_controls_in_learner_text_are_shown_not_obeyed() {
    let course = Course::new("bidi");
    let fixture = common::fixtures::HOSTILE
        .iter()
        .find(|f| f.name == "bidi-output")
        .expect("tests/hostile/rmsnorm/bidi-output.rs");
    course.write_exercise("02-norm", fixture.source);
    let deceptive = ['\u{202e}', '\u{202c}', '\u{2066}', '\u{2069}', '\u{200b}'];
    let run = tutor(&course, &["check", "02"]);
    run.expect(1).shows("What your code printed").shows("\\u{202e}LIAF\\u{202c}").shows("pa\\u{200b}ss");
    assert!(!run.all().contains(deceptive), "a bidi control reached the terminal:\n{}", run.all());
    // The learner's own lines in reveal's comparison.
    course.write_exercise("02-norm", &format!("// \u{202e}reversed\u{202c}\n{}", Course::stub("02-norm")));
    let run = tutor(&course, &["reveal", "02-norm", "--yes"]);
    run.expect(0).shows("-// \\u{202e}reversed\\u{202c}");
    assert!(!run.all().contains(deceptive), "a bidi control reached the terminal:\n{}", run.all());
}

#[test]
fn init_over_fifos_keeps_them_and_finishes() {
    let folder = std::env::temp_dir().join(format!("tutor-e2e-init-fifos-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&folder);
    std::fs::create_dir_all(&folder).unwrap();
    for name in ["Cargo.toml", "README.md"] {
        make_fifo(&folder.join(name));
    }
    let mut init = Command::new(env!("CARGO_BIN_EXE_tutor"));
    init.args(["init", "--force", "--no-build", "."]).current_dir(&folder).env("TUTOR_LANG", "en").env("NO_COLOR", "1");
    finishes(init, "init --force")
        .expect(0)
        .shows("Kept your existing Cargo.toml")
        .shows("Kept your existing README.md");
    assert!(is_fifo(&folder.join("Cargo.toml")) && is_fifo(&folder.join("README.md")), "a learner's things are kept");
    assert!(folder.join(NORM).is_file());
    std::fs::remove_dir_all(&folder).unwrap();
}
