//! How a check gets its graded program (src/runner/build.rs): cargo the first time, rustc alone
//! when only the learner's file changed since, the program built last when the file is what it
//! was built from — with the same verdicts and messages every way, and back to cargo whenever
//! something else changed.
//!
//! Which way was taken is seen from outside: `cargo` on the `PATH` tutor is given is a script
//! that counts its builds before it runs the real one, and rustc rewrites the program's
//! dep-info in `debug/deps/` whenever it compiles, successfully or not.

use crate::common;

use tutor_courses::rmsnorm as rmsnorm_grade;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, SystemTime};

use common::{Course, Run};

const BIN: &str = "ex-rmsnorm-02-norm";

/// How a check got its graded program.
#[derive(Debug, PartialEq)]
enum Way {
    Cargo,
    RustcAlone,
    Reused,
}

/// A course folder whose checks run a counting `cargo`.
struct Counted {
    course: Course,
    path: String,
}

impl Counted {
    fn new(name: &str) -> Counted {
        Counted::over(Course::new(name))
    }

    fn over(course: Course) -> Counted {
        let real = Command::new("sh").args(["-c", "command -v cargo"]).output().expect("sh runs");
        let real = String::from_utf8_lossy(&real.stdout).trim().to_string();
        assert!(!real.is_empty(), "cargo is on PATH");
        let bin = course.root.join("counting-cargo");
        std::fs::create_dir_all(&bin).unwrap();
        // The build may write beneath the harness's target/ only: so does the count. The
        // learner's build is `cargo rustc` (for rustc's message width), the kit's `cargo build`.
        let script = format!(
            "#!/bin/sh\ncase \"$1\" in build|rustc) echo build >> \"$TMPDIR/../cargo-builds\";; esac\nexec '{real}' \"$@\"\n"
        );
        let cargo = bin.join("cargo");
        std::fs::write(&cargo, script).unwrap();
        std::fs::set_permissions(&cargo, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
        let path = format!("{}:{}", bin.display(), std::env::var("PATH").unwrap_or_default());
        Counted { course, path }
    }

    /// A course folder whose 02-norm passed once, built by cargo.
    fn passed_once(name: &str) -> Counted {
        let counted = Counted::new(name);
        counted.course.write_exercise("02-norm", &Course::solution("02-norm"));
        let (run, way) = counted.check(&["check", "02"]);
        run.expect(0);
        assert_eq!(way, Way::Cargo, "the first build");
        counted
    }

    fn builds(&self) -> usize {
        let log = self.course.root.join(".tutor/harness/target/cargo-builds");
        std::fs::read_to_string(log).map(|t| t.lines().count()).unwrap_or(0)
    }

    /// The time rustc last wrote the program's dep-info.
    fn compiled(&self) -> Option<SystemTime> {
        let deps = self.course.root.join(".tutor/harness/target/debug/deps");
        let prefix = format!("{}-", BIN.replace('-', "_"));
        std::fs::read_dir(deps)
            .ok()?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.file_name().unwrap().to_string_lossy().starts_with(&prefix))
            .filter(|p| p.extension().is_some_and(|e| e == "d"))
            .filter_map(|p| std::fs::metadata(p).ok()?.modified().ok())
            .max()
    }

    /// Runs `tutor ARGS` and says which way it got its program.
    fn check(&self, args: &[&str]) -> (Run, Way) {
        let (builds, compiled) = (self.builds(), self.compiled());
        // Times of files written within one clock tick are equal on some file systems.
        std::thread::sleep(Duration::from_millis(20));
        let run = self.course.tutor_with(args, |c| {
            c.env("PATH", &self.path);
        });
        let way = if self.builds() > builds {
            Way::Cargo
        } else if self.compiled() != compiled {
            Way::RustcAlone
        } else {
            Way::Reused
        };
        (run, way)
    }

    fn record(&self) -> PathBuf {
        self.course.root.join(".tutor/builds").join(format!("{BIN}.json"))
    }
}

