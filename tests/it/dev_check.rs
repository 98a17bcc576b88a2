//! `tutor dev check` and `tutor dev new`, through the built binary. `dev check` passes on every
//! course of the repository (this is how CI runs it), and fails with a named reason on a copy of
//! the repository's content with one thing broken. `dev new` refuses what it must and writes a
//! course's files. Every `dev check` shares one scratch folder per user (under the system's
//! temporary folder), so after the first run the builds are warm.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use common::{repo, Run};

/// Runs `tutor ARGS` in `dir`, English only (unless `lang` says otherwise), no colour.
fn tutor_in(dir: &Path, lang: &str, args: &[&str]) -> Run {
    let output = Command::new(env!("CARGO_BIN_EXE_tutor"))
        .args(args)
        .current_dir(dir)
        .env("TUTOR_LANG", lang)
        .env("NO_COLOR", "1")
        .env("COLUMNS", "1000")
        .stdin(Stdio::null())
        .output()
        .expect("the tutor binary runs");
    Run::from(output)
}

fn tutor(args: &[&str]) -> Run {
    tutor_in(repo(), "en", args)
}

/// A fresh temporary folder, removed on drop.
struct Temp {
    root: PathBuf,
}

impl Temp {
    fn new(name: &str) -> Temp {
        let root = std::env::temp_dir().join(format!("tutor-dev-test-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        std::fs::create_dir_all(&root).expect("a temporary folder");
        Temp { root }
    }

    /// A copy of the repository's content: `exercises/`, `solutions/`, `lessons/`.
    fn content(name: &str) -> Temp {
        let temp = Temp::new(name);
        for dir in ["exercises", "solutions", "lessons"] {
            let copied = Command::new("cp").arg("-r").arg(repo().join(dir)).arg(&temp.root).status().expect("cp runs");
            assert!(copied.success(), "copying {dir}/");
        }
        temp
    }

    /// A copy of the repository's content and of its grading side (`courses/`): a checkout as an
    /// author has it.
    fn checkout(name: &str) -> Temp {
        let temp = Temp::content(name);
        let copied =
            Command::new("cp").arg("-r").arg(repo().join("courses")).arg(&temp.root).status().expect("cp runs");
        assert!(copied.success(), "copying courses/");
        temp
    }

    fn path(&self, relative: &str) -> PathBuf {
        self.root.join(relative)
    }

    fn read(&self, relative: &str) -> String {
        std::fs::read_to_string(self.path(relative)).unwrap_or_else(|e| panic!("{relative}: {e}"))
    }

    fn edit(&self, relative: &str, change: impl FnOnce(String) -> String) {
        let changed = change(self.read(relative));
        std::fs::write(self.path(relative), changed).expect("writing the copy");
    }

    /// `tutor dev check COURSE --root` this copy.
    fn dev_check(&self, course: &str) -> Run {
        let root = self.root.to_string_lossy().into_owned();
        tutor(&["dev", "check", course, "--root", &root])
    }
}

impl Drop for Temp {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.root);
    }
}

/// One exercise of a course's catalogue, by its paths.
struct Entry {
    id: String,
    file: String,
    solution: String,
    lesson: String,
}

/// The first registered course's id and its exercises, from its catalogue.
fn first_course() -> (String, Vec<Entry>) {
    let course = common::courses().into_iter().next().expect("the repository has a course");
    let text = std::fs::read_to_string(repo().join("exercises").join(&course).join("info.toml")).expect("a catalogue");
    let catalogue: toml::Table = toml::from_str(&text).expect("the catalogue parses");
    let field = |e: &toml::Value, key: &str| e[key].as_str().expect("a catalogue field").to_string();
    let entries = catalogue["exercises"]
        .as_array()
        .expect("[[exercises]]")
        .iter()
        .map(|e| Entry {
            id: field(e, "id"),
            file: field(e, "file"),
            solution: field(e, "solution"),
            lesson: field(e, "lesson"),
        })
        .collect();
    (course, entries)
}

