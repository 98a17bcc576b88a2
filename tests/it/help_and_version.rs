//! What `--help` and `--version` print, through the built binary (issue 32): the help fits the
//! terminal's width in every language (clap left lines of 175 columns), and the version tells
//! two builds apart: the version, the commit and the chapters carried.

use crate::common;

use std::process::Command;

fn tutor(args: &[&str], lang: &str, columns: usize) -> String {
    let output = Command::new(env!("CARGO_BIN_EXE_tutor"))
        .args(args)
        .env("TUTOR_LANG", lang)
        .env("COLUMNS", columns.to_string())
        .env("NO_COLOR", "1")
        .output()
        .expect("tutor runs");
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    String::from_utf8(output.stdout).expect("UTF-8")
}

/// Display columns: two for a CJK character (every wide character the help uses).
fn columns(line: &str) -> usize {
    line.chars().map(|c| if ('\u{2e80}'..='\u{ffef}').contains(&c) { 2 } else { 1 }).sum()
}

#[test]
fn help_pages_fit_the_terminal_in_every_language() {
    for width in [60, 80] {
        for lang in ["en", "zh", "both"] {
            for page in [&["--help"][..], &["init", "--help"], &["check", "--help"], &["dev", "check", "--help"]] {
                let text = tutor(page, lang, width);
                assert!(text.lines().count() > 5, "{page:?}: {text}");
                for line in text.lines() {
                    assert!(columns(line) <= width, "{page:?} {lang} at {width} columns: {line:?}");
                }
            }
        }
    }
    // Nothing is lost in the wrapping: the longest sentence is there, word for word.
    let wide = tutor(&["--help"], "en", 1000);
    let narrow = tutor(&["--help"], "en", 60);
    let words = |t: &str| t.split_whitespace().map(str::to_string).collect::<Vec<_>>();
    assert_eq!(words(&wide), words(&narrow));
}

#[test]
fn the_version_names_the_commit_and_the_chapters() {
    let version = tutor(&["--version"], "en", 80);
    assert!(version.starts_with(&format!("tutor {} (commit ", env!("CARGO_PKG_VERSION"))), "{version}");
    for course in common::courses() {
        assert!(version.contains(&course), "{course} not named: {version}");
    }
    // Built from a git checkout: its commit (else the build says `unknown`).
    let head = Command::new("git").args(["rev-parse", "--short=10", "HEAD"]).current_dir(common::repo()).output();
    match head {
        Ok(head) if head.status.success() && std::env::var_os("TUTOR_BUILD_COMMIT").is_none() => {
            let head = String::from_utf8_lossy(&head.stdout).trim().to_string();
            assert!(version.contains(&format!("commit {head};")), "{version} is not built from {head}");
        }
        _ => assert!(!version.contains("commit ;"), "{version}"),
    }
}
