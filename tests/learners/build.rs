//! Lists the learner files the tests grade from their folders, so that nothing is listed by hand:
//! a new file counts by being there, and a new course by its folders. For every course (each
//! `exercises/<id>/` with an `info.toml`), `$OUT_DIR/fixtures.rs` holds `tests/alternates/<id>/`,
//! `tests/mistakes/<id>/`, `tests/hostile/<id>/`, and the course's stubs and solutions, for
//! `src/lib.rs`. Every file but the hostile ones is also compiled in, with the server its
//! course's kit declares (`graded_server!`), so that the tests grade it in process through the
//! same calls as a graded program. (The courses' own files are compiled into tutor by
//! `courses/build.rs`.) Nothing here names a course.
//!
//! For each table, a macro `each_<table>!(check)` writes one `#[test]` per file, calling
//! `check(&TABLE[i])`: the test harness runs them in parallel, reports every failing file by its
//! name, and `cargo test --test it <course>_<file>` runs one.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// The folders of learner files, each with its table's name; `{}` is the course's id.
const FOLDERS: [(&str, &str); 5] = [
    ("tests/alternates/{}", "ALTERNATES"),
    ("tests/mistakes/{}", "MISTAKES"),
    ("tests/hostile/{}", "HOSTILE"),
    ("exercises/{}", "STUBS"),
    ("solutions/{}", "SOLUTIONS"),
];

fn main() {
    let here = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR"));
    // This crate is `tests/learners/` of the repository.
    let root = here.join("../..").canonicalize().expect("the repository");
    let out = PathBuf::from(std::env::var("OUT_DIR").expect("cargo sets OUT_DIR"));
    println!("cargo:rerun-if-changed={}", root.join("exercises").display());
    let courses = courses(&root);
    let mut code = String::new();
    for (folder, list) in FOLDERS {
        let mut table =
            format!("/// Every file of `{folder}/`, for every course.\npub const {list}: &[Fixture] = &[\n");
        let mut tests = format!(
            "/// One `#[test]` per file of [`{list}`], each calling `$check(&{list}[i])`.\n#[macro_export]\n\
             macro_rules! each_{} {{\n    ($check:path) => {{\n",
            list.to_lowercase()
        );
        let mut index = 0;
        for course in &courses {
            let dir = root.join(folder.replace("{}", course));
            println!("cargo:rerun-if-changed={}", dir.display());
            for name in rust_files(&dir) {
                let path = dir.join(format!("{name}.rs"));
                let server = if list == "HOSTILE" {
                    // Hostile files are run through the binary only.
                    "None".to_string()
                } else {
                    let module = format!("{}_{course}_{name}", list.to_lowercase()).replace('-', "_");
                    code.push_str(&compiled_in(&out, &path, course, &module));
                    format!("Some({module}::server)")
                };
                let _ = writeln!(
                    table,
                    "    Fixture {{ course: {course:?}, name: {name:?}, source: include_str!({:?}), server: {server} }},",
                    path.to_string_lossy()
                );
                let test = format!("{course}_{name}").replace(|c: char| !c.is_ascii_alphanumeric(), "_");
                let _ = writeln!(tests, "        #[test]\n        fn {test}() {{ $check(&$crate::{list}[{index}]) }}");
                index += 1;
            }
        }
        table.push_str("];\n\n");
        tests.push_str("    };\n}\n\n");
        code.push_str(&table);
        code.push_str(&tests);
    }
    std::fs::write(out.join("fixtures.rs"), code).expect("OUT_DIR is writable");
    println!("cargo:rustc-env=TUTOR_COMMIT={}", commit(&root));
}

/// The commit tutor is built from, for `tutor --version` (two builds of one version told
/// apart): `TUTOR_BUILD_COMMIT` when a packager sets it, else git's short hash, else `unknown`
/// (a source archive without git). The build script runs again when HEAD moves.
fn commit(root: &Path) -> String {
    println!("cargo:rerun-if-env-changed=TUTOR_BUILD_COMMIT");
    if let Some(commit) = std::env::var("TUTOR_BUILD_COMMIT").ok().filter(|c| !c.trim().is_empty()) {
        return commit.trim().to_string();
    }
    let git = |args: &[&str]| -> Option<String> {
        let output = std::process::Command::new("git").args(args).current_dir(root).output().ok()?;
        let text = String::from_utf8(output.stdout).ok()?;
        (output.status.success() && !text.trim().is_empty()).then(|| text.trim().to_string())
    };
    // HEAD itself, and the branch it names (a new commit changes only the branch's ref).
    for watched in ["HEAD".to_string(), git(&["rev-parse", "--symbolic-full-name", "HEAD"]).unwrap_or_default()] {
        if let Some(path) = git(&["rev-parse", "--git-path", &watched]).filter(|_| !watched.is_empty()) {
            println!("cargo:rerun-if-changed={}", root.join(path).display());
        }
    }
    git(&["rev-parse", "--short=10", "HEAD"]).unwrap_or_else(|| "unknown".to_string())
}

/// Every course: each folder of `exercises/` with a catalogue, sorted.
fn courses(root: &Path) -> Vec<String> {
    let mut ids: Vec<String> = std::fs::read_dir(root.join("exercises"))
        .into_iter()
        .flatten()
        .flatten()
        .filter(|e| e.path().join("info.toml").is_file())
        .filter_map(|e| e.file_name().to_str().map(str::to_string))
        .collect();
    ids.sort();
    ids
}

/// The names (without `.rs`) of the Rust files of `dir`, sorted; none when it does not exist.
fn rust_files(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|e| e.file_name().to_str().and_then(|n| n.strip_suffix(".rs")).map(str::to_string))
        .collect();
    names.sort();
    names
}

/// A module holding the learner file at `path` and its server. The file is copied beside the
/// generated code with one line more, which names its course's kit `tutor_kit` inside it (as a
/// graded program's harness does), so that files of several courses live in one test crate.
fn compiled_in(out: &Path, path: &Path, course: &str, module: &str) -> String {
    let source = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("reading {}: {e}", path.display()));
    let copy = out.join(format!("{module}.rs"));
    let kit = format!("::tutor_courses::{}::tutor_kit", course.replace('-', "_"));
    let text = format!("{source}\n#[allow(unused_imports)]\nuse {kit};\n");
    std::fs::write(&copy, text).expect("OUT_DIR is writable");
    format!(
        "#[allow(dead_code, unused_imports, clippy::all)]\npub mod {module} {{\n    #[path = {:?}]\n    mod file;\n    \
         /// The file's calls, served in this process.\n    \
         pub fn server() -> Box<dyn ::tutor_grade::tutor_subject::serve::Server> {{\n        \
         Box::new({kit}::graded_server!(file))\n    }}\n}}\n",
        copy.to_string_lossy()
    )
}