/// `source` without the section that starts at `marker` (up to the next marker).
fn without_section(source: &str, marker: &str) -> String {
    let start = source.find(marker).unwrap_or_else(|| panic!("{marker} is in the lesson"));
    let end = source[start + marker.len()..].find("<!-- tutor:").map_or(source.len(), |i| start + marker.len() + i);
    format!("{}{}", &source[..start], &source[end..])
}

#[test]
fn every_course_of_the_repository_passes_from_the_binary_and_from_the_checkout() {
    let root = repo().to_string_lossy().into_owned();
    let courses = common::courses().len();
    let checkout_line = format!("content: {root}; grading code: compiled into this tutor");
    // In the checkout, with and without --root: the checkout's content, its grading side compared.
    for args in [vec!["dev", "check"], vec!["dev", "check", "--root", &root]] {
        let run = tutor(&args);
        run.expect(0).shows("every check passes").shows(&checkout_line).hides("✗").hides("  – ");
        for course in common::courses() {
            run.shows(&format!("Course {course} · "));
        }
        assert_eq!(run.stdout.matches("  ✓ ").count(), 10 * courses, "{}", run.stdout);
    }
    // Elsewhere: the content compiled in, with nothing to compare the grading side with.
    let elsewhere = Temp::new("compiled-in");
    let run = tutor_in(&elsewhere.root, "en", &["dev", "check"]);
    run.expect(0)
        .shows("every check passes")
        .shows("content: compiled in; grading code: compiled into this tutor")
        .shows("– the grading code and kit in the folder are those compiled into this tutor (not checked")
        .hides("✗");
    assert_eq!(run.stdout.matches("  ✓ ").count(), 8 * courses, "{}", run.stdout);
    assert_eq!(run.stdout.matches("  – ").count(), 2 * courses, "{}", run.stdout);
}

#[test]
fn in_a_checkout_dev_check_reads_it_without_root() {
    let (course, entries) = first_course();
    let checkout = Temp::checkout("current-folder");
    let lesson = &entries[0].lesson;
    checkout.edit(lesson, |text| format!("{text}\nTODO(author): say more.\n"));
    let dir = std::fs::canonicalize(&checkout.root).expect("the copy exists");
    tutor_in(&checkout.root, "en", &["dev", "check", &course])
        .expect(1)
        .shows(&format!("content: {}; grading code: compiled into this tutor", dir.display()))
        .shows("✓ the grading code and kit in the folder are those compiled into this tutor")
        .shows("✓ the grading crate's editor.rs lists the catalogue's exercises")
        .shows(&format!("{lesson}: 1 TODO(author) marker(s) left"));
}

#[test]
fn stale_grading_code_in_the_root_is_named() {
    let (course, _) = first_course();
    let checkout = Temp::checkout("stale-grading");
    checkout.edit(&format!("courses/{course}/grade/src/lib.rs"), |text| format!("{text}\n// An edit not built yet.\n"));
    let root = checkout.root.to_string_lossy().into_owned();
    checkout
        .dev_check(&course)
        .expect(1)
        .shows("✗ the grading code and kit in the folder are those compiled into this tutor")
        .shows(&format!(
            "courses/{course}/grade: the grading code or kit in {root} (courses/{course}/grade, courses/{course}/kit) \
             is not what was compiled into this tutor"
        ))
        .shows("rebuild tutor from")
        .shows("(`cargo run -- dev check`)");
    // The kit counts too.
    let kit = Temp::checkout("stale-kit");
    kit.edit(&format!("courses/{course}/kit/Cargo.toml"), |text| format!("{text}\n# An edit not built yet.\n"));
    kit.dev_check(&course).expect(1).shows(&format!("courses/{course}/grade: the grading code or kit in"));
}

