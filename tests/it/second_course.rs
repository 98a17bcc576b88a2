//! The proof that a course is data: a second course, kept as a fixture in
//! `tests/fixtures/courses/scale/` (the repository's top level in miniature: catalogue, stubs,
//! solutions, lessons, kit, grading crate), joins a copy of this repository as new folders plus
//! the one line of its `registration.toml`, appended to `courses/Cargo.toml`. Nothing else
//! changes, not a byte of `src/`; the binary built from that copy then carries both courses, end
//! to end: init, list, check (a stub, a solution, named mistakes), hint, reveal, lesson, and
//! RMSNorm beside it in the same workspace.
//!
//! The copy and its build folder persist under cargo's target folder, and the copy is refreshed
//! by content only, so that a rerun rebuilds only what changed (the first run builds tutor and
//! its dependencies from scratch, a minute or two). Only this test builds there.

use std::collections::{BTreeMap, BTreeSet};
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

/// The fixture course's id: its folder's name under `exercises/`, `courses/` … in the fixture.
const COURSE: &str = "scale";

/// The course already in the repository, which must keep working beside the fixture.
const FIRST_COURSE: &str = "rmsnorm";

fn repo() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn fixture() -> PathBuf {
    repo().join("tests/fixtures/courses").join(COURSE)
}

/// The course this test scaffolds with `tutor dev new`.
const SCAFFOLD: &str = "demo";

/// The fixture file that holds the registration line; it is not copied as a course file.
const REGISTRATION: &str = "registration.toml";

