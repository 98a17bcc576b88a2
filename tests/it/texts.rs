//! Texts that say only what is true in the learner's folder, through the built binary.

use crate::common;

use common::Course;

#[test]
fn reveal_names_no_file_the_learners_folder_does_not_have() {
    let course = Course::cold("texts-reveal");
    for (id, _) in common::exercises() {
        for lang in ["zh", "en"] {
            let run = course.tutor_with(&["reveal", &id, "--yes"], |c| {
                c.env("TUTOR_LANG", lang);
            });
            run.expect(0);
            // Every path it names is one the learner has.
            for word in run.stdout.split_whitespace() {
                let path = word.trim_matches(|c: char| !(c.is_alphanumeric() || "/._-".contains(c)));
                if path.ends_with(".rs") && path.contains('/') {
                    assert!(course.root.join(path).is_file(), "{id}, {lang}: reveal names {path}, not in the folder");
                }
            }
            assert!(!run.stdout.contains("solutions/"), "{id}, {lang}:\n{}", run.stdout);
            let header =
                if lang == "en" { format!("The reference solution of {id}") } else { format!("{id} 的参考答案") };
            run.shows(&header);
        }
    }
}
