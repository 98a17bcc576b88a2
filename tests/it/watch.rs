//! `tutor watch` on a real pseudo-terminal (util-linux `script`): the screen cleared before each
//! run with the progress bar at the bottom, waiting for `n` after a pass, `p`, the interactive
//! list (moving, Enter, a reset after a typed confirmation), `q` and Ctrl-C cancelling a check
//! that would run for 30 s, and the end of the course announced once.
//!
//! The tests share one course folder, made by `tutor init` under cargo's test scratch folder and
//! kept between runs so that the grading harness stays built; they take turns, and each starts
//! from the stubs and no progress.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::{Mutex, MutexGuard};
use std::time::{Duration, Instant};

use common::pty::{descendants, group_members, stat, tutor_on_a_terminal, Live, CLEAR, HIDE_CURSOR, SHOW_CURSOR};
use common::Course;

/// Generous for a shared 2-core machine: a warm check takes about 0.3 s.
const CHECK: Duration = Duration::from_secs(60);
const KEY: Duration = Duration::from_secs(20);

static TURN: Mutex<()> = Mutex::new(());

/// The shared course folder, reset to the stubs and no progress, held for one test.
struct Shared {
    root: PathBuf,
    _turn: MutexGuard<'static, ()>,
}

impl Shared {
    fn take() -> Shared {
        let turn = TURN.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        let root = Path::new(env!("CARGO_TARGET_TMPDIR")).join("watch-course");
        // A folder left by an older build may lack a chapter added since: made afresh then.
        let complete = common::courses().iter().all(|c| root.join(format!("exercises/{c}/info.toml")).is_file());
        if !complete {
            let _ = std::fs::remove_dir_all(&root);
            let made = Command::new(env!("CARGO_BIN_EXE_tutor"))
                .arg("init")
                .arg(&root)
                .env("TUTOR_LANG", "en")
                .stdin(Stdio::null())
                .output()
                .unwrap();
            assert!(made.status.success(), "tutor init: {}", String::from_utf8_lossy(&made.stderr));
        }
        // Every course's stubs back (other courses' exercises too: the tests pass them).
        for course in common::courses() {
            for (id, _) in common::exercises_of(&course) {
                let stub = common::repo().join(format!("exercises/{course}/{id}.rs"));
                std::fs::copy(stub, root.join(format!("exercises/{course}/{id}.rs"))).unwrap();
            }
        }
        let _ = std::fs::remove_file(root.join(".tutor/state.toml"));
        let _ = std::fs::remove_dir_all(root.join(".tutor/backups"));
        Shared { root, _turn: turn }
    }

    fn file(&self, id: &str) -> PathBuf {
        self.root.join(format!("exercises/rmsnorm/{id}.rs"))
    }

    /// Saves an exercise the way many editors do: a new file renamed over the old one.
    fn save(&self, id: &str, text: &str) {
        let temporary = self.root.join(format!("exercises/rmsnorm/.{id}.rs.swp"));
        std::fs::write(&temporary, text).unwrap();
        std::fs::rename(&temporary, self.file(id)).unwrap();
    }

    /// Writes the solution of `course/id` and checks it with `tutor check`, so that it counts as
    /// passed.
    fn pass(&self, course: &str, id: &str) {
        let solution = common::repo().join(format!("solutions/{course}/{id}.rs"));
        std::fs::copy(solution, self.root.join(format!("exercises/{course}/{id}.rs"))).unwrap();
        let checked = Command::new(env!("CARGO_BIN_EXE_tutor"))
            .args(["check", &format!("{course}/{id}")])
            .current_dir(&self.root)
            .env("TUTOR_LANG", "en")
            .env("NO_COLOR", "1")
            .stdin(Stdio::null())
            .output()
            .unwrap();
        assert!(checked.status.success(), "{}", String::from_utf8_lossy(&checked.stdout));
    }

    fn watch(&self, args: &str) -> Live {
        tutor_on_a_terminal(&self.root, &format!("watch {args}"))
    }
}

/// What is on the screen now: everything after the last clear.
fn screen(output: &str) -> &str {
    output.rfind(CLEAR).map_or(output, |at| &output[at + CLEAR.len()..])
}