#[test]
fn a_second_course_is_folders_and_one_registration_line() {
    let scratch = PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
    std::fs::create_dir_all(&scratch).unwrap();
    // Two runs at once (two `cargo test`s) would build in one folder: the second waits.
    let lock = std::fs::File::create(scratch.join("second-course.lock")).unwrap();
    lock.lock().unwrap();
    let copy = scratch.join("second-course-src");
    let target = scratch.join("second-course-target");

    // The repository's tracked files, the fixture's folders over them, the registration line.
    let tracked = tracked_files();
    let mut files = tracked.clone();
    let course_files = files_below(&fixture());
    assert!(course_files.contains_key(&format!("exercises/{COURSE}/info.toml")), "the fixture has a catalogue");
    for (path, bytes) in course_files.into_iter().filter(|(path, _)| path != REGISTRATION) {
        assert!(
            !tracked.contains_key(&path),
            "the fixture would replace the repository's {path}: a course only adds files"
        );
        assert!(!path.starts_with("src/"), "the fixture would add {path} to the CLI");
        files.insert(path, bytes);
    }
    // A course scaffolded by `tutor dev new` (this test's own binary), its TODO(author) markers
    // filled in, joins the copy the same way: its folders, and the one line `dev new` added.
    let (scaffolded, scaffold_root) = scaffold(&tracked["courses/Cargo.toml"]);
    for (path, bytes) in scaffolded {
        assert!(path == "courses/Cargo.toml" || !tracked.contains_key(&path), "dev new replaced {path}");
        assert!(!path.starts_with("src/"), "dev new would add {path} to the CLI");
        files.insert(path, bytes);
    }
    let line = registration_line();
    let manifest = files.get_mut("courses/Cargo.toml").expect("courses/Cargo.toml is tracked");
    if !manifest.ends_with(b"\n") {
        manifest.push(b'\n');
    }
    manifest.extend_from_slice(format!("{line}\n").as_bytes());
    let registry: toml::Table = toml::from_str(std::str::from_utf8(manifest).unwrap()).expect("still TOML");
    assert_eq!(
        registry["dependencies"][COURSE]["path"].as_str(),
        Some(format!("{COURSE}/grade").as_str()),
        "the appended line registers the course under [dependencies]"
    );
    sync(&copy, &files);

    // Only courses/Cargo.toml differs among the repository's files; nothing under src/ at all.
    let on_disk = files_below(&copy);
    for (path, bytes) in &tracked {
        if path != "courses/Cargo.toml" {
            assert!(on_disk.get(path) == Some(bytes), "{path} differs from the repository's");
        }
    }
    let copied_src = files_below(&copy.join("src"));
    assert!(!copied_src.is_empty(), "the copy has the CLI's source");
    assert!(copied_src == files_below(&repo().join("src")), "a file under src/ differs from the repository's");

    // The binary, built from the copy. Its warnings about the fixture's crates fail the test too.
    let built = cargo(&copy, &target, &["build", "--bin", "tutor"]);
    assert!(built.status.success(), "cargo build of the copy failed:\n{}", text(&built.stderr));
    assert_no_fixture_warnings("cargo build", &built);
    // The fixture's crates pass their own tests and clippy there, editor example included.
    let tested = cargo(&copy, &target, &["test", "--quiet", "-p", "scale_kit", "-p", "scale_grade", "--all-targets"]);
    assert!(tested.status.success(), "the fixture crates' tests:\n{}\n{}", text(&tested.stdout), text(&tested.stderr));
    assert_no_fixture_warnings("cargo test", &tested);
    let clippy_there = cargo(&copy, &target, &["clippy", "--version"]).status.success();
    if clippy_there {
        let linted = cargo(
            &copy,
            &target,
            &["clippy", "--no-deps", "-p", "scale_kit", "-p", "scale_grade", "--all-targets", "--", "-D", "warnings"],
        );
        assert!(linted.status.success(), "clippy on the fixture crates:\n{}", text(&linted.stderr));
    }
    let bin = target.join("debug").join(format!("tutor{}", std::env::consts::EXE_SUFFIX));

    // The authoring checks accept every course the copy carries: RMSNorm, the fixture, and the
    // scaffold once its markers are filled; the scaffold as written fails on its markers alone.
    let authoring = Tutor { bin: bin.clone(), dir: copy.clone() };
    let checked = authoring.run(&["dev", "check"]);
    checked.expect(0);
    for course in [FIRST_COURSE, COURSE, SCAFFOLD] {
        checked.shows(course);
    }
    let scaffold_root = scaffold_root.to_string_lossy().into_owned();
    let unfilled = authoring.run(&["dev", "check", SCAFFOLD, "--root", &scaffold_root]);
    unfilled.expect(1).shows("TODO(author)");

    // An existing course folder gains the new course: `init --force` with the tutor that carries
    // it writes the new course's files, keeps every file the learner wrote, and keeps progress.
    let older = Scratch::new();
    let before = Tutor { bin: PathBuf::from(env!("CARGO_BIN_EXE_tutor")), dir: older.0.clone() };
    before.run(&["init", "course"]).expect(0);
    let taken = Tutor { bin: before.bin.clone(), dir: older.0.join("course") };
    let norm = format!("exercises/{FIRST_COURSE}/02-norm.rs");
    let written = std::fs::read_to_string(repo().join(format!("solutions/{FIRST_COURSE}/02-norm.rs"))).unwrap();
    let written = format!("{written}// the learner's own line\n");
    taken.write(&norm, &written);
    taken.run(&["check", "02-norm"]).expect(0).shows("02-norm passes every check");
    let done_before = taken.run(&["list"]);
    let updated = Tutor { bin: bin.clone(), dir: taken.dir.clone() };
    // In a course folder `init` updates it: the chapters it lacks are added, nothing else moves.
    updated.run(&["init", "--force", "--no-build", "."]).expect(0).shows("added: ").shows(COURSE);
    assert_eq!(std::fs::read_to_string(updated.path(&norm)).unwrap(), written, "the learner's file is kept");
    let fixture_catalogue = read_catalogue(&fixture().join(format!("exercises/{COURSE}/info.toml")));
    for exercise in exercises(&fixture_catalogue) {
        let stub = std::fs::read(fixture().join(field(exercise, "file"))).unwrap();
        assert_eq!(std::fs::read(updated.path(field(exercise, "file"))).unwrap(), stub, "the new course's stub");
    }
    done_before.expect(0).shows(&format!("1/{} done", total_exercises(repo())));
    updated.run(&["list"]).expect(0).shows(&format!("({COURSE})")).shows(&format!("1/{} done", total_exercises(&copy)));
    updated.run(&["check", "02-norm"]).expect(0).shows("02-norm passes every check");

    // init: both courses' stubs, no solution, and the harness built for both kits.
    let scratch = Scratch::new();
    Tutor { bin: bin.clone(), dir: scratch.0.clone() }
        .run(&["init", "course"])
        .expect(0)
        .shows("Created the course folder course");
    let ws = Tutor { bin, dir: scratch.0.join("course") };
    let catalogue = read_catalogue(&fixture().join(format!("exercises/{COURSE}/info.toml")));
    let first = read_catalogue(&repo().join(format!("exercises/{FIRST_COURSE}/info.toml")));
    for exercise in exercises(&catalogue) {
        let stub = std::fs::read(fixture().join(field(exercise, "file"))).unwrap();
        assert_eq!(std::fs::read(ws.path(field(exercise, "file"))).unwrap(), stub, "init writes the stub");
        assert!(!ws.path(field(exercise, "solution")).exists(), "init writes no solution");
    }
    // The editor project lists the fixture's exercises as its grading crate's editor.rs does.
    let editor = std::fs::read_to_string(fixture().join(format!("courses/{COURSE}/grade/editor.rs"))).unwrap();
    assert_eq!(std::fs::read_to_string(ws.path(&format!(".tutor/editor/{COURSE}/lib.rs"))).unwrap(), editor);

    // list: both courses under their titles, and every exercise of the fixture.
    let list = ws.run(&["list"]);
    list.expect(0).shows(&format!("({FIRST_COURSE})")).shows(&format!("({COURSE})"));
    for course in [&first, &catalogue] {
        list.shows(field(&course["course"], "title_en"));
    }
    for exercise in exercises(&catalogue) {
        list.shows(field(exercise, "id")).shows(field(exercise, "title_en"));
    }

    // A course's id names where the learner stands in it: its first exercise, untouched.
    let first_id = field(&exercises(&catalogue)[0], "id");
    ws.run(&["check", COURSE]).expect(1).shows(&format!("Checking {first_id}")).shows("TODO 1 is not written yet");

    // Every exercise of the fixture: its stub fails on its own TODO, its solution passes, by the
    // course-qualified name and by the short one.
    for exercise in exercises(&catalogue) {
        let id = field(exercise, "id");
        let todo = exercise["todo"].as_integer().expect("a TODO number");
        let qualified = format!("{COURSE}/{}", id.split('-').next().unwrap());
        let short = id.split_once('-').expect("NN-name").1;
        ws.run(&["check", &qualified])
            .expect(1)
            .shows(&format!("TODO {todo} is not written yet"))
            .shows(&format!("`tutor hint {id}`"));
        ws.write(field(exercise, "file"), &solution(exercise));
        let passed = ws.run(&["check", &qualified]);
        passed.expect(0).shows(&format!("{id} passes every check"));
        // What comes next is the rest of this course, not the first course's first exercise.
        // Its last exercise ends the course (not every course: RMSNorm is still to do).
        match exercises(&catalogue).iter().skip_while(|e| field(e, "id") != id).nth(1) {
            Some(following) => passed.shows(&format!("Next up: {}", field(following, "id"))).hides("course is done"),
            None => passed.shows(&format!("last exercise of {}", field(&catalogue["course"], "title_en"))),
        };
        ws.run(&["check", short]).expect(0).shows(&format!("{id} passes every check"));
    }

    // Wrong answers get their named mistakes, pointing at a hint of the fixture's lesson.
    let gamma = &exercises(&catalogue)[0];
    let grad = &exercises(&catalogue)[1];
    let mut compared = false;
    for (exercise, right, wrong, mistake) in [
        (gamma, "Array1::ones(dim)", "Array1::zeros(dim)", "gamma-zeros"),
        (gamma, "Ok(x * &self.gamma)", "Ok(x.to_owned())", "gamma-ignored"),
        (grad, "dgamma += &(&g_row * &x_row);", "dgamma = &g_row * &x_row;", "dgamma-not-summed"),
        (grad, "let dx = grad_out * &self.gamma;", "let dx = grad_out.to_owned();", "dx-without-gamma"),
    ] {
        let id = field(exercise, "id");
        let source = solution(exercise);
        assert!(source.contains(right), "{right:?} is not in the solution of {id}");
        ws.write(field(exercise, "file"), &source.replace(right, wrong));
        let report = ws.run(&["check", id, "--format", "json"]);
        report.expect(1);
        let report: serde_json::Value = serde_json::from_str(&report.stdout).expect("a JSON report");
        let checked = &report["exercises"][0];
        let named = &checked["mistakes"][0];
        assert_eq!(named["id"], mistake, "{wrong:?} in {id}:\n{report:#}");
        let level = named["hint"]["level"].as_u64().expect("a hint level");
        let lesson = lesson_of(&catalogue, named["hint"]["exercise"].as_str().expect("an exercise"));
        assert!(section(&lesson, &format!("hint {level} en")).is_some(), "{mistake} points at a missing hint");
        // Every case has a bilingual title; a failed comparison carries assert_close's numbers.
        let tests = report["tests"].as_array().expect("the cases");
        assert!(tests.iter().all(|t| t["title"]["zh"] != t["title"]["en"]), "{report:#}");
        compared |= tests.iter().any(|t| t["mismatch"]["max_abs"].is_number());
        ws.run(&["check", id])
            .expect(1)
            .shows("This looks like a known mistake")
            .shows(&format!("`tutor hint {id} --level {level}`"));
        ws.write(field(exercise, "file"), &solution(exercise));
    }
    assert!(compared, "no wrong answer failed an assert_close comparison");

    // Hints, lessons and reveal come from the fixture's lessons.
    let lesson = lesson_of(&catalogue, field(gamma, "id"));
    let hints = (1..).take_while(|n| section(&lesson, &format!("hint {n} en")).is_some()).count();
    let hint = section(&lesson, "hint 1 en").unwrap();
    ws.run(&["hint", &format!("{COURSE}/01")])
        .expect(0)
        .shows(&format!("Hint 1/{hints} · {}", field(gamma, "id")))
        .shows(first_words(&hint));
    ws.run(&["lesson", "gamma"]).expect(0).shows(first_words(&section(&lesson, "lesson en").unwrap()));
    // The overview: its lesson in both languages, and nothing else.
    let overview = std::fs::read_to_string(fixture().join(field(&catalogue["course"], "overview"))).unwrap();
    for language in ["zh", "en"] {
        assert!(
            section(&overview, &format!("lesson {language}")).is_some_and(|t| !t.is_empty()),
            "overview {language}"
        );
    }
    let mut markers = overview.lines().filter(|l| l.starts_with("<!-- tutor: "));
    assert!(markers.all(|l| l.starts_with("<!-- tutor: lesson ")), "the overview has only the lesson");
    ws.run(&["lesson", COURSE]).expect(0).shows(first_words(&section(&overview, "lesson en").unwrap()));
    let learner_lines = learner_lines(gamma);
    assert!(!learner_lines.is_empty(), "the solution of {} adds nothing to its stub", field(gamma, "id"));
    let refused = ws.run(&["reveal", &format!("{COURSE}/01")]);
    refused.expect(2).hides("STOP HERE");
    learner_lines.iter().for_each(|l| _ = refused.hides(l));
    let revealed = ws.run(&["reveal", &format!("{COURSE}/01"), "--yes"]);
    revealed.expect(0).shows("STOP HERE").shows(first_words(&section(&lesson, "explanation en").unwrap()));
    learner_lines.iter().for_each(|l| _ = revealed.shows(l));

    // RMSNorm, in the same workspace: its stub fails on TODO 2, its solution passes. `2` is
    // exercise 2 of the course being taken (RMSNorm, the first not finished), though the fixture
    // (and every other registered course) has a `02` too.
    ws.run(&["check", "2"])
        .expect(1)
        .shows("TODO 2 is not written yet")
        .shows("02-norm")
        .shows(&format!("`2` is {FIRST_COURSE}/02-norm, in the course you are taking; it also names `"))
        .shows(&format!("`{COURSE}/02-"));
    let norm = format!("exercises/{FIRST_COURSE}/02-norm.rs");
    ws.run(&["check", "02-norm"]).expect(1).shows("TODO 2 is not written yet");
    ws.write(&norm, &std::fs::read_to_string(repo().join(format!("solutions/{FIRST_COURSE}/02-norm.rs"))).unwrap());
    ws.run(&["check", "02-norm"]).expect(0).shows("02-norm passes every check");
}