/// Sets a file's modification time to a few seconds from now, as a rebuild would.
fn touch(path: &Path) {
    let later = SystemTime::now() + Duration::from_secs(5);
    std::fs::File::options().write(true).open(path).unwrap().set_modified(later).unwrap();
}

/// The solution of 02 with `line` first in `norm`'s computation.
fn solution_with(line: &str) -> String {
    Course::solution("02-norm").replace("let last = Axis", &format!("{line}\n        let last = Axis"))
}

fn mistake(name: &str) -> String {
    std::fs::read_to_string(common::repo().join("tests/mistakes/rmsnorm").join(format!("{name}.rs"))).unwrap()
}

#[test]
fn an_edited_file_is_compiled_by_rustc_alone_with_the_verdicts_cargo_gives() {
    let counted = Counted::passed_once("rebuild-edit");
    let course = &counted.course;
    assert!(counted.record().is_file(), "the command is recorded");

    // A named mistake, a compile error, a warning, a panic and the solution again: each is
    // compiled by rustc alone and gets the verdict and messages a cargo build gets.
    let title = rmsnorm_grade::mistakes::find("eps-outside-sqrt").expect("catalogued").title();
    course.write_exercise("02-norm", &mistake("eps-outside-sqrt"));
    let (run, way) = counted.check(&["check", "02"]);
    run.expect(1).shows(&title.en);
    assert_eq!(way, Way::RustcAlone);

    let broken = Course::solution("02-norm").replace("let last = Axis(x32.ndim() - 1);", "let last: u8 = 1.5;");
    course.write_exercise("02-norm", &broken);
    let (run, way) = counted.check(&["check", "02"]);
    run.expect(1)
        .shows("exercises/rmsnorm/02-norm.rs does not compile")
        .shows("mismatched types")
        .shows("--> exercises/rmsnorm/02-norm.rs:")
        .hides(".tutor/harness")
        .hides("\u{1b}[");
    assert_eq!(way, Way::RustcAlone);

    let with_warning = solution_with("let unused_here = 1;");
    course.write_exercise("02-norm", &with_warning);
    let (run, way) = counted.check(&["check", "02"]);
    run.expect(0).shows("unused variable: `unused_here`").shows("--> exercises/rmsnorm/02-norm.rs:").hides("\u{1b}[");
    assert_eq!(way, Way::RustcAlone);

    let panicking = solution_with("panic!(\"boom\");");
    course.write_exercise("02-norm", &panicking);
    let (run, way) = counted.check(&["check", "02"]);
    run.expect(1).shows("boom").shows("exercises/rmsnorm/02-norm.rs:");
    assert_eq!(way, Way::RustcAlone);

    course.write_exercise("02-norm", &format!("{}\n// edited\n", Course::solution("02-norm")));
    let (run, way) = counted.check(&["check", "02"]);
    run.expect(0).shows("02-norm passes every check");
    assert_eq!(way, Way::RustcAlone);
}

#[test]
fn the_text_built_last_reruns_its_program_with_its_warnings() {
    let counted = Counted::new("rebuild-same");
    let course = &counted.course;
    let with_warning = solution_with("let unused_here = 1;");
    course.write_exercise("02-norm", &with_warning);
    assert_eq!(counted.check(&["check", "02"]).1, Way::Cargo);
    let (run, way) = counted.check(&["check", "02"]);
    run.expect(0).shows("unused variable: `unused_here`").shows("02-norm passes every check");
    assert_eq!(way, Way::Reused);

    // The grading runs again all the same: the seed asked for, the same verdict.
    let (run, way) = counted.check(&["check", "02", "--seed", "7", "--verbose"]);
    run.expect(0).shows("--seed 7");
    assert_eq!(way, Way::Reused);

    // A failed build in between: the text that built last is built again.
    course.write_exercise("02-norm", "this is not Rust");
    let (run, way) = counted.check(&["check", "02"]);
    run.expect(1).shows("does not compile");
    assert_eq!(way, Way::RustcAlone);
    course.write_exercise("02-norm", &with_warning);
    let (run, way) = counted.check(&["check", "02"]);
    run.expect(0).shows("unused variable: `unused_here`");
    assert_eq!(way, Way::RustcAlone);

    // A program changed on disk since is not trusted.
    touch(&course.root.join(".tutor/harness/target/debug/deps").join(program_name(&counted)));
    let (run, way) = counted.check(&["check", "02"]);
    run.expect(0);
    assert_eq!(way, Way::RustcAlone);
}