/// Quits with `q` and checks the ending: exit code 0, goodbye, terminal settings and cursor back.
#[track_caller]
fn quit(mut watch: Live) -> String {
    watch.send("q");
    let (code, output) = watch.finish(KEY);
    assert_eq!(code, 0, "{output}");
    assert!(output.contains("Stopped watching") && output.contains("TERMINAL-RESTORED"), "{output}");
    assert!(output.rfind(SHOW_CURSOR) > output.rfind(HIDE_CURSOR), "the cursor stayed hidden:\n{output}");
    output
}

#[test]
fn the_screen_is_cleared_before_each_run_and_the_progress_bar_stays_at_the_bottom() {
    let course = Shared::take();
    std::fs::write(course.file("01-weight"), Course::solution("01-weight")).unwrap();
    let mut watch = course.watch("");
    let at = watch.wait_for("01-weight passes every check", 0, CHECK);
    watch.wait_for("Watching exercises/rmsnorm/01-weight.rs", at, KEY);
    let output = watch.seen().to_string();
    // Cleared before the run, then the status line while cargo builds and while the cases run.
    let header = output.find("Checking 01-weight").unwrap();
    assert!(output[..header].contains(CLEAR), "not cleared before the run:\n{output}");
    let compiling = output.find("compiling exercises/rmsnorm/01-weight.rs").expect("a compiling status");
    let running = output.find("running the checks").expect("a running status");
    assert!(header < compiling && compiling < running, "{output}");
    // The last screen ends with the bar and the keys.
    let last = screen(&output);
    // The bar is 24 cells, filled in proportion.
    let n = common::total_exercises();
    let drawn = format!(" [{}{}] {}", "#".repeat(24 / n), "-".repeat(24 - 24 / n), common::done(1));
    let bar = last.find(&drawn).unwrap_or_else(|| panic!("no {drawn:?} in\n{last}"));
    assert!(last.find("01-weight passes every check").is_some_and(|verdict| verdict < bar), "{last}");
    // The bar, then the keys (wrapped between items to the terminal's width: one or two lines).
    assert!((2..=3).contains(&last[bar..].lines().count()) && last[bar..].contains("c check · h hint"), "{last}");

    // `c` checks again, on a cleared screen; the bar is drawn again under the new report.
    let clears = output.matches(CLEAR).count();
    watch.send("c");
    let at = watch.wait_for("Checking 01-weight", output.len(), KEY);
    let at = watch.wait_for("01-weight passes every check", at, CHECK);
    watch.wait_for(&common::done(1), at, KEY);
    assert!(watch.seen().matches(CLEAR).count() > clears);

    // A key redraws the screen too: the hint under the report, then the summary and the verdict
    // (which stay on screen however long the report and the notes), the bar still last.
    let before = watch.seen().len();
    watch.send("h");
    let at = watch.wait_for("Hint 1/3 · 01-weight", before, KEY);
    watch.wait_for("Watching exercises/rmsnorm/01-weight.rs", at, KEY);
    let last = screen(watch.seen()).to_string();
    let (report, hint) = (last.find("Parameter contract"), last.find("Hint 1/3"));
    let (verdict, bar) = (last.find("passes every check"), last.find(&common::done(1)));
    assert!(report < hint && hint < verdict && verdict < bar && report.is_some(), "{last}");
    quit(watch);
}