/// Every file git tracks in the repository, as it is on disk now (files deleted but not yet
/// committed are left out). A tree that is not a git checkout (a source tarball, a `cargo
/// package`) has no git to ask: there, every file but what `.gitignore` leaves out.
fn tracked_files() -> BTreeMap<String, Vec<u8>> {
    // `.git` is a folder in a clone, a file in a worktree.
    if !repo().join(".git").exists() {
        return files_outside_git();
    }
    // Untracked files too (not ignored ones): a course being written is not committed yet.
    let listed = Command::new("git")
        .args(["ls-files", "-z", "--cached", "--others", "--exclude-standard"])
        .current_dir(repo())
        .output()
        .expect("git runs");
    assert!(listed.status.success(), "git ls-files: {}", text(&listed.stderr));
    listed
        .stdout
        .split(|&b| b == 0)
        .filter(|p| !p.is_empty())
        .map(|p| String::from_utf8(p.to_vec()).expect("a UTF-8 path"))
        .filter_map(|p| std::fs::read(repo().join(&p)).ok().map(|bytes| (p, bytes)))
        .collect()
}

/// Every file of a repository tree that is not a checkout, less the top-level paths that
/// `.gitignore` names (`/target`, `/.tutor`: what building and running leave behind).
fn files_outside_git() -> BTreeMap<String, Vec<u8>> {
    let ignore = std::fs::read_to_string(repo().join(".gitignore")).unwrap_or_default();
    let ignored: Vec<&str> = ignore
        .lines()
        .map(|l| l.trim().trim_start_matches('/').trim_end_matches('/'))
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .collect();
    let kept = |path: &str| !ignored.iter().any(|i| path == *i || path.starts_with(&format!("{i}/")));
    files_below(repo()).into_iter().filter(|(path, _)| kept(path)).collect()
}

