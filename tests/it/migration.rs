//! A workspace from the one-course layout (before courses had folders) opens with every file and
//! every bit of progress where the new layout expects them.

use crate::common;

use common::Course;

#[test]
fn a_one_course_workspace_is_migrated_without_losing_work() {
    let course = Course::new("migration");
    // The old layout: the catalogue and the files at the top of exercises/, progress by bare id.
    let exercises = course.root.join("exercises");
    std::fs::remove_dir_all(&exercises).unwrap();
    std::fs::create_dir_all(&exercises).unwrap();
    let catalogue = std::fs::read_to_string(common::repo().join("exercises/rmsnorm/info.toml")).unwrap();
    std::fs::write(exercises.join("info.toml"), catalogue.replace("/rmsnorm/", "/")).unwrap();
    for (id, _) in common::exercises() {
        std::fs::write(exercises.join(format!("{id}.rs")), Course::stub(&id)).unwrap();
    }
    std::fs::write(exercises.join("01-weight.rs"), Course::solution("01-weight")).unwrap();
    std::fs::write(
        course.root.join(".tutor/state.toml"),
        "version = 1\n\n[exercises.01-weight]\nstatus = \"passed\"\nchecks = 2\nhints = 1\n",
    )
    .unwrap();

    let first = course.tutor(&["list"]);
    first.expect(0).shows("Workspace brought up to date").shows(&common::done(1)).shows("hints 1/3");
    assert!(!exercises.join("01-weight.rs").exists());
    assert_eq!(std::fs::read_to_string(exercises.join("rmsnorm/01-weight.rs")).unwrap(), Course::solution("01-weight"));
    assert!(course.root.join(".tutor/legacy-info.toml").is_file(), "the old catalogue is kept aside");
    assert!(course.state().contains("[exercises.\"rmsnorm/01-weight\"]"), "{}", course.state());

    // Once is enough, and the moved files are checked where they are now.
    course.tutor(&["list"]).expect(0).hides("brought up to date").shows(&common::done(1));
    course.tutor(&["check", "01"]).expect(0).shows("01-weight passes every check");
}