/// The file name of the program rustc writes (its dep-info's, without `.d`).
fn program_name(counted: &Counted) -> String {
    let deps = counted.course.root.join(".tutor/harness/target/debug/deps");
    let prefix = format!("{}-", BIN.replace('-', "_"));
    std::fs::read_dir(deps)
        .unwrap()
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .find(|n| n.starts_with(&prefix) && n.ends_with(".d"))
        .and_then(|n| n.strip_suffix(".d").map(str::to_string))
        .expect("the program's dep-info")
}

#[test]
fn anything_else_changed_sends_the_build_back_to_cargo() {
    let counted = Counted::passed_once("rebuild-stale");
    let course = &counted.course;

    // Another exercise checked in between leaves the harness as it was (its given library was
    // built with the others, by `tutor init`).
    course.write_exercise("01-weight", &Course::solution("01-weight"));
    course.tutor(&["check", "01"]).expect(0);
    course.write_exercise("02-norm", &format!("{}\n// three\n", Course::solution("02-norm")));
    assert_eq!(counted.check(&["check", "02"]).1, Way::RustcAlone);

    // A library the command links, rebuilt since (here: only its time changed): the kit, a
    // shared library (named without cargo's hash).
    let deps = course.root.join(".tutor/harness/target/debug/deps");
    let kit = deps.join("librmsnorm_kit.so");
    assert!(kit.is_file(), "the kit's library");
    touch(&kit);
    course.write_exercise("02-norm", &format!("{}\n// one\n", Course::solution("02-norm")));
    let (run, way) = counted.check(&["check", "02"]);
    run.expect(0);
    assert_eq!(way, Way::Cargo);
    // … and recorded anew.
    course.write_exercise("02-norm", &format!("{}\n// two\n", Course::solution("02-norm")));
    assert_eq!(counted.check(&["check", "02"]).1, Way::RustcAlone);

    // A library the kit was built against, gone (`cargo clean -p tutor_subject`): cargo
    // builds it again, and the learner's file is not blamed.
    for library in std::fs::read_dir(&deps).unwrap().filter_map(|e| e.ok().map(|e| e.path())) {
        if library.file_name().unwrap().to_string_lossy().starts_with("libtutor_subject-") {
            std::fs::remove_file(library).unwrap();
        }
    }
    course.write_exercise("02-norm", &format!("{}\n// two and a half\n", Course::solution("02-norm")));
    let (run, way) = counted.check(&["check", "02"]);
    run.expect(0);
    assert_eq!(way, Way::Cargo);

    // A record that cannot be read costs speed, never a verdict.
    std::fs::write(counted.record(), "{ not json").unwrap();
    course.write_exercise("02-norm", &mistake("eps-outside-sqrt"));
    let (run, way) = counted.check(&["check", "02"]);
    run.expect(1);
    assert_eq!(way, Way::Cargo);
}

#[test]
fn a_record_naming_a_compiler_that_is_gone_falls_back_to_cargo() {
    // A toolchain removed since the record was made.
    let counted = Counted::passed_once("rebuild-gone");
    let course = &counted.course;
    let text = std::fs::read_to_string(counted.record()).unwrap();
    let rustc = text.split("\"program\":\"").nth(1).and_then(|t| t.split('"').next()).expect("a program").to_string();
    std::fs::write(counted.record(), text.replace(&rustc, "/nonexistent/toolchain/bin/rustc")).unwrap();
    course.write_exercise("02-norm", &format!("{}\n// edited\n", Course::solution("02-norm")));
    let (run, way) = counted.check(&["check", "02"]);
    run.expect(0);
    assert_eq!(way, Way::Cargo);
}

