//! Lists the learner-file fixtures of the tests (`tests/alternates/`, `tests/mistakes/`), so that
//! the tests iterate over the folders instead of a list kept by hand: a new file is graded by
//! being there. Writes `$OUT_DIR/fixtures.rs`, which `tests/common/fixtures.rs` includes.

use std::fmt::Write as _;
use std::path::Path;

fn main() {
    let root = std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR");
    let out = std::env::var("OUT_DIR").expect("cargo sets OUT_DIR");
    let mut code = String::new();
    for (folder, list) in [("alternates", "ALTERNATES"), ("mistakes", "MISTAKES"), ("hostile", "HOSTILE")] {
        let dir = Path::new(&root).join("tests").join(folder);
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
        let mut table = format!("/// Every file of `tests/{folder}/`.\npub const {list}: &[Fixture] = &[\n");
        for name in &names {
            let path = dir.join(format!("{name}.rs"));
            let path = path.to_string_lossy();
            let _ = writeln!(table, "    Fixture {{ name: {name:?}, source: include_str!({path:?}) }},");
        }
        table.push_str("];\n\n");
        code.push_str(&table);
        // Hostile files are run through the binary only; the others are also compiled in.
        if folder == "hostile" {
            continue;
        }
        let module = |name: &str| format!("{}_{}", &folder[..1], name.replace('-', "_"));
        let mut builds = format!("/// `RMSNorm::new` of every file of `tests/{folder}/`, in the order of [`{list}`].\npub const {list}_BUILD: &[tutor_kit::Build] = &[\n");
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
