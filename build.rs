//! Lists files from their folders, so that nothing is listed by hand: a new file counts by being
//! there.
//! - `$OUT_DIR/embedded.rs`: the course files (`exercises/`, `solutions/`, `lessons/`) and the
//!   subject crate (`crates/subject`), compiled into the binary (`src/course/embedded.rs`).
//! - `$OUT_DIR/fixtures.rs`: the learner files the tests grade (`tests/alternates/`,
//!   `tests/mistakes/`, `tests/hostile/`, and the stubs and solutions), for `tests/common/fixtures.rs`.

use std::fmt::Write as _;
use std::path::Path;

fn main() {
    let root = std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR");
    let out = std::env::var("OUT_DIR").expect("cargo sets OUT_DIR");
    let mut code = String::new();
    std::fs::write(Path::new(&out).join("embedded.rs"), embedded(Path::new(&root))).expect("OUT_DIR is writable");
    for (folder, list) in [
        ("tests/alternates", "ALTERNATES"),
        ("tests/mistakes", "MISTAKES"),
        ("tests/hostile", "HOSTILE"),
        ("exercises", "STUBS"),
        ("solutions", "SOLUTIONS"),
    ] {
        let dir = Path::new(&root).join(folder);
        println!("cargo:rerun-if-changed={}", dir.display());
        let mut names: Vec<String> = std::fs::read_dir(&dir)
            .map(|entries| {
                entries
                    .filter_map(|e| e.ok())
                    .filter_map(|e| e.file_name().to_str().and_then(|n| n.strip_suffix(".rs")).map(str::to_string))
                    .collect()
            })
            .unwrap_or_default();
        names.sort();
        let mut table = format!("/// Every file of `{folder}/`.\npub const {list}: &[Fixture] = &[\n");
        for name in &names {
            let path = dir.join(format!("{name}.rs"));
            let path = path.to_string_lossy();
            let _ = writeln!(table, "    Fixture {{ name: {name:?}, source: include_str!({path:?}) }},");
        }
        table.push_str("];\n\n");
        code.push_str(&table);
        // Hostile files are run through the binary only; the others are also compiled in.
        if folder == "tests/hostile" {
            continue;
        }
        let module = |name: &str| format!("{}_{}", list.to_lowercase(), name.replace('-', "_"));
        let mut builds = format!("/// `RMSNorm::new` of every file of `{folder}/`, in the order of [`{list}`].\npub const {list}_BUILD: &[tutor_kit::Build] = &[\n");
        for name in &names {
            let path = dir.join(format!("{name}.rs"));
            let m = module(name);
            let _ = writeln!(
                code,
                "#[path = {:?}]\n#[allow(dead_code, unused_imports, clippy::all)]\nmod {m};\ntutor_kit::graded_subject!({w}, {m}::RMSNorm);",
                path.to_string_lossy(),
                w = camel(&m)
            );
            let _ = writeln!(builds, "    {}::build,", camel(&m));
        }
        builds.push_str("];\n\n");
        code.push_str(&builds);
    }
    std::fs::write(Path::new(&out).join("fixtures.rs"), code).expect("OUT_DIR is writable");
}

/// The files compiled into the binary: every course file by its path in a workspace, and the
/// subject crate by its path in `crates/subject`.
fn embedded(root: &Path) -> String {
    let mut code = String::from("/// The catalogue, stubs, solutions and lessons, by their path in a workspace.\npub const COURSE_FILES: &[EmbeddedFile] = &[\n");
    for folder in ["exercises", "solutions", "lessons"] {
        for path in files_below(&root.join(folder)) {
            let relative = path.strip_prefix(root).expect("below the root").to_string_lossy().replace('\\', "/");
            if relative.ends_with("README.md") {
                continue;
            }
            let _ = writeln!(
                code,
                "    EmbeddedFile {{ path: {relative:?}, contents: include_str!({:?}) }},",
                path.to_string_lossy()
            );
        }
    }
    code.push_str("];\n\n/// The subject crate, by its path in `crates/subject`; written into the grading harness as its\n/// `kit` package. Its manifest travels verbatim.\npub const KIT_FILES: &[EmbeddedFile] = &[\n");
    let subject = root.join("crates/subject");
    let mut kit = vec![subject.join("Cargo.toml")];
    kit.extend(files_below(&subject.join("src")));
    for path in kit {
        let relative = path.strip_prefix(&subject).expect("below the crate").to_string_lossy().replace('\\', "/");
        let _ = writeln!(
            code,
            "    EmbeddedFile {{ path: {relative:?}, contents: include_str!({:?}) }},",
            path.to_string_lossy()
        );
    }
    code.push_str("];\n");
    code
}

/// Every file below `dir`, sorted, and a rerun of the build script when any of them changes.
fn files_below(dir: &Path) -> Vec<std::path::PathBuf> {
    println!("cargo:rerun-if-changed={}", dir.display());
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let path = entry.path();
        if path.is_dir() {
            out.extend(files_below(&path));
        } else {
            out.push(path);
        }
    }
    out.sort();
    out
}

/// `m_d_minus_one` → `MDMinusOne`: the wrapper type's name.
fn camel(snake: &str) -> String {
    snake
        .split('_')
        .map(|word| {
            let mut chars = word.chars();
            chars.next().map(|c| c.to_ascii_uppercase().to_string() + chars.as_str()).unwrap_or_default()
        })
        .collect()
}