/// The solution of 02, panicking first with what some variables were at compile time.
fn reporting(names: &[&str]) -> String {
    let values: Vec<String> = names.iter().map(|n| format!("option_env!({n:?})")).collect();
    let report = format!("panic!(\"ENV {{:?}} END\", [{}]);", values.join(", "));
    solution_with(&report)
}

/// What `reporting` printed.
fn reported(run: &Run) -> String {
    let start = run.stdout.find("ENV [").expect("the values were printed");
    let end = run.stdout[start..].find(" END").expect("the end of the values") + start;
    run.stdout[start..end].to_string()
}

#[test]
fn rustc_alone_sees_the_variables_cargos_rustc_sees() {
    let counted = Counted::passed_once("rebuild-env");
    let course = &counted.course;
    // rustup's and cargo's own, and build settings cargo is run without.
    let names = [
        "RUSTUP_TOOLCHAIN",
        "RUSTUP_HOME",
        "CARGO_HOME",
        "CARGO_PKG_NAME",
        "CARGO_MANIFEST_DIR",
        "CARGO_TERM_COLOR",
        "RUSTC_WRAPPER",
        "RUSTFLAGS",
        "LC_TUTOR_PROBE",
    ];
    let check = |edit: &str, probe: &str| {
        course.write_exercise("02-norm", &format!("{}\n// {edit}\n", reporting(&names)));
        let before = counted.builds();
        let run = course.tutor_with(&["check", "02"], |c| {
            c.env("PATH", &counted.path).env("RUSTC_WRAPPER", "/usr/bin/env").env("RUSTFLAGS", "-Cdebuginfo=1");
            c.env("LC_TUTOR_PROBE", probe);
        });
        run.expect(1);
        (reported(&run), counted.builds() > before)
    };
    // Each environment's first build is cargo's; the next one rustc alone.
    let (by_cargo, cargo_ran) = check("one", "first");
    assert!(cargo_ran, "another environment than the record's: cargo builds");
    let (alone, cargo_ran) = check("two", "first");
    assert!(!cargo_ran, "the same environment: rustc alone");
    assert_eq!(alone, by_cargo);
    assert!(by_cargo.contains("Some(\"first\")") && by_cargo.contains("Some(\"ex-rmsnorm-02-norm\")"), "{by_cargo}");
    assert!(!by_cargo.contains("/usr/bin/env") && !by_cargo.contains("debuginfo"), "{by_cargo}");

    // A variable the compile read, changed since: what rustc sees is the new value, never the
    // old program's. It steers neither cargo nor rustup, so rustc alone compiles again.
    let (changed, cargo_ran) = check("two", "second");
    assert!(!cargo_ran && changed.contains("Some(\"second\")"), "{changed}");
}