/// Every file below `dir`, by its path relative to `dir` (`/`-separated), skipping `target/` and
/// `.git/`.
fn files_below(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    fn walk(dir: &Path, base: &Path, out: &mut BTreeMap<String, Vec<u8>>) {
        for entry in std::fs::read_dir(dir).unwrap().flatten() {
            let path = entry.path();
            let relative = path.strip_prefix(base).unwrap().to_string_lossy().replace('\\', "/");
            if relative == "target" || relative == ".git" {
                continue;
            }
            if entry.file_type().unwrap().is_dir() {
                walk(&path, base, out);
            } else {
                out.insert(relative, std::fs::read(&path).unwrap());
            }
        }
    }
    let mut out = BTreeMap::new();
    walk(dir, dir, &mut out);
    out
}

/// Makes `dir` hold exactly `files`: a file is written only when its bytes differ (so that cargo
/// sees unchanged sources as unchanged), and anything else there is removed.
fn sync(dir: &Path, files: &BTreeMap<String, Vec<u8>>) {
    std::fs::create_dir_all(dir).unwrap();
    let present = files_below(dir);
    for (path, bytes) in files {
        if present.get(path) == Some(bytes) {
            continue;
        }
        let at = dir.join(path);
        std::fs::create_dir_all(at.parent().unwrap()).unwrap();
        std::fs::write(&at, bytes).unwrap();
    }
    for path in present.keys().filter(|p| !files.contains_key(*p)) {
        std::fs::remove_file(dir.join(path)).unwrap();
    }
}