#[test]
fn a_stale_editor_rs_is_named_with_the_text_to_copy() {
    let (course, entries) = first_course();
    let checkout = Temp::checkout("stale-editor");
    let editor = format!("courses/{course}/grade/editor.rs");
    let expected = checkout.read(&editor);
    let last = entries.last().expect("an exercise");
    let last_line = format!("#[path = \"../../../{}\"]", last.file);
    let stale = format!("#[path = \"../../../exercises/{course}/09-old.rs\"]");
    checkout.edit(&editor, |text| text.replace(&last_line, &stale));
    checkout
        .dev_check(&course)
        .expect(1)
        .shows("✗ the grading crate's editor.rs lists the catalogue's exercises")
        .shows(&format!(
            "{editor}: it does not list the catalogue's exercises as tutor writes them (missing: {last_line}; \
             not in the catalogue: {stale}); it should read (between the dashed lines):"
        ))
        .shows(&format!("----\n{expected}----"));
    std::fs::remove_file(checkout.path(&editor)).expect("removing editor.rs");
    checkout
        .dev_check(&course)
        .expect(1)
        .shows(&format!("{editor}: the file does not exist; it lists the exercises for editors"))
        .shows(&expected);
}

#[test]
fn a_stub_that_passes_is_named() {
    let (course, entries) = first_course();
    let content = Temp::content("stub-passes");
    let exercise = &entries[0];
    std::fs::write(content.path(&exercise.file), content.read(&exercise.solution)).expect("writing the stub");
    let run = content.dev_check(&course);
    run.expect(1)
        .shows("✗ every stub fails on its own TODO")
        .shows(&format!("{}: the stub passes every case: it must fail on its TODO 1", exercise.file))
        .shows("✓ every solution passes every case");
}

#[test]
fn a_solution_that_fails_is_named() {
    let (course, entries) = first_course();
    let content = Temp::content("solution-fails");
    let exercise = entries.last().expect("an exercise");
    std::fs::write(content.path(&exercise.solution), content.read(&exercise.file)).expect("writing the solution");
    let run = content.dev_check(&course);
    run.expect(1)
        .shows("✗ every solution passes every case")
        .shows(&format!("{}: ", exercise.solution))
        .shows("case(s) fail (seed ")
        .shows("is not done yet")
        .shows("✓ every stub fails on its own TODO");
}

#[test]
fn a_missing_hint_translation_is_named() {
    let (course, entries) = first_course();
    let content = Temp::content("hint-translation");
    let lesson = &entries[0].lesson;
    content.edit(lesson, |text| without_section(&text, "<!-- tutor: hint 2 zh -->"));
    content
        .dev_check(&course)
        .expect(1)
        .shows("✗ every lesson parses, with every section in both languages")
        .shows(&format!("{lesson}: the section `hint 2 zh` is missing or empty"));
}

#[test]
fn a_mistake_pointing_at_a_missing_hint_is_named() {
    // A mistake of a registered course that points at hint 3 of one of its exercises.
    let (course, mistake) = tutor_courses::COURSES
        .iter()
        .find_map(|c| c.grading.mistakes().iter().find(|m| m.hint == 3).map(|m| (c.id.to_string(), m)))
        .expect("some mistake points at a hint 3");
    let content = Temp::content("mistake-hint");
    let text = content.read(&format!("exercises/{course}/info.toml"));
    let catalogue: toml::Table = toml::from_str(&text).expect("the catalogue parses");
    let lesson = catalogue["exercises"]
        .as_array()
        .and_then(|list| list.iter().find(|e| e["id"].as_str() == Some(mistake.exercise)))
        .and_then(|e| e["lesson"].as_str())
        .expect("the mistake's exercise is catalogued")
        .to_string();
    content.edit(&lesson, |text| {
        without_section(&without_section(&text, "<!-- tutor: hint 3 zh -->"), "<!-- tutor: hint 3 en -->")
    });
    content
        .dev_check(&course)
        .expect(1)
        .shows("✗ every known mistake points at an exercise and a hint that exist")
        .shows(&format!(
            "courses/{course}/grade: mistake `{}` points at hint 3 of {}, and its lesson {lesson} has 2 hint(s)",
            mistake.id, mistake.exercise
        ));
}

