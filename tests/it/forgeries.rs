//! Issue 28's forgeries, through the built binary: learner files that once forged a pass by
//! reaching the kit's answer to their own TODO inside their graded program (`tests/hostile/*/
//! forgery-*.rs`, chapter 3's routes among them: attention read off the module or the backward,
//! the softmax off attention, RoPE's frequencies off what `Attention::new` holds), and
//! `check --all --format json` over a folder of such files. Since each
//! exercise's program holds only the given pieces its cases need, each fails, saying which piece
//! is not part of the program.

use crate::common;

use common::fixtures::{Fixture, HOSTILE};
use common::Course;
use serde_json::Value;

/// The `//! key:` header lines of a file.
fn headers<'a>(source: &'a str, key: &str) -> Vec<&'a str> {
    let prefix = format!("//! {key}:");
    source.lines().filter_map(|l| l.strip_prefix(&prefix)).map(str::trim).collect()
}

fn check_forgery(course: &Course, fixture: &Fixture) {
    let exercise = fixture.header("exercise").unwrap_or_else(|| panic!("{}: no `//! exercise:` line", fixture.name));
    course.write_exercise_of(fixture.course, exercise, fixture.source);
    let key = format!("{}/{exercise}", fixture.course);
    let run = course.tutor(&["check", &key, "--verbose"]);
    run.expect(1).hides("passes every check").hides("panicked at");
    let shows = headers(fixture.source, "shows");
    assert!(!shows.is_empty(), "{}: say what the output shows", fixture.name);
    for text in shows {
        run.shows(text);
    }
}

#[test]
fn each_forgery_fails_saying_what_its_program_lacks() {
    let course = Course::new("forgeries");
    let forgeries: Vec<&Fixture> = HOSTILE.iter().filter(|f| f.name.starts_with("forgery-")).collect();
    assert!(forgeries.len() >= 5, "{} forgeries", forgeries.len());
    for fixture in forgeries {
        check_forgery(&course, fixture);
    }
    course.tutor(&["list"]).expect(0).shows(&common::done(0));
}

#[test]
fn check_all_over_files_that_call_the_kits_answers_passes_none() {
    let course = Course::new("forgeries-all");
    // Each exercise's file is the solution of the next exercise of its course: that TODO written
    // out, and every other method, this exercise's own TODO included, calling the kit's piece.
    let chapters = ["rmsnorm", "swiglu", "attention"];
    for chapter in chapters {
        let ids: Vec<String> = common::exercises_of(chapter).into_iter().map(|(id, _)| id).collect();
        for (i, id) in ids.iter().enumerate() {
            let other = &ids[(i + 1) % ids.len()];
            let solution =
                std::fs::read_to_string(common::repo().join("solutions").join(chapter).join(format!("{other}.rs")))
                    .unwrap();
            course.write_exercise_of(chapter, id, &solution);
        }
    }
    let run = course.tutor(&["check", "--all", "--format", "json"]);
    run.expect(1);
    let report: Value = serde_json::from_str(&run.stdout).unwrap_or_else(|e| panic!("not JSON ({e}):\n{}", run.stdout));
    assert_ne!(report["status"], "pass", "{}", run.stdout);
    let exercises = report["exercises"].as_array().expect("one entry per exercise");
    assert_eq!(exercises.len(), common::total_exercises(), "{}", run.stdout);
    for entry in exercises {
        assert_ne!(entry["status"], "pass", "{entry}");
        let (passed, all) = (entry["passed"].as_u64().unwrap(), entry["total"].as_u64().unwrap());
        assert!(passed * 4 <= all, "{entry}: at most a quarter passes on what is given");
        let cases =
            report["tests"].as_array().expect("every case").iter().filter(|c| c["exercise"] == entry["exercise"]);
        let said = cases
            .into_iter()
            .any(|case| case["message"]["en"].as_str().is_some_and(|m| m.contains("is not part of exercise")));
        assert!(said, "{entry}: no case says which piece the program lacks");
    }
    course.tutor(&["list"]).expect(0).shows(&common::done(0));
}