#[test]
fn after_a_pass_the_watch_waits_for_n_and_p_goes_back() {
    let course = Shared::take();
    std::fs::write(course.file("01-weight"), Course::solution("01-weight")).unwrap();
    let mut watch = course.watch("");
    let at = watch.wait_for("01-weight passes every check", 0, CHECK);
    let at = watch.wait_for("Press n for the next exercise, 02-norm.", at, KEY);
    let now = watch.collect_for(Duration::from_millis(1500));
    assert!(!watch.seen()[at..now].contains("Checking 02-norm"), "moved on without `n`:\n{}", watch.seen());

    watch.send("n");
    let at = watch.wait_for("Checking 02-norm", now, KEY);
    let at = watch.wait_for("cases pass · next: press `h` for a hint", at, CHECK);
    let at = watch.wait_for("Watching exercises/rmsnorm/02-norm.rs", at, KEY);
    watch.send("p");
    let at = watch.wait_for("Checking 01-weight", at, KEY);
    let at = watch.wait_for("01-weight passes every check", at, CHECK);
    let at = watch.wait_for("Watching exercises/rmsnorm/01-weight.rs", at, KEY);
    // Before the first exercise there is nothing.
    watch.send("p");
    watch.wait_for("01-weight is the first exercise.", at, KEY);
    quit(watch);

    // With --auto-advance it moves on by itself, saying why at the top of the next run.
    std::fs::remove_file(course.root.join(".tutor/state.toml")).unwrap();
    let mut watch = course.watch("--auto-advance");
    let at = watch.wait_for("On to 02-norm.", 0, CHECK);
    let at = watch.wait_for("Checking 02-norm", at, KEY);
    watch.wait_for("cases pass · next: press `h` for a hint", at, CHECK);
    let last = screen(watch.seen()).to_string();
    assert!(last.starts_with("01-weight passes every check"), "{last}");

    // Another way out: SIGTERM to tutor (script → shell → tutor) gives the terminal back too.
    let tutor = descendants(watch.pid()).into_iter().find(|&(_, depth)| depth == 2).expect("tutor runs").0;
    let killed = Command::new("kill").args(["-TERM", &tutor.to_string()]).status().unwrap();
    assert!(killed.success());
    let (_, output) = watch.finish(KEY);
    assert!(output.contains("TERMINAL-RESTORED"), "{output}");
    assert!(output.rfind(SHOW_CURSOR) > output.rfind(HIDE_CURSOR), "the cursor stayed hidden:\n{output}");
}

#[test]
fn the_list_moves_watches_another_exercise_and_resets_after_a_typed_confirmation() {
    let course = Shared::take();
    let mine = format!("{}\n// my attempt\n", Course::stub("02-norm"));
    std::fs::write(course.file("02-norm"), &mine).unwrap();
    let mut watch = course.watch("");
    let at = watch.wait_for("cases pass · next: press `h` for a hint", 0, CHECK);
    let at = watch.wait_for("Watching exercises/rmsnorm/01-weight.rs", at, KEY);

    // The cursor starts on the watched exercise; arrows and j/k move it.
    watch.send("l");
    let at = watch.wait_for(">✗ 01-weight", at, KEY);
    watch.send("j");
    let at = watch.wait_for(">· 02-norm", at, KEY);
    watch.send("\x1b[B");
    let at = watch.wait_for(">· 03-forward", at, KEY);
    watch.send("\x1b[A");
    let at = watch.wait_for(">· 02-norm", at, KEY);
    // The keys are drawn under the list, after the rows of the same redraw.
    let at = watch.wait_for("Enter watch · r reset it", at, KEY);
    // End and Home go to the last exercise and the first; a page down and a page up come back.
    watch.send("\x1b[F");
    let at = watch.wait_for(">· 06-backward", at, KEY);
    watch.send("\x1b[H");
    let at = watch.wait_for(">✗ 01-weight", at, KEY);
    watch.send("\x1b[6~");
    watch.send("\x1b[5~");
    let at = watch.wait_for(">✗ 01-weight", at, KEY);
    watch.send("j");
    let at = watch.wait_for(">· 02-norm", at, KEY);
    // Enter watches it.
    watch.send("\r");
    let at = watch.wait_for("Checking 02-norm", at, KEY);
    let at = watch.wait_for("cases pass · next: press `h` for a hint", at, CHECK);
    let at = watch.wait_for("Watching exercises/rmsnorm/02-norm.rs", at, KEY);

    // `r` asks for the word; anything else changes nothing.
    watch.send("l");
    let at = watch.wait_for(">✗ 02-norm", at, KEY);
    watch.send("r");
    let at = watch.wait_for("Type `reset` to replace exercises/rmsnorm/02-norm.rs", at, KEY);
    watch.send("nope\r");
    let at = watch.wait_for("Nothing changed.", at, KEY);
    assert_eq!(std::fs::read_to_string(course.file("02-norm")).unwrap(), mine);
    // The word resets it, with `tutor reset`'s backup.
    watch.send("r");
    let at = watch.wait_for("> ", at, KEY);
    watch.send("reset");
    let at = watch.wait_for("> reset", at, KEY);
    watch.send("\r");
    let at = watch.wait_for("exercises/rmsnorm/02-norm.rs is the original stub again", at, KEY);
    assert!(watch.seen()[..at].contains("Your version was kept as .tutor/backups/02-norm-"), "{}", watch.seen());
    assert_eq!(std::fs::read_to_string(course.file("02-norm")).unwrap(), Course::stub("02-norm"));
    let backups: Vec<_> = std::fs::read_dir(course.root.join(".tutor/backups")).unwrap().collect();
    assert_eq!(backups.len(), 1);
    assert_eq!(std::fs::read_to_string(backups[0].as_ref().unwrap().path()).unwrap(), mine);
    // Esc leaves the list; the watched file changed, so it is checked again.
    watch.send("\x1b");
    let at = watch.wait_for("Checking 02-norm", at, KEY);
    watch.wait_for("Watching exercises/rmsnorm/02-norm.rs", at, CHECK);
    quit(watch);
}