/// `text` without whitespace.
fn squeezed(text: &str) -> String {
    text.chars().filter(|c| !c.is_whitespace()).collect()
}

/// The first line of a solution that its stub lacks (whitespace aside), with at least 12
/// characters besides whitespace, that satisfies `wanted`; and its exercise.
fn written_line<'a>(entries: &'a [Entry], content: &Temp, wanted: impl Fn(&str) -> bool) -> (&'a Entry, String) {
    entries
        .iter()
        .find_map(|e| {
            let stub = squeezed(&content.read(&e.file));
            let solution = content.read(&e.solution);
            let line = solution.lines().map(str::trim).find(|l| {
                let key = squeezed(l.trim_end_matches(';'));
                key.len() >= 12 && !l.starts_with("//") && !stub.contains(&key) && wanted(l)
            })?;
            Some((e, line.to_string()))
        })
        .expect("a solution writes such a line")
}

#[test]
fn a_hint_that_holds_solution_code_is_named() {
    let (course, entries) = first_course();
    let content = Temp::content("hint-code");
    // A `let` line the learner writes, quoted in a hint without its spaces.
    let (exercise, line) = written_line(&entries, &content, |l| l.starts_with("let ") && l.contains(' '));
    let quoted = squeezed(&line);
    content.edit(&exercise.lesson, |text| {
        text.replacen("<!-- tutor: hint 1 en -->\n", &format!("<!-- tutor: hint 1 en -->\nWrite `{quoted}`.\n"), 1)
    });
    content.dev_check(&course).expect(1).shows("✗ no hint holds a line of the solution's code").shows(&format!(
        "{}: the section `hint 1 en` holds a line of the solution's code ({}): `{line}`",
        exercise.lesson, exercise.solution
    ));
}

#[test]
fn a_hint_that_holds_a_line_other_than_a_let_is_named() {
    let (course, entries) = first_course();
    let content = Temp::content("hint-statement");
    // A statement or expression the learner writes (no `let`, no import), in a Chinese hint's
    // code block.
    let (exercise, line) = written_line(&entries, &content, |l| !l.starts_with("let ") && !l.starts_with("use "));
    content.edit(&exercise.lesson, |text| {
        text.replacen(
            "<!-- tutor: hint 2 zh -->\n",
            &format!("<!-- tutor: hint 2 zh -->\n答案：\n```\n{line}\n```\n"),
            1,
        )
    });
    content
        .dev_check(&course)
        .expect(1)
        .shows("✗ no hint holds a line of the solution's code")
        .shows(&format!("{}: the section `hint 2 zh` holds a line of the solution's code", exercise.lesson))
        .shows(&format!("`{line}`"));
}

#[test]
fn a_chinese_section_written_in_english_is_named() {
    let (course, entries) = first_course();
    let content = Temp::content("zh-in-english");
    let lesson = &entries[0].lesson;
    content.edit(lesson, |text| {
        let start = text.find("<!-- tutor: hint 1 zh -->\n").expect("hint 1 zh") + "<!-- tutor: hint 1 zh -->\n".len();
        let end = text.find("<!-- tutor: hint 1 en -->").expect("hint 1 en");
        format!("{}Think about the shape first.\n\n{}", &text[..start], &text[end..])
    });
    content
        .dev_check(&course)
        .expect(1)
        .shows("✗ every lesson parses, with every section in both languages")
        .shows(&format!("{lesson}: the section `hint 1 zh` has no Chinese character: write it in Chinese"));
}

