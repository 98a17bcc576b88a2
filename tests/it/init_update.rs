//! An existing course folder gains the chapters a newer tutor carries, by `tutor init` in it,
//! without touching a file the learner wrote, with progress kept. The folder of an older tutor is
//! simulated: it has a chapter this tutor does not know (its files are the learner's) and lacks
//! the ones this tutor carries.

use crate::common;

use common::Course;

#[test]
fn init_in_a_course_folder_adds_the_missing_chapters_and_keeps_everything() {
    let course = Course::cold("init-update");
    let exercises = course.root.join("exercises");
    let courses = common::courses();
    // The older folder: one chapter of its own, none of this tutor's.
    for id in &courses {
        std::fs::remove_dir_all(exercises.join(id)).unwrap();
    }
    std::fs::create_dir_all(exercises.join("older")).unwrap();
    std::fs::write(exercises.join("older/info.toml"), "[course]\ntitle_en = \"An older chapter\"\n").unwrap();
    let mine = "// my own work, not to be touched\n";
    std::fs::write(exercises.join("older/01-mine.rs"), mine).unwrap();
    std::fs::write(course.root.join("notes.md"), "my notes\n").unwrap();
    std::fs::create_dir_all(course.root.join(".tutor")).unwrap();
    let state = "version = 2\n\n[exercises.\"older/01-mine\"]\nstatus = \"passed\"\nchecks = 4\nhints = 2\n";
    std::fs::write(course.root.join(".tutor/state.toml"), state).unwrap();

    let root = course.root.to_string_lossy().into_owned();
    let run = course.tutor(&["init", &root, "--no-build"]);
    run.expect(0).shows("added: ").shows("Your files and progress are as they were");
    for id in &courses {
        run.shows(id);
        for (exercise, _) in common::exercises_of(id) {
            let file = exercises.join(id).join(format!("{exercise}.rs"));
            assert!(file.is_file(), "{} was not added", file.display());
        }
    }
    assert_eq!(std::fs::read_to_string(exercises.join("older/01-mine.rs")).unwrap(), mine);
    assert_eq!(std::fs::read_to_string(course.root.join("notes.md")).unwrap(), "my notes\n");
    let kept = course.state();
    assert!(kept.contains("[exercises.\"older/01-mine\"]") && kept.contains("checks = 4"), "{kept}");

    // The new chapter is there to take, and a learner's work in it survives a second init.
    course.tutor(&["list"]).expect(0).shows("01-weight").hides("brought up to date");
    course.write_exercise("01-weight", "// my attempt\n");
    course.tutor(&["init", &root, "--no-build"]).expect(0).shows("already has every chapter");
    // The chapter that has `01-weight` (the first in course order, not in the sorted ids).
    let weight =
        courses.iter().find(|id| exercises.join(id).join("01-weight.rs").is_file()).expect("a chapter with 01-weight");
    assert_eq!(std::fs::read_to_string(exercises.join(weight).join("01-weight.rs")).unwrap(), "// my attempt\n");
    assert_eq!(course.state(), kept, "a second init changes no progress");
}