/// Scaffolds [`SCAFFOLD`] with `tutor dev new` into a folder holding only `registry` (the
/// repository's `courses/Cargo.toml`), checks that it added one registration line, and returns
/// every file it wrote with its TODO(author) markers filled in, and the folder (markers left).
fn scaffold(registry: &[u8]) -> (BTreeMap<String, Vec<u8>>, PathBuf) {
    let root = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("second-course-scaffold");
    let _ = std::fs::remove_dir_all(&root);
    std::fs::create_dir_all(root.join("courses")).unwrap();
    std::fs::write(root.join("courses/Cargo.toml"), registry).unwrap();
    let made = Command::new(env!("CARGO_BIN_EXE_tutor"))
        .args(["dev", "new", SCAFFOLD, "--root"])
        .arg(&root)
        .env("TUTOR_LANG", "en")
        .env("NO_COLOR", "1")
        .stdin(Stdio::null())
        .output()
        .expect("tutor runs");
    assert!(made.status.success(), "tutor dev new: {}{}", text(&made.stdout), text(&made.stderr));
    let written = files_below(&root);
    let registry_now = text(&written["courses/Cargo.toml"]);
    let added: Vec<&str> = registry_now.lines().filter(|l| !text(registry).lines().any(|old| old == *l)).collect();
    assert_eq!(added.len(), 1, "dev new adds one registration line: {added:?}");
    assert!(written.keys().any(|p| p.starts_with(&format!("courses/{SCAFFOLD}/grade/"))), "{:?}", written.keys());
    let marked = written.values().filter(|b| text(b).contains("TODO(author)")).count();
    assert!(marked > 0, "the scaffold leaves its prose to the author");
    let filled = written
        .into_iter()
        .map(|(path, bytes)| {
            (path, text(&bytes).replace("TODO(author)", "为测试而写 (written for the test)").into_bytes())
        })
        .collect();
    (filled, root)
}

