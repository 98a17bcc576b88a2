//! `tutor dev new NAME [--root DIR]`: scaffolds a course into a repository checkout and registers
//! it in `courses/Cargo.toml`. It refuses a name that cannot be a course's id, or a course that
//! exists already, and never overwrites a file.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, Result};
use colored::Colorize;

use crate::errors::CliError;
use crate::fsutil::below::write_below;
use crate::fsutil::OnFile;
use crate::render::Printer;

use super::scaffold;

/// Where courses are registered, relative to the repository.
const REGISTRY: &str = "courses/Cargo.toml";

/// Names a course may not have: Rust's keywords (the id is a crate name in the registry), the
/// crates every course builds on, and tutor's own packages (`tutor_kit`, `tutor_grade` …).
const RESERVED: &[&str] = &[
    "abstract",
    "alloc",
    "as",
    "async",
    "await",
    "become",
    "box",
    "break",
    "const",
    "continue",
    "core",
    "crate",
    "do",
    "dyn",
    "else",
    "enum",
    "extern",
    "false",
    "final",
    "fn",
    "for",
    "gen",
    "if",
    "impl",
    "in",
    "let",
    "loop",
    "macro",
    "match",
    "mod",
    "move",
    "mut",
    "override",
    "priv",
    "proc_macro",
    "pub",
    "ref",
    "return",
    "self",
    "static",
    "std",
    "struct",
    "super",
    "test",
    "trait",
    "true",
    "try",
    "type",
    "typeof",
    "unsafe",
    "unsized",
    "use",
    "virtual",
    "where",
    "while",
    "yield",
    "tutor",
];

/// Scaffolds course `name` into the checkout at `root` (default: the current folder).
pub fn run(printer: &Printer, name: &str, root: Option<&Path>) -> Result<ExitCode> {
    if !is_valid_name(name) {
        return Err(CliError::DevBadName(name.to_string()).into());
    }
    let root = checkout(root)?;
    let registry_path = root.join(REGISTRY);
    let registry = std::fs::read_to_string(&registry_path).with_context(|| OnFile::read(&registry_path))?;
    refuse_existing(&root, name, &registry)?;
    let registered = register(&registry, name).with_context(|| format!("{REGISTRY} has no [dependencies] table"))?;

    let files = scaffold::files(name)?;
    for (path, contents) in &files {
        create_new(&root, &root.join(path), contents)?;
    }
    write_below(&root, &registry_path, &registered)?;

    println!("{}", printer.lines(|u| u.dev_new_created, &[("name", &name), ("dir", &root.display())]).green());
    for (path, _) in &files {
        println!("  {path}");
    }
    println!("  {REGISTRY}  + {}", scaffold::registration(name));
    println!("\n{}", printer.lines(|u| u.dev_new_next, &[("name", &name)]));
    Ok(ExitCode::SUCCESS)
}

/// `root` (or the current folder) as an absolute path, when it is a checkout of the tutor
/// repository (it has `courses/Cargo.toml`).
fn checkout(root: Option<&Path>) -> Result<PathBuf> {
    let here = std::env::current_dir().context("reading the current folder")?;
    let dir = match root {
        None => here,
        Some(dir) if dir.is_absolute() => dir.to_path_buf(),
        Some(dir) => here.join(dir),
    };
    if !dir.is_dir() {
        return Err(CliError::DevNotAFolder(dir).into());
    }
    if !dir.join(REGISTRY).is_file() {
        return Err(CliError::DevNotARepository { dir, missing: REGISTRY }.into());
    }
    Ok(dir)
}

/// `[a-z][a-z0-9_]*`, and not a reserved name.
pub fn is_valid_name(name: &str) -> bool {
    let mut chars = name.chars();
    chars.next().is_some_and(|c| c.is_ascii_lowercase())
        && chars.all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
        && !RESERVED.contains(&name)
        && !name.starts_with("tutor_")
}

/// Refuses a course whose folders or registration exist already.
fn refuse_existing(root: &Path, name: &str, registry: &str) -> Result<()> {
    for dir in ["exercises", "solutions", "lessons", "courses"] {
        let path = root.join(dir).join(name);
        if path.symlink_metadata().is_ok() {
            return Err(CliError::DevCourseExists { name: name.to_string(), path }.into());
        }
    }
    let manifest: toml::Table = registry.parse().with_context(|| format!("reading {REGISTRY}"))?;
    if manifest.get("dependencies").and_then(|d| d.get(name)).is_some() {
        return Err(CliError::DevCourseExists { name: name.to_string(), path: root.join(REGISTRY) }.into());
    }
    Ok(())
}

/// The registry's text with course `name`'s line added as the last line of `[dependencies]`;
/// `None` when it has no such table.
pub fn register(registry: &str, name: &str) -> Option<String> {
    let lines: Vec<&str> = registry.lines().collect();
    let start = lines.iter().position(|l| l.trim() == "[dependencies]")?;
    let end =
        lines[start + 1..].iter().position(|l| l.trim_start().starts_with('[')).map_or(lines.len(), |i| start + 1 + i);
    // After the table's last line that is not blank.
    let at = (start + 1..end).rev().find(|&i| !lines[i].trim().is_empty()).map_or(start + 1, |i| i + 1);
    let line = scaffold::registration(name);
    let mut out: Vec<&str> = lines[..at].to_vec();
    out.push(&line);
    out.extend_from_slice(&lines[at..]);
    Some(out.join("\n") + "\n")
}

/// Writes a file below `root` that must not exist yet (its folders are made, none a link).
fn create_new(root: &Path, path: &Path, contents: &str) -> Result<()> {
    if let Some(dir) = path.parent() {
        crate::fsutil::below::real_folders_below(root, dir)?;
    }
    let mut file =
        std::fs::OpenOptions::new().write(true).create_new(true).open(path).with_context(|| OnFile::write(path))?;
    file.write_all(contents.as_bytes()).with_context(|| OnFile::write(path))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_lowercase_identifiers_that_tutor_does_not_use() {
        for good in ["demo", "softmax", "rope2", "flash_attention"] {
            assert!(is_valid_name(good), "{good}");
        }
        for bad in ["", "Demo", "2d", "_x", "soft-max", "a b", "self", "std", "tutor", "tutor_kit", "café"] {
            assert!(!is_valid_name(bad), "{bad}");
        }
    }

    #[test]
    fn the_registration_line_ends_the_dependencies_table() {
        let registry = "[package]\nname = \"x\"\n\n[dependencies]\na = 1\nb = 2\n\n[build-dependencies]\nc = 3\n";
        let registered = register(registry, "demo").unwrap();
        let expected = "demo = { path = \"demo/grade\", package = \"demo_grade\" }";
        assert_eq!(
            registered,
            format!(
                "[package]\nname = \"x\"\n\n[dependencies]\na = 1\nb = 2\n{expected}\n\n[build-dependencies]\nc = 3\n"
            )
        );
        assert_eq!(register("[dependencies]\n", "demo").unwrap(), format!("[dependencies]\n{expected}\n"));
        assert_eq!(register("[package]\n", "demo"), None);
        let table: toml::Table = registered.parse().unwrap();
        assert_eq!(table["dependencies"]["demo"]["package"].as_str(), Some("demo_grade"));
    }
}
