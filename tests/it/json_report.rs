//! `tutor check --format json`: one JSON document on stdout, valid against the documented
//! schema (`docs/check-report.schema.json`), with the exit codes of the text report.

use crate::common;

use tutor_courses::rmsnorm as rmsnorm_grade;

use common::schema::Schema;
use common::Course;
use serde_json::Value;

/// The documented schema (only the subset `common::schema` checks; it refuses any other keyword).
fn validator() -> Schema {
    let schema: Value =
        serde_json::from_str(include_str!("../../docs/check-report.schema.json")).expect("the schema is JSON");
    Schema::new(schema).unwrap_or_else(|e| panic!("docs/check-report.schema.json: {e}"))
}

/// Runs `tutor ARGS`, checks the exit code, and returns stdout parsed and validated.
#[track_caller]
fn document(course: &Course, args: &[&str], code: i32) -> Value {
    let run = course.tutor(args);
    run.expect(code);
    let document: Value =
        serde_json::from_str(&run.stdout).unwrap_or_else(|e| panic!("stdout is not JSON ({e}):\n{}", run.stdout));
    let errors = validator().errors(&document);
    assert!(errors.is_empty(), "not valid against the schema:\n{}\n{}", errors.join("\n"), run.stdout);
    document
}

#[test]
fn every_report_is_valid_against_its_schema() {
    let course = Course::new("json");
    // What `check 02` runs: the cases of TODO 2.
    let cases = rmsnorm_grade::cases::all().iter().filter(|case| case.belongs_to(2)).count();

    // A pass.
    course.write_exercise("02-norm", &Course::solution("02-norm"));
    let passed = document(&course, &["check", "02", "--format", "json"], 0);
    assert_eq!(passed["status"], "pass");
    assert_eq!(passed["tests"].as_array().unwrap().len(), cases);
    assert_eq!(passed["exercises"][0]["exercise"], "02-norm");
    assert_eq!(passed["exercises"][0]["course"], "rmsnorm");
    assert!(passed["exercises"][0]["seed"].is_u64());

    // A failure with a named mistake, and the seed that repeats it.
    let wrong = std::fs::read_to_string(common::repo().join("tests/mistakes/rmsnorm/layernorm.rs")).unwrap();
    course.write_exercise("02-norm", &wrong);
    let failed = document(&course, &["check", "02", "--format", "json", "--seed", "5"], 1);
    assert_eq!(failed["status"], "fail");
    assert_eq!(failed["exercises"][0]["seed"], 5);
    assert_eq!(failed["exercises"][0]["mistakes"][0]["id"], "layernorm");
    assert_eq!(failed["exercises"][0]["mistakes"][0]["hint"]["exercise"], "02-norm");
    let failing: Vec<&Value> = failed["tests"].as_array().unwrap().iter().filter(|t| t["status"] == "fail").collect();
    assert!(
        !failing.is_empty() && failing.iter().all(|t| t["message"]["en"].is_string() && t["message"]["zh"].is_string())
    );

    // An exercise that does not compile: an error, with what tutor would say.
    course.write_exercise("02-norm", "fn broken( {");
    let broken = document(&course, &["check", "02", "--format", "json"], 1);
    assert_eq!(broken["status"], "error");
    assert!(broken["exercises"][0]["message"].as_str().unwrap().contains("does not compile"), "{broken}");
    assert!(!broken["exercises"][0]["message"].as_str().unwrap().contains('\u{1b}'), "colour codes in JSON");

    // Every exercise at once: the stubs are TODO, one status for the whole run.
    course.write_exercise("02-norm", &Course::stub("02-norm"));
    let all = document(&course, &["check", "--all", "--format", "json"], 1);
    assert_eq!(all["exercises"].as_array().unwrap().len(), common::total_exercises(), "every course's exercises");
    assert_eq!(all["status"], "fail");
    assert!(all["tests"].as_array().unwrap().iter().any(|t| t["status"] == "todo"));
    // Each exercise with its own cases.
    for (id, todo) in common::exercises() {
        let own = rmsnorm_grade::cases::all().iter().filter(|case| case.belongs_to(todo as u32)).count();
        let of_exercise = all["tests"].as_array().unwrap().iter().filter(|t| t["exercise"] == *id);
        assert_eq!(of_exercise.count(), own, "{id}");
    }
}

#[test]
fn the_schema_rejects_what_is_not_a_report() {
    // The test above can only fail if the schema can: a document missing a field, or with a
    // status the schema does not know, is refused.
    let validator = validator();
    let bad = serde_json::json!({ "version": 1, "status": "maybe", "tests": [], "exercises": [] });
    assert!(!validator.is_valid(&bad));
    let missing = serde_json::json!({ "version": 1, "status": "pass", "tests": [] });
    assert!(!validator.is_valid(&missing));
}
