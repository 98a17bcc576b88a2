//! What learners read names only what they have (issue 32): no lesson, stub or kit comment points
//! into tutor's repository (`courses/swiglu/fixtures`, `docs/swiglu-api.md` were named), and the
//! README's opening names every chapter.

use crate::common;

/// Paths of tutor's repository that a course folder does not have.
const REPOSITORY_ONLY: [&str; 5] = ["courses/", "docs/", "solutions/", "crates/", "fixtures/"];

#[test]
fn lessons_and_stubs_name_no_path_of_the_repository() {
    let mut read = 0;
    for course in common::courses() {
        for dir in [format!("lessons/{course}"), format!("exercises/{course}")] {
            for entry in std::fs::read_dir(common::repo().join(&dir)).unwrap() {
                let path = entry.unwrap().path();
                let text = std::fs::read_to_string(&path).unwrap();
                read += 1;
                for (n, line) in text.lines().enumerate() {
                    for place in REPOSITORY_ONLY {
                        assert!(
                            !line.contains(&format!("`{place}")) && !line.contains(&format!("({place}")),
                            "{}:{}: names {place}, which a course folder does not have: {line}",
                            path.display(),
                            n + 1
                        );
                    }
                }
            }
        }
    }
    assert!(read > 10, "only {read} files read");
}

#[test]
fn the_readme_opening_names_every_chapter() {
    let readme = std::fs::read_to_string(common::repo().join("README.md")).unwrap();
    let opening = &readme[..readme.find("\n## ").expect("the README has sections")];
    let (english, chinese) = opening.split_once("**中文**").expect("both languages open the README");
    for course in common::courses() {
        let info: toml::Table = toml::from_str(
            &std::fs::read_to_string(common::repo().join(format!("exercises/{course}/info.toml"))).unwrap(),
        )
        .unwrap();
        // The chapter's short name: its English title before the colon (`SwiGLU MLP: …` → SwiGLU).
        let title = info["course"]["title_en"].as_str().unwrap();
        let name = title.split([':', ' ']).next().unwrap();
        assert!(english.contains(&format!("**{name}**")), "the English opening does not name {name}");
        assert!(chinese.contains(&format!("**{name}**")), "the Chinese opening does not name {name}");
    }
}