#[test]
fn a_terminal_with_other_settings_rebuilds_without_cargo_and_one_steering_cargo_does_not() {
    // An editor's terminal beside the learner's shell: variables of their own, the same build.
    let counted = Counted::passed_once("rebuild-terminals");
    let course = &counted.course;
    let check_in = |terminal: &[(&str, &str)]| {
        let (builds, compiled) = (counted.builds(), counted.compiled());
        std::thread::sleep(Duration::from_millis(20));
        let run = course.tutor_with(&["check", "02"], |c| {
            c.env("PATH", &counted.path);
            for (name, value) in terminal {
                c.env(name, value);
            }
        });
        run.expect(0);
        match (counted.builds() > builds, counted.compiled() != compiled) {
            (true, _) => Way::Cargo,
            (false, true) => Way::RustcAlone,
            (false, false) => Way::Reused,
        }
    };
    let editor = [("TERM_PROGRAM", "vscode"), ("TUTOR_EDITOR_ONLY", "1")];
    assert_eq!(check_in(&editor), Way::Reused, "the same file, from the editor's terminal");
    course.write_exercise("02-norm", &format!("{}\n// edited in the editor\n", Course::solution("02-norm")));
    assert_eq!(check_in(&editor), Way::RustcAlone);
    assert_eq!(check_in(&[]), Way::Reused, "back in the shell");
    course.write_exercise("02-norm", &format!("{}\n// edited in the shell\n", Course::solution("02-norm")));
    assert_eq!(check_in(&[]), Way::RustcAlone);
    // A variable cargo reads: cargo decides.
    assert_eq!(check_in(&[("CARGO_TERM_VERBOSE", "false")]), Way::Cargo);
    // So does one a library's build script watches (as matrixmultiply's compile reads
    // `MMTEST_FEATURE`): here, a script's output planted before cargo records the build again.
    let script = course.root.join(".tutor/harness/target/debug/build/planted-1");
    std::fs::create_dir_all(&script).unwrap();
    std::fs::write(script.join("output"), "cargo:rerun-if-env-changed=RUST_LIBRARY_KNOB\n").unwrap();
    course.write_exercise("02-norm", &format!("{}\n// edited again\n", Course::solution("02-norm")));
    assert_eq!(check_in(&[]), Way::Cargo, "the last record was another environment's");
    assert_eq!(check_in(&editor), Way::Reused);
    assert_eq!(check_in(&[("RUST_LIBRARY_KNOB", "1")]), Way::Cargo);
    // A variable outside the build's allow list never reaches cargo: nothing to rebuild for.
    assert_eq!(check_in(&[("RUST_LIBRARY_KNOB", "1"), ("TUTOR_LIBRARY_KNOB", "1")]), Way::Reused);
}

#[test]
fn a_compile_stopped_halfway_leaves_no_program_to_reuse() {
    let counted = Counted::passed_once("rebuild-stopped");
    let course = &counted.course;
    // A file whose build reads a file besides it: refused after a build that succeeded.
    let foreign = format!(
        "{}\n#[allow(dead_code)]\nconst FOREIGN: &str = include_str!(\"../../Cargo.toml\");\n",
        Course::solution("02-norm")
    );
    course.write_exercise("02-norm", &foreign);
    counted.check(&["check", "02"]).0.expect(1).shows("pulls other files into the build");

    // Another text whose compile never ends, stopped by killing tutor.
    let endless = std::fs::read_to_string(common::repo().join("tests/hostile/rmsnorm/const-loop.rs")).unwrap();
    course.write_exercise("02-norm", &endless);
    let (compiled_before, builds_before) = (counted.compiled(), counted.builds());
    // In the environment of the checks around it, so that rustc alone compiles it.
    let mut tutor = course
        .command(&["check", "02", "--build-timeout", "120"])
        .env("PATH", &counted.path)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let group = common::pty::build_group_with_rustc(tutor.id() as i32);
    // Stopped once rustc has said what it reads (before it evaluates the constant).
    let started = std::time::Instant::now();
    while counted.compiled() == compiled_before {
        assert!(started.elapsed() < Duration::from_secs(60), "rustc never wrote its dep-info");
        std::thread::sleep(Duration::from_millis(20));
    }
    tutor.kill().unwrap();
    tutor.wait().unwrap();
    common::pty::assert_group_gone(group, Duration::from_secs(5), "the build of the endless file");
    assert_eq!(counted.builds(), builds_before, "rustc alone compiled the endless file");

    // The first text again: compiled again, and refused again.
    course.write_exercise("02-norm", &foreign);
    let (run, way) = counted.check(&["check", "02"]);
    run.expect(1).shows("pulls other files into the build");
    assert_ne!(way, Way::Reused);
}

#[test]
fn a_program_is_not_reused_when_a_variable_its_compile_read_changed() {
    // The folder tutor runs in is not part of the record's key (it changes with every `cd`); a
    // variable on the build's allow list that steers nothing (a locale category), read at compile
    // time, compiles the file again when it changed, as cargo would.
    let counted = Counted::passed_once("rebuild-knob");
    let course = &counted.course;
    let reads_knob = solution_with("if option_env!(\"LC_TUTOR_KNOB\") != Some(\"on\") { todo!() }");
    course.write_exercise("02-norm", &reads_knob);
    let in_folder = |folder: &Path, knob: &str| {
        let mut command = course.command(&["check", "02"]);
        command.env("PATH", &counted.path).env("PWD", folder).env("LC_TUTOR_KNOB", knob).current_dir(folder);
        Run::from(command.output().unwrap())
    };
    in_folder(&course.root, "on").expect(0);
    in_folder(&course.root.join("exercises"), "on").expect(0);
    in_folder(&course.root.join("exercises"), "off").expect(1).shows("your code panicked: not yet implemented");
    in_folder(&course.root, "on").expect(0);
}

