//! Every wrong solution in `tests/mistakes/`, checked through the real binary: the output names
//! the mistake its file declares, in both languages, with the hint that addresses it.

mod common;

use common::Course;

#[test]
fn the_check_output_names_each_mistake() {
    let course = Course::new("mistakes");
    let mut files: Vec<_> =
        std::fs::read_dir(common::repo().join("tests/mistakes")).unwrap().map(|e| e.unwrap().path()).collect();
    files.sort();
    assert!(files.len() >= 13, "one wrong solution per named mistake");
    for path in files {
        let source = std::fs::read_to_string(&path).unwrap();
        let id = source.lines().find_map(|l| l.strip_prefix("//! mistake: ")).expect("a `//! mistake:` line").trim();
        let mistake = tutor_kit::mistakes::find(id).unwrap_or_else(|| panic!("{id} is not a known mistake"));
        let title = tutor_kit::text::mistake_title(id);
        course.write_exercise("02-norm", &source);
        let run = course.tutor_with(&["check", "02-norm"], |c| {
            c.env("TUTOR_LANG", "both");
        });
        run.expect(1)
            .shows(&title.en)
            .shows(&title.zh)
            .shows(&format!("tutor hint {} --level {}", mistake.exercise, mistake.hint));
    }
}