/// The group-leading process tutor started for the graded program: a descendant of `script`
/// (script → shell → tutor → program) leading its own process group.
fn graded_program(script: i32, limit: Duration) -> i32 {
    let started = Instant::now();
    loop {
        if let Some((pid, _)) = descendants(script)
            .into_iter()
            .find(|&(pid, depth)| depth >= 3 && stat(pid).is_some_and(|(_, _, group)| group == pid))
        {
            return pid;
        }
        assert!(started.elapsed() < limit, "no graded program appeared");
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn q_or_ctrl_c_cancels_a_running_check_at_once_and_nothing_typed_is_echoed() {
    let course = Shared::take();
    course.pass("rmsnorm", "01-weight");
    let endless = Course::stub("02-norm")
        .replace("todo!(\"TODO 2 is not done yet / TODO 2 尚未完成\")", "loop { std::hint::spin_loop() }");
    assert!(endless.contains("spin_loop"));
    std::fs::write(course.file("02-norm"), endless).unwrap();

    for (name, key) in [("q", "q"), ("Ctrl-C", "\u{3}")] {
        let mut watch = course.watch("--timeout 30");
        let at = watch.wait_for("running the checks", 0, CHECK);
        let program = graded_program(watch.pid(), KEY);
        // Typed during the check: neither echoed nor taken as a command.
        watch.send("xyzzy");
        std::thread::sleep(Duration::from_millis(300));
        assert!(!group_members(program).is_empty(), "the graded program ended by itself");
        let pressed = Instant::now();
        watch.send(key);
        let stopped = watch.wait_for("Stopped watching", at, KEY);
        let said_bye = pressed.elapsed();
        let code = watch.wait(KEY);
        let ended = pressed.elapsed();
        let left = group_members(program);
        let output = watch.seen().to_string();
        println!(
            "{name} during a 30 s check: goodbye after {:.0} ms, process ended after {:.0} ms",
            said_bye.as_secs_f64() * 1000.0,
            ended.as_secs_f64() * 1000.0
        );
        assert_eq!(code, 0, "{output}");
        assert!(left.is_empty(), "the graded program's group {program} still has {left:?}");
        // 0.3 s is the aim; the hard limit leaves room for a busy shared machine.
        assert!(ended < Duration::from_secs(1), "{name} took {ended:?} to end the watch");
        assert!(!output.contains("xyzzy"), "typed text was echoed:\n{output}");
        assert!(!output[..stopped].contains("cases pass"), "a cancelled check showed a report:\n{output}");
        let (_, output) = watch.finish(KEY);
        assert!(output.contains("TERMINAL-RESTORED"), "{output}");
    }
    // The cancelled checks recorded nothing: 02 was never checked to its end.
    assert!(!course.root.join(".tutor/state.toml").is_file() || !read_state(&course).contains("02-norm"));
}

/// Issue 32: `h` after a named mistake shows the hint it points to (not simply the next level);
/// `e` shows the lesson; passing a chapter's last exercise says the chapter is done and names the
/// next one, and `n` across the boundary announces it.
#[test]
fn chapter_boundaries_the_lesson_key_and_the_hint_a_mistake_points_to() {
    let course = Shared::take();
    for id in ["01-weight", "02-norm", "03-forward"] {
        course.pass("rmsnorm", id);
    }
    // Every hint read already: the next level would be the last one.
    let total = std::fs::read_to_string(common::repo().join("lessons/rmsnorm/04-backward.md"))
        .unwrap()
        .matches("<!-- tutor: hint ")
        .count()
        / 2;
    assert!(total >= 3, "04-backward has {total} hints");
    let read = Command::new(env!("CARGO_BIN_EXE_tutor"))
        .args(["hint", "rmsnorm/04", "--all"])
        .current_dir(&course.root)
        .env("TUTOR_LANG", "en")
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert!(read.status.success());
    let mistake = std::fs::read_to_string(common::repo().join("tests/mistakes/rmsnorm/backward-dw-from-x.rs")).unwrap();
    course.save("04-backward", &mistake);
    let mut watch = course.watch("");
    let at = watch.wait_for("This looks like a known mistake", 0, CHECK);
    let at = watch.wait_for("is about it", at, KEY);
    let named = &watch.seen()[at.saturating_sub(400)..];
    let level: u32 = named
        .split("Hint ")
        .filter_map(|rest| rest.split(" of 04-backward").next()?.trim().parse().ok())
        .last()
        .unwrap_or_else(|| panic!("no hint level named:\n{named}"));
    assert!(level < total as u32, "the mistake points to the last hint: the test could not fail");
    watch.send("h");
    let at = watch.wait_for(&format!("Hint {level}/{total} · 04-backward"), at, KEY);
    // `e`: the watched exercise's lesson.
    watch.send("e");
    let at = watch.wait_for("When you are ready: `tutor check 04-backward`", at, KEY);

    course.save("04-backward", &Course::solution("04-backward"));
    let at = watch.wait_for("04-backward passes every check", at, CHECK);
    let at = watch.wait_for("the chapter is done", at, KEY);
    let at = watch.wait_for("Press n to start the next chapter, SwiGLU", at, KEY);
    assert!(!watch.seen()[at..].contains("the whole course"), "{}", watch.seen());
    watch.send("n");
    let at = watch.wait_for("New chapter: SwiGLU", at, KEY);
    let at = watch.wait_for("`tutor lesson swiglu`", at, KEY);
    watch.wait_for("Checking 01-silu", at, KEY);
    quit(watch);
}

fn read_state(course: &Shared) -> String {
    std::fs::read_to_string(course.root.join(".tutor/state.toml")).unwrap_or_default()
}

#[test]
fn the_end_of_the_course_is_announced_once_whichever_exercise_passes_last() {
    let course = Shared::take();
    // Every exercise of every course but 02 passes first; 02, in the middle of its course,
    // passes last.
    for name in common::courses() {
        for (id, _) in common::exercises_of(&name).iter().filter(|(id, _)| name != "rmsnorm" || id != "02-norm") {
            course.pass(&name, id);
        }
    }
    let mut watch = course.watch("");
    let at = watch.wait_for("cases pass · next: press `h` for a hint", 0, CHECK);
    let at = watch.wait_for("Watching exercises/rmsnorm/02-norm.rs", at, KEY);
    let quiet = watch.collect_for(Duration::from_millis(500));

    // Saving another exercise adds nothing to the screen.
    course.save("01-weight", &Course::solution("01-weight"));
    let after = watch.collect_for(Duration::from_millis(1500));
    assert_eq!(quiet, after, "a save of another file drew:\n{:?}", &watch.seen()[quiet..]);

    // The middle exercise passes last: the course is done, said once.
    course.save("02-norm", &Course::solution("02-norm"));
    let at = watch.wait_for("02-norm passes every check", at, CHECK);
    let at = watch.wait_for("the chapter is done", at, KEY);
    watch.wait_for(&common::done(common::total_exercises()), at, KEY);
    watch.collect_for(Duration::from_millis(1500));
    assert_eq!(watch.seen().matches("the chapter is done").count(), 1, "{}", watch.seen());
    assert!(!screen(watch.seen()).contains("Press n"), "{}", watch.seen());

    // Checking again does not announce it again.
    let before = watch.seen().len();
    watch.send("c");
    let at = watch.wait_for("02-norm passes every check", before, CHECK);
    watch.wait_for("Every exercise is done.", at, KEY);
    let output = quit(watch);
    assert_eq!(output.matches("the chapter is done").count(), 1, "{output}");
}

#[test]
fn bare_tutor_on_a_terminal_starts_the_watch_which_names_its_keys() {
    let course = Shared::take();
    let mut watch = tutor_on_a_terminal(&course.root, "");
    let at = watch.wait_for("Checking 01-weight", 0, CHECK);
    let at = watch.wait_for("cases pass · next: press `h` for a hint", at, CHECK);
    watch.wait_for("Watching exercises/rmsnorm/01-weight.rs", at, KEY);
    let last = screen(watch.seen()).to_string();
    assert!(!last.contains("`tutor hint 01-weight`"), "a command where the watch has a key:\n{last}");
    quit(watch);
}

#[test]
fn a_long_check_shows_its_elapsed_time_and_the_footer_fits_the_width() {
    let course = Shared::take();
    course.pass("rmsnorm", "01-weight");
    let endless = Course::stub("02-norm")
        .replace("todo!(\"TODO 2 is not done yet / TODO 2 尚未完成\")", "loop { std::hint::spin_loop() }");
    std::fs::write(course.file("02-norm"), endless).unwrap();
    // A pseudo-terminal nobody sized: COLUMNS gives the width.
    let script = format!(
        "before=$(stty -g); COLUMNS=60 '{}' watch --timeout 30; after=$(stty -g); [ \"$before\" = \"$after\" ] && echo TERMINAL-RESTORED || echo TERMINAL-CHANGED",
        env!("CARGO_BIN_EXE_tutor")
    );
    let mut command = Command::new("script");
    command
        .args(["-qfec", &script, "/dev/null"])
        .current_dir(&course.root)
        .env("TUTOR_LANG", "both")
        .env("NO_COLOR", "1");
    let mut watch = Live::start(command);
    let at = watch.wait_for("running the checks… 1 s", 0, CHECK);
    let at = watch.wait_for("running the checks… 2 s", at, KEY);
    // The whole drawing: it ends with the keys.
    watch.wait_for("q quit", at, KEY);
    let last = screen(watch.seen()).to_string();
    assert!(last.contains("正在运行检查 / running the checks… 2 s"), "{last}");
    let footer = &last[last.find(&common::done(1)).expect("the bar")..];
    for line in footer.lines() {
        assert!(line.chars().count() <= 60, "wider than 60 columns: {line:?}\n{footer}");
    }
    // A key stays with its word.
    assert!(footer.contains("l 列表") && footer.contains("l list") && footer.contains("q quit"), "{footer}");
    quit(watch);
}

#[test]
fn without_a_terminal_what_was_typed_during_a_check_comes_after_its_report() {
    let course = Shared::take();
    // Typed at once, while the first check still runs.
    let (text, ended) = manual_watch(&course, "h\nq\n");
    let report = text.find("cases pass").unwrap_or_else(|| panic!("no report:\n{text}"));
    let hint = text.find("Hint 1/3 · 01-weight").unwrap_or_else(|| panic!("no hint:\n{text}"));
    let bye = text.find("Stopped watching").unwrap_or_else(|| panic!("no goodbye:\n{text}"));
    assert!(report < hint && hint < bye, "out of order:\n{text}");
    assert!(ended, "{text}");
}

#[test]
fn a_failing_check_of_a_passed_exercise_keeps_its_pass_and_says_so() {
    let course = Shared::take();
    course.pass("rmsnorm", "01-weight");
    // An experiment after passing: 01 fails again.
    std::fs::write(course.file("01-weight"), Course::stub("01-weight")).unwrap();
    // The watch starts at 02 (01 has passed); `p` goes back to 01.
    let (text, _) = manual_watch(&course, "p\nq\n");
    let checked = text.find("Checking 01-weight").unwrap_or_else(|| panic!("01 not checked:\n{text}"));
    assert!(text[checked..].contains("01-weight passed before, so it stays done"), "{text}");
    assert!(text[checked..].contains(&common::done(1)), "the pass still counts:\n{text}");
}

/// `tutor watch --manual` without a terminal, `input` typed at once: what it printed, and whether
/// it ended with exit code 0.
fn manual_watch(course: &Shared, input: &str) -> (String, bool) {
    use std::io::Write;
    let mut child = Command::new(env!("CARGO_BIN_EXE_tutor"))
        .args(["watch", "--manual"])
        .current_dir(&course.root)
        .env("TUTOR_LANG", "en")
        .env("NO_COLOR", "1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(input.as_bytes()).unwrap();
    let output = child.wait_with_output().unwrap();
    (String::from_utf8_lossy(&output.stdout).into_owned(), output.status.success())
}