#[test]
fn rustc_failing_on_its_own_files_is_a_tool_problem_either_way() {
    // A folder rustc writes that it cannot (a full disk behaves alike): not the learner's error.
    let counted = Counted::passed_once("rebuild-own-files");
    let course = &counted.course;
    let incremental = course.root.join(".tutor/harness/target/debug/incremental");
    let kept = course.root.join(".tutor/incremental-kept");
    std::fs::rename(&incremental, &kept).unwrap();
    std::fs::write(&incremental, "not a folder").unwrap();
    for (edit, by_cargo) in [("one", false), ("two", true)] {
        if by_cargo {
            std::fs::remove_dir_all(course.root.join(".tutor/builds")).unwrap();
        }
        course.write_exercise("02-norm", &format!("{}\n// {edit}\n", Course::solution("02-norm")));
        let (run, way) = counted.check(&["check", "02"]);
        run.expect(2).shows("not an error in your code").shows("os error").hides("does not compile");
        assert_eq!(way == Way::Cargo, by_cargo, "{way:?}");
        course.tutor(&["list"]).expect(0).shows(&common::done(1));
    }
    std::fs::remove_file(&incremental).unwrap();
    std::fs::rename(&kept, &incremental).unwrap();
    counted.check(&["check", "02"]).0.expect(0);
}

#[test]
fn the_first_build_of_a_course_folder_is_recorded_too() {
    // Its dependencies' build scripts are the first binaries that build compiles: the learner's
    // program is still the one recorded, so the next edit needs no cargo.
    let counted = Counted::over(Course::cold("rebuild-cold"));
    counted.course.write_exercise("02-norm", &Course::solution("02-norm"));
    let (run, way) = counted.check(&["check", "02"]);
    run.expect(0);
    assert_eq!(way, Way::Cargo);
    counted.course.write_exercise("02-norm", &format!("{}\n// edited\n", Course::solution("02-norm")));
    let (run, way) = counted.check(&["check", "02"]);
    run.expect(0);
    assert_eq!(way, Way::RustcAlone);
}

#[test]
fn a_program_cargo_finds_fresh_is_recorded_so_later_checks_skip_cargo() {
    // A new tutor release reads no record of the old one's (another harness fingerprint), yet
    // cargo finds the program fresh and runs no rustc to record: without one compile to
    // record, every later check of the unchanged file would go through cargo again.
    let counted = Counted::passed_once("rebuild-fresh");
    std::fs::remove_dir_all(counted.course.root.join(".tutor/builds")).unwrap();
    let (run, way) = counted.check(&["check", "02"]);
    run.expect(0);
    assert_eq!(way, Way::Cargo, "no record: cargo");
    assert!(counted.record().is_file(), "recorded again");
    let (run, way) = counted.check(&["check", "02"]);
    run.expect(0);
    assert_eq!(way, Way::Reused, "the unchanged file's program is reused");
    counted.course.write_exercise("02-norm", &format!("{}\n// edited\n", Course::solution("02-norm")));
    let (run, way) = counted.check(&["check", "02"]);
    run.expect(0);
    assert_eq!(way, Way::RustcAlone, "an edit needs rustc alone");
}

/// What the course folder keeps of the direct link (src/runner/direct_link.rs).
fn direct_link(counted: &Counted) -> serde_json::Value {
    let text = std::fs::read_to_string(counted.course.root.join(".tutor/builds/link.json")).expect("kept");
    serde_json::from_str(&text).unwrap()
}