#[test]
fn a_code_block_too_wide_for_the_terminal_is_named() {
    let (course, entries) = first_course();
    let content = Temp::content("wide-code");
    let lesson = &entries[0].lesson;
    // 59 columns: fits a lesson (78), not a hint (58, as hints are read at 60).
    let line = format!("let wide = {};", "1".repeat(47));
    content.edit(lesson, |text| {
        text.replacen("<!-- tutor: hint 1 en -->\n", &format!("<!-- tutor: hint 1 en -->\n```\n{line}\n```\n"), 1)
    });
    content
        .dev_check(&course)
        .expect(1)
        .shows("✗ every lesson parses, with every section in both languages")
        .shows(&format!("{lesson}: a code block line of `hint 1 en` is 59 columns wide, over 58"))
        .shows(&format!("`{line}`"));
}

#[test]
fn a_catalogue_naming_a_missing_file_is_named() {
    let (course, entries) = first_course();
    let content = Temp::content("missing-file");
    let exercise = &entries[0];
    std::fs::remove_file(content.path(&exercise.solution)).expect("removing the solution");
    content
        .dev_check(&course)
        .expect(1)
        .shows("✗ the catalogue names files that exist")
        .shows(&format!(
            "exercises/{course}/info.toml: `solution = \"{}\"` ({}) names a file that does not exist",
            exercise.solution, exercise.id
        ))
        .shows(&format!("{}: the file does not exist", exercise.solution));
}

#[test]
fn an_author_marker_left_is_named() {
    let (course, entries) = first_course();
    let content = Temp::content("author-marker");
    let lesson = &entries[0].lesson;
    content.edit(lesson, |text| format!("{text}\nTODO(author): say more.\n"));
    content
        .dev_check(&course)
        .expect(1)
        .shows("✗ no TODO(author) marker is left")
        .shows(&format!("{lesson}: 1 TODO(author) marker(s) left, the first on line"));
}

#[test]
fn dev_check_refuses_an_unknown_course_and_a_missing_root() {
    tutor(&["dev", "check", "no-such-course"]).expect(2).shows("there is no registered course `no-such-course`");
    let missing = std::env::temp_dir().join(format!("tutor-dev-test-nowhere-{}", std::process::id()));
    let missing = missing.to_string_lossy().into_owned();
    tutor(&["dev", "check", "--root", &missing]).expect(2).shows("is not a folder");
    let empty = Temp::new("not-a-checkout");
    let empty = empty.root.to_string_lossy().into_owned();
    tutor(&["dev", "check", "--root", &empty]).expect(2).shows("it has no exercises/");
}

/// A folder that looks like a checkout to `dev new`: the registry's manifest, copied.
fn registry_copy(name: &str) -> Temp {
    let temp = Temp::new(name);
    std::fs::create_dir_all(temp.path("courses")).expect("courses/");
    std::fs::copy(repo().join("courses/Cargo.toml"), temp.path("courses/Cargo.toml")).expect("copying the registry");
    temp
}

#[test]
fn dev_new_refuses_a_bad_name_and_an_existing_course_in_both_languages() {
    let checkout = registry_copy("new-refusals");
    let root = checkout.root.to_string_lossy().into_owned();
    let before = checkout.read("courses/Cargo.toml");
    for bad in ["Demo", "2d", "soft-max", "self", "tutor"] {
        tutor_in(repo(), "both", &["dev", "new", bad, "--root", &root])
            .expect(2)
            .shows(&format!("`{bad}` cannot name a course"))
            .shows(&format!("`{bad}` 不能作为课程名"));
    }
    let registered = common::courses().into_iter().next().expect("a course");
    std::fs::create_dir_all(checkout.path(&format!("lessons/{registered}"))).expect("a course folder");
    tutor_in(repo(), "both", &["dev", "new", &registered, "--root", &root])
        .expect(2)
        .shows(&format!("a course `{registered}` exists already"))
        .shows(&format!("课程 `{registered}` 已经存在"));
    assert_eq!(checkout.read("courses/Cargo.toml"), before, "a refusal writes nothing");
    assert!(!checkout.path("exercises").exists(), "a refusal writes nothing");
    // Outside a checkout there is nowhere to write.
    let elsewhere = Temp::new("new-elsewhere");
    tutor_in(&elsewhere.root, "en", &["dev", "new", "demo"]).expect(2).shows("it has no courses/Cargo.toml");
}

