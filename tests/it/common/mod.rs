//! A throw-away course workspace driven through the built `tutor` binary.

#![allow(dead_code)]

pub mod panics;
pub mod pty;
pub mod schema;

/// The learner files of every course (their own crate, compiled once: `tests/learners/`).
pub use tutor_learner_files as fixtures;

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

/// The repository this test runs from.
pub fn repo() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// A harness folder with its libraries built, made once (per test build, guarded by
/// a lock across the test binaries that run at the same time).
fn warm_harness() -> &'static Path {
    static WARM: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
    WARM.get_or_init(|| {
        let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("warm-course");
        std::fs::create_dir_all(&dir).unwrap();
        let lock = std::fs::File::create(dir.with_extension("lock")).unwrap();
        lock.lock().unwrap();
        let harness = dir.join(".tutor/harness");
        let target = harness.join("target");
        // Built by this tutor binary, or built again: a harness an older tutor built holds a kit
        // built from older sources, which the first check here would rebuild under the test's feet.
        let binary = std::fs::metadata(env!("CARGO_BIN_EXE_tutor")).unwrap();
        let built_by = format!("{:?} {}", binary.modified().unwrap(), binary.len());
        let stamp = dir.with_extension("built-by");
        let current = std::fs::read_to_string(&stamp).is_ok_and(|said| said == built_by);
        if !current || !target.join("debug").is_dir() || !dir.join(".tutor/builds/link.json").is_file() {
            let _ = std::fs::remove_dir_all(&dir);
            std::fs::create_dir_all(&dir).unwrap();
            let built = Command::new(env!("CARGO_BIN_EXE_tutor"))
                .args(["init", "--force", "."])
                .current_dir(&dir)
                .stdin(Stdio::null())
                .output()
                .expect("tutor init runs");
            assert!(built.status.success(), "{}", String::from_utf8_lossy(&built.stderr));
            prove_direct_link(&dir);
            std::fs::write(&stamp, built_by).unwrap();
        }
        harness
    })
}

/// Has the course folder at `dir` prove its direct link (src/runner/direct_link.rs), which
/// depends on the toolchain alone: every course folder copies it rather than build the probes
/// at its first compile by rustc alone.
fn prove_direct_link(dir: &Path) {
    let file = dir.join("exercises/rmsnorm/01-weight.rs");
    let solution = std::fs::read_to_string(repo().join("solutions/rmsnorm/01-weight.rs")).unwrap();
    for text in [solution.clone(), format!("{solution}\n// edited\n")] {
        std::fs::write(&file, text).unwrap();
        let checked = Command::new(env!("CARGO_BIN_EXE_tutor")).args(["check", "01-weight"]).current_dir(dir).output();
        assert!(checked.expect("tutor check runs").status.success());
    }
    assert!(dir.join(".tutor/builds/link.json").is_file(), "the direct link is kept");
}

/// The RMSNorm course's exercises, in order: (id, TODO number).
pub fn exercises() -> Vec<(String, i64)> {
    exercises_of("rmsnorm")
}

/// One course's exercises, in order: (id, TODO number).
pub fn exercises_of(course: &str) -> Vec<(String, i64)> {
    let text = std::fs::read_to_string(repo().join("exercises").join(course).join("info.toml")).expect("the catalogue");
    let catalogue: toml::Table = toml::from_str(&text).expect("the catalogue parses");
    catalogue["exercises"]
        .as_array()
        .expect("[[exercises]]")
        .iter()
        .map(|e| (e["id"].as_str().expect("an id").to_string(), e["todo"].as_integer().expect("a TODO")))
        .collect()
}

/// Every registered course's id (each has `exercises/<id>/info.toml`).
pub fn courses() -> Vec<String> {
    let mut ids: Vec<String> = std::fs::read_dir(repo().join("exercises"))
        .expect("exercises/")
        .flatten()
        .filter(|e| e.path().join("info.toml").is_file())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    ids.sort();
    ids
}

/// How many exercises every course has together.
pub fn total_exercises() -> usize {
    courses().iter().map(|c| exercises_of(c).len()).sum()
}

/// `tutor list`'s progress line for `done` exercises done, out of every course's.
pub fn done(done: usize) -> String {
    format!("{done}/{} done", total_exercises())
}

/// A temporary copy of the course's exercise folder, removed on drop.
pub struct Course {
    pub root: PathBuf,
}