#[test]
fn rustc_alone_links_with_lld_itself_once_proven_and_through_cc_when_that_fails() {
    let counted = Counted::passed_once("rebuild-direct-link");
    let course = &counted.course;
    // Derived and proven at the first compile by rustc alone.
    let _ = std::fs::remove_file(course.root.join(".tutor/builds/link.json"));
    course.write_exercise("02-norm", &format!("{}\n// one\n", Course::solution("02-norm")));
    let (run, way) = counted.check(&["check", "02"]);
    run.expect(0);
    assert_eq!(way, Way::RustcAlone);
    let kept = direct_link(&counted);
    // Proven on a GNU/Linux toolchain with its own lld (this project's CI); elsewhere, said why.
    let lld_here = std::fs::read_dir(common::rustc_sysroot().join("lib/rustlib"))
        .map(|targets| targets.flatten().any(|t| t.path().join("bin/rust-lld").is_file()))
        .unwrap_or(false);
    if !(cfg!(all(target_os = "linux", target_env = "gnu")) && lld_here) {
        assert!(kept["why_not"].is_string(), "{kept}");
        eprintln!("no direct link on this system: {}", kept["why_not"]);
        return;
    }
    let arguments = kept["arguments"].as_array().unwrap_or_else(|| panic!("proven on this system: {kept}"));
    assert!(arguments.iter().any(|a| a.as_str().is_some_and(|a| a.ends_with("/rust-lld"))), "{kept}");

    // A link the learner's code breaks fails through cc as well: said as rustc says it, and the
    // direct link is kept.
    let unlinkable = solution_with(
        "#[link(name = \"tutor_no_such_library\")] extern \"C\" { fn tutor_absent(); }\n        unsafe { tutor_absent() };",
    );
    course.write_exercise("02-norm", &unlinkable);
    let (run, way) = counted.check(&["check", "02"]);
    run.expect(1).shows("tutor_no_such_library").hides("not an error in your code");
    assert_eq!(way, Way::RustcAlone);
    assert!(direct_link(&counted)["arguments"].is_array(), "not given up over the learner's link");

    // A direct link that fails where cc's succeeds: linked through cc, and given up for good.
    let mut broken = direct_link(&counted);
    broken["arguments"].as_array_mut().unwrap().push("-Clink-arg=--tutor-no-such-option".into());
    std::fs::write(course.root.join(".tutor/builds/link.json"), broken.to_string()).unwrap();
    course.write_exercise("02-norm", &format!("{}\n// two\n", Course::solution("02-norm")));
    let (run, way) = counted.check(&["check", "02"]);
    run.expect(0).shows("02-norm passes every check");
    assert_eq!(way, Way::RustcAlone);
    let kept = direct_link(&counted);
    assert!(kept["arguments"].is_null() && kept["why_not"].as_str().is_some_and(|w| w.contains("cc linked")), "{kept}");
    course.write_exercise("02-norm", &format!("{}\n// three\n", Course::solution("02-norm")));
    counted.check(&["check", "02"]).0.expect(0);
}

#[test]
fn a_course_folder_copied_elsewhere_grades_its_own_file_while_the_original_stays() {
    // cargo remembers the learner's copy by absolute path: in the copy of the folder it would call
    // the program fresh while the original's file is unchanged, and grade that file.
    let counted = Counted::passed_once("rebuild-copied");
    let copy = common::Course { root: counted.course.root.with_extension("copy") };
    let copied = Command::new("cp").arg("-a").arg(&counted.course.root).arg(&copy.root).status().unwrap();
    assert!(copied.success());
    let title = rmsnorm_grade::mistakes::find("eps-outside-sqrt").expect("catalogued").title();
    copy.write_exercise("02-norm", &mistake("eps-outside-sqrt"));
    copy.tutor(&["check", "02"]).expect(1).shows(&title.en).hides("pulls other files");
    copy.write_exercise("02-norm", &Course::solution("02-norm"));
    copy.tutor(&["check", "02"]).expect(0);
    counted.course.write_exercise("02-norm", &format!("{}\n// the original\n", Course::solution("02-norm")));
    counted.check(&["check", "02"]).0.expect(0);
}