#[test]
fn dev_new_writes_a_course_and_registers_it_without_overwriting() {
    let checkout = registry_copy("new-writes");
    let before = checkout.read("courses/Cargo.toml");
    tutor_in(&checkout.root, "en", &["dev", "new", "demo"])
        .expect(0)
        .shows("Created the course demo")
        .shows("replace every TODO(author)");
    for file in [
        "exercises/demo/info.toml",
        "exercises/demo/01-scale.rs",
        "solutions/demo/01-scale.rs",
        "lessons/demo/00-overview.md",
        "lessons/demo/01-scale.md",
        "courses/demo/kit/Cargo.toml",
        "courses/demo/kit/src/lib.rs",
        "courses/demo/grade/Cargo.toml",
        "courses/demo/grade/src/lib.rs",
        "courses/demo/grade/src/cases/mod.rs",
        "courses/demo/grade/src/cases/scale.rs",
        "courses/demo/grade/src/mistakes.rs",
        "courses/demo/grade/src/text.rs",
        "courses/demo/grade/src/oracle.rs",
        "courses/demo/grade/editor.rs",
    ] {
        assert!(checkout.path(file).is_file(), "{file} is written");
    }
    let stub = checkout.read("exercises/demo/01-scale.rs");
    assert!(stub.contains("TODO 1 is not done yet") && stub.contains("TODO 1 尚未完成"), "{stub}");
    assert!(!checkout.read("solutions/demo/01-scale.rs").contains("todo!("));
    assert!(checkout.read("lessons/demo/01-scale.md").contains("TODO(author)"), "prose is left to the author");
    assert!(checkout
        .read("courses/demo/grade/editor.rs")
        .contains("#[path = \"../../../exercises/demo/01-scale.rs\"]"));
    let kit: toml::Table = toml::from_str(&checkout.read("courses/demo/kit/Cargo.toml")).expect("the kit's manifest");
    assert_eq!(kit["package"]["name"].as_str(), Some("demo_kit"));
    // The calls are declared on the generic protocol: no encoding, loop or caller of its own.
    let kit = checkout.read("courses/demo/kit/src/lib.rs");
    assert!(kit.contains("tutor_subject::course_protocol!") && !kit.contains("fn encode"), "{kit}");
    // The chapter layout every course has: its lib.rs is the declared boilerplate and its modules.
    let lib = checkout.read("courses/demo/grade/src/lib.rs");
    assert!(lib.contains("tutor_grade::course!") && lib.contains("pub mod cases;"), "{lib}");
    assert!(
        !checkout.read("courses/demo/grade/src/mistakes.rs").contains("crate::cases"),
        "mistakes never import cases"
    );
    let grade: toml::Table =
        toml::from_str(&checkout.read("courses/demo/grade/Cargo.toml")).expect("the grade manifest");
    assert_eq!(grade["package"]["name"].as_str(), Some("demo_grade"));

    let registry = checkout.read("courses/Cargo.toml");
    let line = "demo = { path = \"demo/grade\", package = \"demo_grade\" }\n";
    assert_eq!(registry.replacen(line, "", 1), before, "one line is added, and nothing else changes");
    let manifest: toml::Table = toml::from_str(&registry).expect("the registry stays TOML");
    let demo = &manifest["dependencies"]["demo"];
    assert_eq!((demo["path"].as_str(), demo["package"].as_str()), (Some("demo/grade"), Some("demo_grade")));

    // A second time, nothing is overwritten.
    std::fs::write(checkout.path("lessons/demo/01-scale.md"), "mine").expect("an author's edit");
    tutor_in(&checkout.root, "en", &["dev", "new", "demo"]).expect(2).shows("a course `demo` exists already");
    assert_eq!(checkout.read("lessons/demo/01-scale.md"), "mine");
    assert_eq!(checkout.read("courses/Cargo.toml"), registry);
}
