//! Lists the learner files the tests grade from their folders, so that nothing is listed by hand:
//! a new file counts by being there. `$OUT_DIR/fixtures.rs` holds `tests/alternates/`,
//! `tests/mistakes/`, `tests/hostile/`, and the RMSNorm course's stubs and solutions, for
//! `tests/common/fixtures.rs`. (The courses' own files are compiled in by `courses/build.rs`.)

use std::fmt::Write as _;
use std::path::Path;

fn main() {
    let root = std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR");
    let out = std::env::var("OUT_DIR").expect("cargo sets OUT_DIR");
    let mut code = String::new();
    for (folder, list) in [
        ("tests/alternates", "ALTERNATES"),
        ("tests/mistakes", "MISTAKES"),
        ("tests/hostile", "HOSTILE"),
        ("exercises/rmsnorm", "STUBS"),
        ("solutions/rmsnorm", "SOLUTIONS"),
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
            let m = module(&name.replace('/', "_"));
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