/// The one registration line of the fixture's `registration.toml` (comments aside).
fn registration_line() -> String {
    let text = std::fs::read_to_string(fixture().join(REGISTRATION)).unwrap();
    let lines: Vec<&str> = text.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with('#')).collect();
    assert!(lines.len() == 1, "{REGISTRATION} holds one registration line, not {lines:?}");
    lines[0].to_string()
}

/// Runs cargo in the copy with its own target folder, with none of the variables cargo set for
/// this test (they describe the repository's package, not the copy's).
fn cargo(dir: &Path, target: &Path, args: &[&str]) -> Output {
    let program = std::env::var_os("CARGO").unwrap_or_else(|| OsString::from("cargo"));
    let mut command = Command::new(program);
    let set_for_this_test = [
        "CARGO_PKG_",
        "CARGO_MANIFEST_",
        "CARGO_CRATE_",
        "CARGO_BIN_EXE_",
        "CARGO_PRIMARY_PACKAGE",
        "CARGO_RUSTC_CURRENT_DIR",
        "CARGO_TARGET_TMPDIR",
    ];
    for (key, _) in std::env::vars_os() {
        let key = key.to_string_lossy();
        if set_for_this_test.iter().any(|prefix| key.starts_with(prefix)) {
            command.env_remove(key.as_ref());
        }
    }
    command.args(args).current_dir(dir).env("CARGO_TARGET_DIR", target).stdin(Stdio::null());
    command.output().expect("cargo runs")
}

/// Fails when cargo warned about the fixture's crates.
fn assert_no_fixture_warnings(what: &str, output: &Output) {
    let stderr = text(&output.stderr);
    let warned =
        stderr.lines().any(|l| l.contains("generated") && (l.contains("`scale_kit`") || l.contains("`scale_grade`")));
    assert!(!warned, "{what} warns about the fixture's crates:\n{stderr}");
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// A course's `info.toml`.
/// How many exercises the courses of the checkout at `root` have together.
fn total_exercises(root: &Path) -> usize {
    let catalogues = std::fs::read_dir(root.join("exercises")).unwrap().flatten().map(|e| e.path().join("info.toml"));
    catalogues.filter(|info| info.is_file()).map(|info| exercises(&read_catalogue(&info)).len()).sum()
}

fn read_catalogue(path: &Path) -> toml::Table {
    toml::from_str(&std::fs::read_to_string(path).unwrap()).expect("the catalogue parses")
}

fn exercises(catalogue: &toml::Table) -> &Vec<toml::Value> {
    catalogue["exercises"].as_array().expect("[[exercises]]")
}

fn field<'a>(table: &'a toml::Value, key: &str) -> &'a str {
    table[key].as_str().unwrap_or_else(|| panic!("no {key} in {table}"))
}

/// An exercise's reference solution, from the fixture.
fn solution(exercise: &toml::Value) -> String {
    std::fs::read_to_string(fixture().join(field(exercise, "solution"))).unwrap()
}

/// The lesson of one of the fixture's exercises, by id, after checking the format's rules for it:
/// a lesson, at least three hints numbered without gaps and an explanation, in both languages;
/// and no hint holding a line of code the learner writes.
fn lesson_of(catalogue: &toml::Table, id: &str) -> String {
    let exercise =
        exercises(catalogue).iter().find(|e| field(e, "id") == id).unwrap_or_else(|| panic!("no exercise {id}"));
    let lesson = std::fs::read_to_string(fixture().join(field(exercise, "lesson"))).unwrap();
    let hints = (1..).take_while(|n| section(&lesson, &format!("hint {n} zh")).is_some()).count();
    assert!(hints >= 3, "{id}: {hints} hints, at least three needed");
    let mut parts = vec!["lesson".to_string(), "explanation".to_string()];
    parts.extend((1..=hints).map(|n| format!("hint {n}")));
    for part in parts {
        for language in ["zh", "en"] {
            let text = section(&lesson, &format!("{part} {language}"));
            assert!(text.is_some_and(|t| !t.is_empty()), "{id}: `{part} {language}` is missing or empty");
        }
    }
    assert!(section(&lesson, &format!("hint {} en", hints + 1)).is_none(), "{id}: hints in one language only");
    for n in 1..=hints {
        for language in ["zh", "en"] {
            let hint = section(&lesson, &format!("hint {n} {language}")).unwrap();
            for line in learner_lines(exercise) {
                assert!(!hint.contains(&line), "{id}: hint {n} {language} holds the solution's line {line:?}");
            }
        }
    }
    lesson
}

