//! What `cargo run` and `cargo test` do in a course folder, where Rust learners type them out of
//! habit. The folder's `Cargo.toml` (see [`super::editor`]) has one more member, by default the
//! only one cargo builds: a small package with no dependencies whose program says what to run
//! instead, and whose test (`harness = false`) runs every exercise's check through tutor, one
//! line per exercise, the first failure in full. The editor libraries link the kit, a dylib, and
//! cannot be linked into a test binary: their tests are off.

use crate::course::lesson::Language;
use crate::course::Catalogue;
use crate::text;

/// Where the package lives, relative to the workspace.
pub const DIR: &str = ".tutor/editor/run";

/// Its manifest.
pub fn manifest() -> String {
    "# Written by tutor: what `cargo run` and `cargo test` do in a course folder.\n\
     [package]\nname = \"tutor-course-checks\"\nversion = \"0.0.0\"\nedition = \"2021\"\npublish = false\n\n\
     [[bin]]\nname = \"course\"\npath = \"main.rs\"\ntest = false\n\n\
     [[test]]\nname = \"checks\"\npath = \"checks.rs\"\nharness = false\n"
        .to_string()
}

/// The width the programs' sentences are wrapped to: they run under cargo, which tells them no
/// terminal width, and any terminal is at least this wide.
const COLUMNS: usize = 78;

/// A sentence of the CLI's text as a Rust expression that picks its language when the program
/// runs (`TUTOR_LANG`, as tutor reads it: zh, en, else both), each language wrapped to
/// [`COLUMNS`]. It suggests `tutor`, the command that program runs, whatever started this tutor.
fn both(pick: fn(&text::Ui) -> &'static str) -> String {
    let [zh, en] = Language::BOTH
        .map(|l| crate::render::wrap::wrap(&pick(text::ui(l)).replace("{tutor}", "tutor"), "", "  ", COLUMNS));
    format!("said({zh:?}, {en:?})")
}

/// The function [`both`]'s expressions call, in each program tutor writes.
const SAID: &str = r#"
/// A sentence in the language TUTOR_LANG asks for (zh, en; anything else: both), as tutor reads it.
fn said(zh: &'static str, en: &'static str) -> String {
    match std::env::var("TUTOR_LANG").unwrap_or_default().to_lowercase().as_str() {
        "zh" | "cn" | "zh-cn" => zh.to_string(),
        "en" => en.to_string(),
        _ => format!("{zh}\n{en}"),
    }
}
"#;

/// `cargo run`'s program: what to run instead.
pub fn main_rs() -> String {
    format!(
        "//! Written by tutor: a course folder has no program of its own to run.\n\n\
         fn main() {{\n    println!(\"{{}}\", {});\n    std::process::exit(2);\n}}\n{SAID}",
        both(|u| u.cargo_run_instead)
    )
}

/// `cargo test`'s test: every exercise's check, through the tutor at `tutor` (this one) when it
/// is still there, else `$TUTOR`, else `tutor` on PATH.
pub fn checks_rs(catalogue: &Catalogue, tutor: &str) -> String {
    let keys: Vec<String> = catalogue.exercises.iter().map(|e| format!("{:?}", e.key())).collect();
    format!(
        "{}{SAID}\nconst EXERCISES: &[&str] = &[{}];\nconst WRITTEN_BY: &str = {:?};\n\
         fn not_found() -> String {{\n    {}\n}}\n\nfn not_all_passed() -> String {{\n    {}\n}}\n",
        CHECKS_PROGRAM,
        keys.join(", "),
        tutor,
        both(|u| u.cargo_test_no_tutor),
        both(|u| u.cargo_test_failed),
    )
}

/// The test program's code; the constants it reads follow it.
const CHECKS_PROGRAM: &str = r#"//! Written by tutor: `cargo test` in a course folder runs every exercise's check through tutor.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

fn tutor() -> Command {
    let program = std::env::var_os("TUTOR")
        .map(PathBuf::from)
        .or_else(|| Path::new(WRITTEN_BY).is_file().then(|| PathBuf::from(WRITTEN_BY)))
        .unwrap_or_else(|| PathBuf::from("tutor"));
    let mut command = Command::new(program);
    // What cargo tells this test about itself is not tutor's business.
    for (name, _) in std::env::vars_os() {
        let name = name.to_string_lossy().into_owned();
        let cargos = ["CARGO_PKG_", "CARGO_MANIFEST_", "CARGO_CRATE_", "CARGO_BIN_", "CARGO_PRIMARY_", "CARGO_TARGET_TMPDIR"];
        if name == "CARGO" || cargos.iter().any(|p| name.starts_with(p)) {
            command.env_remove(name);
        }
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../..");
    command.arg("--workspace").arg(root).stdin(Stdio::null());
    command
}

fn main() {
    let mut failed = 0;
    for key in EXERCISES {
        let output = match tutor().args(["check", key]).output() {
            Ok(output) => output,
            Err(_) => {
                eprintln!("{}", not_found());
                std::process::exit(2);
            }
        };
        if output.status.success() {
            println!("check {key} ... ok");
            continue;
        }
        println!("check {key} ... FAILED");
        if failed == 0 {
            println!("\n{}{}", String::from_utf8_lossy(&output.stdout), String::from_utf8_lossy(&output.stderr));
        }
        failed += 1;
    }
    println!("\n{}/{} ok", EXERCISES.len() - failed, EXERCISES.len());
    if failed > 0 {
        println!("{}", not_all_passed());
        std::process::exit(1);
    }
}
"#;
