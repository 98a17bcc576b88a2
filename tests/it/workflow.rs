//! The learner's whole workflow through the built binary: init, the check loop, reset, watch
//! (on a real pseudo-terminal through `script`), doctor and completions.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

use common::pty::{tutor_on_a_terminal, Live};
use common::{Course, Run};

fn tutor_in(dir: &Path, args: &[&str]) -> Run {
    Run::from(
        Command::new(env!("CARGO_BIN_EXE_tutor"))
            .args(args)
            .current_dir(dir)
            .env("TUTOR_LANG", "en")
            .env("NO_COLOR", "1")
            .stdin(Stdio::null())
            .output()
            .unwrap(),
    )
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tutor-flow-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn files_below(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            out.extend(files_below(&path));
        } else {
            out.push(path);
        }
    }
    out
}

/// `tutor watch` on a pseudo-terminal, with the terminal's settings compared before and after.
fn watch_on_a_terminal(dir: &Path) -> Live {
    tutor_on_a_terminal(dir, "watch")
}

#[test]
fn init_then_the_whole_loop() {
    let root = scratch("init");
    let course = root.join("llm-course");

    tutor_in(&root, &["init"]).expect(0).shows("Created the course folder llm-course").shows("tutor watch");
    assert!(
        course.join("exercises/rmsnorm/info.toml").is_file()
            && course.join(".gitignore").is_file()
            && course.join("README.md").is_file()
    );
    // An editor understands the folder: its Cargo.toml makes the exercises one library over the
    // kit, and it compiles (rust-analyzer resolves tutor_kit, ndarray and half the same way).
    assert!(course.join("Cargo.toml").is_file() && course.join(".tutor/editor/rmsnorm/lib.rs").is_file());
    let checked = Command::new("cargo").args(["check", "--quiet"]).current_dir(&course).output().unwrap();
    assert!(checked.status.success(), "cargo check of the course folder: {}", String::from_utf8_lossy(&checked.stderr));
    // No solution on disk before reveal.
    let solution_line = "sum_axis(last) / hidden";
    for file in files_below(&course).into_iter().filter(|f| !f.starts_with(course.join(".tutor/harness/target"))) {
        let text = std::fs::read_to_string(&file).unwrap_or_default();
        assert!(!text.contains(solution_line), "{} holds the solution", file.display());
    }
    // init into a folder with files that is not a course folder refuses and changes nothing.
    let other = root.join("notes");
    std::fs::create_dir_all(&other).unwrap();
    std::fs::write(other.join("todo.txt"), "mine\n").unwrap();
    tutor_in(&root, &["init", "notes"]).expect(2).shows("already has files").shows("--force");
    assert_eq!(std::fs::read_dir(&other).unwrap().count(), 1);
    // init again in the course folder brings it up to date and keeps a learner's file as it is.
    let before = std::fs::read_to_string(course.join("exercises/rmsnorm/02-norm.rs")).unwrap();
    std::fs::write(course.join("exercises/rmsnorm/02-norm.rs"), "// my work\n").unwrap();
    std::fs::remove_file(course.join("README.md")).unwrap();
    tutor_in(&root, &["init"]).expect(0).shows("already has every chapter");
    assert_eq!(std::fs::read_to_string(course.join("exercises/rmsnorm/02-norm.rs")).unwrap(), "// my work\n");
    assert!(course.join("README.md").is_file(), "a missing README is written again");
    std::fs::write(course.join("exercises/rmsnorm/02-norm.rs"), &before).unwrap();

    // The loop, from inside the new folder.
    tutor_in(&course, &["list"]).expect(0).shows(&common::done(0));
    tutor_in(&course, &["check", "02"])
        .expect(1)
        .shows("TODO 2 is not written yet")
        .hides("Building the grading harness");
    std::fs::write(course.join("exercises/rmsnorm/02-norm.rs"), Course::solution("02-norm")).unwrap();
    tutor_in(&course, &["check", "02"]).expect(0).shows("02-norm passes every check");
    tutor_in(&course, &["list"]).expect(0).shows(&common::done(1));

    // reset: the stub back byte for byte, the learner's file kept.
    tutor_in(&course, &["reset", "02"]).expect(2).shows("--yes");
    tutor_in(&course, &["reset", "02", "--yes"])
        .expect(0)
        .shows("is the original stub again")
        .shows(".tutor/backups/02-norm-");
    assert_eq!(
        std::fs::read(course.join("exercises/rmsnorm/02-norm.rs")).unwrap(),
        Course::stub("02-norm").into_bytes()
    );
    let backups = files_below(&course.join(".tutor/backups"));
    assert_eq!(backups.len(), 1);
    assert_eq!(std::fs::read_to_string(&backups[0]).unwrap(), Course::solution("02-norm"));
    tutor_in(&course, &["list"]).expect(0).shows(&common::done(0));

    // reveal on a terminal: anything but the confirmation word shows nothing of the solution.
    let solution_code = "let mean_square = (x32.mapv";
    for (answer, shown) in [("no thanks", false), ("reveal", true)] {
        let mut command = Command::new("script");
        command
            .args(["-qfec", &format!("'{}' reveal 02", env!("CARGO_BIN_EXE_tutor")), "/dev/null"])
            .current_dir(&course)
            .env("TUTOR_LANG", "en")
            .env("NO_COLOR", "1");
        let mut reveal = Live::start(command);
        reveal.wait_for("> ", 0, Duration::from_secs(20));
        reveal.send(&format!("{answer}\r"));
        let (code, output) = reveal.finish(Duration::from_secs(20));
        assert_eq!(code, 0, "{output}");
        assert!(output.contains("STOP HERE"), "{output}");
        assert_eq!(output.contains(solution_code), shown, "answer {answer:?}:\n{output}");
    }

    // doctor and completions.
    tutor_in(&course, &["doctor"])
        .expect(0)
        .shows("✓ ok  toolchain: cargo")
        .shows("harness dependencies: built")
        .shows("confinement: ")
        .shows("Everything is ready");
    std::fs::remove_file(course.join("exercises/rmsnorm/03-forward.rs")).unwrap();
    tutor_in(&course, &["doctor"])
        .expect(1)
        .shows("✗ problem  exercise files: 03-forward")
        .shows("tutor reset 03-forward");
    tutor_in(&course, &["reset", "3", "--yes"]).expect(0);
    for shell in ["bash", "zsh", "fish"] {
        tutor_in(&course, &["completions", shell]).expect(0).shows("watch").shows("reveal");
    }

    // watch on a terminal: checks at once, re-checks on save, moves on with `n` after a pass,
    // quits on `q`, and leaves the terminal as it found it (tests/it/watch.rs tests the rest).
    let mut watch = watch_on_a_terminal(&course);
    let at = watch.wait_for("Watching exercises/rmsnorm/01-weight.rs", 0, Duration::from_secs(60));
    // An editor that saves by writing a temporary file and renaming it over the original.
    let temporary = course.join("exercises/rmsnorm/.01-weight.rs.swp");
    std::fs::write(&temporary, Course::solution("01-weight")).unwrap();
    std::fs::rename(&temporary, course.join("exercises/rmsnorm/01-weight.rs")).unwrap();
    let at = watch.wait_for("01-weight passes every check", at, Duration::from_secs(20));
    let at = watch.wait_for("Press n for the next exercise, 02-norm.", at, Duration::from_secs(20));
    watch.send("n");
    let at = watch.wait_for("Watching exercises/rmsnorm/02-norm.rs", at, Duration::from_secs(20));
    watch.send("h");
    let at = watch.wait_for("Hint 1/3 · 02-norm", at, Duration::from_secs(10));
    watch.wait_for("Watching exercises/rmsnorm/02-norm.rs", at, Duration::from_secs(10));
    watch.send("q");
    let (code, output) = watch.finish(Duration::from_secs(20));
    assert_eq!(code, 0, "{output}");
    assert!(output.contains("Stopped watching") && output.contains("TERMINAL-RESTORED"), "{output}");

    // Ctrl-C in raw mode quits cleanly too.
    let mut watch = watch_on_a_terminal(&course);
    watch.wait_for("Watching exercises/rmsnorm/02-norm.rs", 0, Duration::from_secs(60));
    watch.send("\u{3}");
    let (_, output) = watch.finish(Duration::from_secs(20));
    assert!(output.contains("TERMINAL-RESTORED"), "{output}");

    // Without a terminal (or with --manual) Enter re-checks and `q` quits.
    let mut command = Command::new(env!("CARGO_BIN_EXE_tutor"));
    command.args(["watch", "--manual"]).current_dir(&course).env("TUTOR_LANG", "en").env("NO_COLOR", "1");
    let mut manual = Live::start(command);
    let at = manual.wait_for("Press Enter to re-check exercises/rmsnorm/02-norm.rs", 0, Duration::from_secs(60));
    manual.send("\n");
    manual.wait_for("Checking 02-norm", at, Duration::from_secs(30));
    manual.send("q\n");
    let (code, output) = manual.finish(Duration::from_secs(20));
    assert_eq!(code, 0, "{output}");

    std::fs::remove_dir_all(&root).unwrap();
}

#[test]
fn a_long_lesson_is_rendered_and_paged_on_a_terminal_only() {
    let course = Course::new("lesson-pager");
    // On a terminal 10 rows tall, the overview is longer than the screen: it goes to $PAGER.
    let script = format!("stty rows 10 cols 100; '{}' lesson", env!("CARGO_BIN_EXE_tutor"));
    let mut command = Command::new("script");
    command
        .args(["-qfec", &script, "/dev/null"])
        .current_dir(&course.root)
        .env("TUTOR_LANG", "en")
        .env("NO_COLOR", "1")
        .env("PAGER", "sed 's/^/PAGED: /'");
    let (code, output) = Live::start(command).finish(Duration::from_secs(30));
    assert_eq!(code, 0, "{output}");
    assert!(output.contains("PAGED: Why normalise at all"), "{output}");
    // Rendered, not raw: no markdown markers, tables drawn.
    assert!(!output.contains("**") && !output.contains("|---") && output.contains("│"), "{output}");
    // Not a terminal: printed as is, never paged.
    let piped = course.tutor_with(&["lesson"], |c| {
        c.env("PAGER", "sed 's/^/PAGED: /'");
    });
    piped.expect(0).hides("PAGED:").shows("Why normalise at all").hides("## ");
}