/// The text of one marked section (`hint 1 en`, `lesson zh` …) of a lesson, trimmed.
fn section(lesson: &str, marker: &str) -> Option<String> {
    let start = format!("<!-- tutor: {marker} -->");
    let after = lesson.split_once(&start)?.1;
    let end = after.find("<!-- tutor: ").unwrap_or(after.len());
    Some(after[..end].trim().to_string())
}

/// The first words of a section (a heading's or a line's, up to any markup) long enough to find
/// in tutor's rendering of the markdown.
fn first_words(section: &str) -> &str {
    section
        .lines()
        .map(|line| {
            let line = line.trim_start_matches('#').trim();
            line[..line.find(['`', '*', '(', '[']).unwrap_or(line.len())].trim()
        })
        .find(|words| words.len() >= 10)
        .unwrap_or_else(|| panic!("no prose to find in {section:?}"))
}

/// The code lines the learner writes: lines of the solution that are not in the stub, comments
/// and lone brackets aside.
fn learner_lines(exercise: &toml::Value) -> Vec<String> {
    let stub = std::fs::read_to_string(fixture().join(field(exercise, "file"))).unwrap();
    let given: BTreeSet<&str> = stub.lines().map(str::trim).collect();
    solution(exercise)
        .lines()
        .map(str::trim)
        .filter(|l| l.len() > 3 && !l.starts_with("//") && !given.contains(l))
        .map(str::to_string)
        .collect()
}

/// A scratch folder, removed when the test is done with it.
struct Scratch(PathBuf);

impl Scratch {
    fn new() -> Scratch {
        let dir = std::env::temp_dir().join(format!("tutor-second-course-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        Scratch(dir)
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// The binary built from the copy, run in a folder.
struct Tutor {
    bin: PathBuf,
    dir: PathBuf,
}

impl Tutor {
    /// Runs `tutor ARGS` in its folder: English only, no colour, no terminal, wide.
    fn run(&self, args: &[&str]) -> Run {
        let output = Command::new(&self.bin)
            .args(args)
            .current_dir(&self.dir)
            .env("TUTOR_LANG", "en")
            .env("NO_COLOR", "1")
            .env("COLUMNS", "1000")
            .stdin(Stdio::null())
            .output()
            .expect("the built tutor runs");
        Run {
            args: args.join(" "),
            code: output.status.code().unwrap_or(-1),
            stdout: text(&output.stdout),
            stderr: text(&output.stderr),
        }
    }

    fn path(&self, relative: &str) -> PathBuf {
        self.dir.join(relative)
    }

    fn write(&self, relative: &str, contents: &str) {
        std::fs::write(self.path(relative), contents).unwrap();
    }
}

/// What one run printed and how it ended.
struct Run {
    args: String,
    code: i32,
    stdout: String,
    stderr: String,
}

impl Run {
    #[track_caller]
    fn expect(&self, code: i32) -> &Self {
        assert_eq!(self.code, code, "`tutor {}`\n--- stdout\n{}\n--- stderr\n{}", self.args, self.stdout, self.stderr);
        self
    }

    #[track_caller]
    fn shows(&self, text: &str) -> &Self {
        let all = format!("{}\n{}", self.stdout, self.stderr);
        assert!(all.contains(text), "expected {text:?} from `tutor {}` in\n{all}", self.args);
        self
    }

    #[track_caller]
    fn hides(&self, text: &str) -> &Self {
        let all = format!("{}\n{}", self.stdout, self.stderr);
        assert!(!all.contains(text), "did not expect {text:?} from `tutor {}` in\n{all}", self.args);
        self
    }
}