impl Course {
    /// A course folder whose grading harness already has its libraries built (copied from one
    /// built once for all tests: a cold build takes many seconds on a small machine). The harness
    /// is copied whole, its sources with their times, as `tutor init` left it: the kits' and
    /// given libraries' sources are the same in every folder, so nothing of them is built again.
    pub fn new(name: &str) -> Course {
        let course = Course::cold(name);
        let private = course.root.join(".tutor");
        std::fs::create_dir_all(&private).unwrap();
        let copied = Command::new("cp").arg("-a").arg(warm_harness()).arg(&private).status().expect("cp runs");
        assert!(copied.success(), "copying the warm harness");
        let link = warm_harness().with_file_name("builds").join("link.json");
        std::fs::create_dir_all(private.join("builds")).unwrap();
        std::fs::copy(link, private.join("builds/link.json")).expect("copying the direct link");
        course
    }

    /// A course folder whose harness has never been built (for what happens on a first build).
    pub fn cold(name: &str) -> Course {
        // Unique in the process too: every test runs in one binary, and two may use one name.
        static NEXT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
        let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let root = std::env::temp_dir().join(format!("tutor-e2e-{name}-{}-{n}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        std::fs::create_dir_all(&root).unwrap();
        // Every course's stubs and catalogue, as `tutor init` writes them.
        let copied = Command::new("cp").arg("-r").arg(repo().join("exercises")).arg(&root).status().expect("cp runs");
        assert!(copied.success(), "copying the exercises");
        Course { root }
    }

    /// Runs `tutor ARGS` in the workspace, English only, no colour, no terminal, and wide: a
    /// test that looks for a sentence finds it on one line (the layout has tests of its own, in
    /// `report_output.rs`).
    pub fn tutor(&self, args: &[&str]) -> Run {
        self.tutor_with(args, |_| {})
    }

    pub fn tutor_with(&self, args: &[&str], adjust: impl FnOnce(&mut Command)) -> Run {
        let mut command = self.command(args);
        adjust(&mut command);
        Run::from(command.output().expect("the tutor binary runs"))
    }

    /// The command [`Course::tutor`] runs, to be started otherwise (in the background, say):
    /// in the same environment, so that a build can reuse what the checks around it recorded.
    pub fn command(&self, args: &[&str]) -> Command {
        let mut command = Command::new(env!("CARGO_BIN_EXE_tutor"));
        command
            .args(args)
            .current_dir(&self.root)
            .env("TUTOR_LANG", "en")
            .env("NO_COLOR", "1")
            .env("COLUMNS", "1000")
            .stdin(Stdio::null());
        command
    }

    pub fn write_exercise(&self, id: &str, contents: &str) {
        self.write_exercise_of("rmsnorm", id, contents)
    }

    /// Writes the learner's file of exercise `id` of `course`.
    pub fn write_exercise_of(&self, course: &str, id: &str, contents: &str) {
        std::fs::write(self.root.join("exercises").join(course).join(format!("{id}.rs")), contents).unwrap();
    }

    pub fn solution(id: &str) -> String {
        std::fs::read_to_string(repo().join("solutions/rmsnorm").join(format!("{id}.rs"))).unwrap()
    }

    pub fn stub(id: &str) -> String {
        std::fs::read_to_string(repo().join("exercises/rmsnorm").join(format!("{id}.rs"))).unwrap()
    }

    pub fn state(&self) -> String {
        std::fs::read_to_string(self.root.join(".tutor/state.toml")).unwrap_or_default()
    }
}

impl Drop for Course {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.root);
    }
}

/// What one run printed and how it ended.
pub struct Run {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

impl From<Output> for Run {
    fn from(output: Output) -> Self {
        Run {
            code: output.status.code().unwrap_or(-1),
            stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
        }
    }
}

impl Run {
    pub fn all(&self) -> String {
        format!("{}\n{}", self.stdout, self.stderr)
    }

    #[track_caller]
    pub fn expect(&self, code: i32) -> &Self {
        assert_eq!(self.code, code, "exit code\n--- stdout\n{}\n--- stderr\n{}", self.stdout, self.stderr);
        assert!(!self.stderr.contains("RUST_BACKTRACE"), "a backtrace hint reached the learner:\n{}", self.stderr);
        self
    }

    #[track_caller]
    pub fn shows(&self, text: &str) -> &Self {
        assert!(
            self.all().contains(text),
            "expected {text:?} in\n--- stdout\n{}\n--- stderr\n{}",
            self.stdout,
            self.stderr
        );
        self
    }

    #[track_caller]
    pub fn hides(&self, text: &str) -> &Self {
        assert!(!self.all().contains(text), "did not expect {text:?} in\n{}", self.all());
        self
    }
}

/// The sysroot of the rustc on the path (`rustc --print sysroot`).
pub fn rustc_sysroot() -> PathBuf {
    let printed = Command::new("rustc").args(["--print", "sysroot"]).output().expect("rustc runs");
    PathBuf::from(String::from_utf8_lossy(&printed.stdout).trim())
}
