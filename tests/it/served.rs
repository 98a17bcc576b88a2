//! Each exercise's graded program serves only the learner's functions and methods its cases call,
//! in the element types they use (`tutor_subject::served`; each course's table is its grading's
//! `served.rs`). The tables are recorded here, in process: every learner file of the tests graded
//! as `tutor check` grades it (a wrong file on its own exercise's cases, the solutions, stubs and
//! alternates on every exercise's), with the calls the cases made noted. A table that misses a
//! call would make a check fail on tutor's side ("not served"); so each must be what is recorded
//! now. `TUTOR_WRITE_SERVED=1 cargo test --test it served::` writes the tables anew.

use crate::common;

use std::collections::{BTreeMap, BTreeSet};

use common::fixtures::{Fixture, ALTERNATES, MISTAKES, SOLUTIONS, STUBS};
use tutor_grade::served::{noting, table};

/// The seeds each file is graded with: a call a diagnosis makes may depend on the inputs.
const SEEDS: [u64; 2] = [12_345, 7];

/// What exercise `todo` of `fixture`'s course calls when it grades `fixture`.
fn calls(fixture: &Fixture, todo: u32) -> BTreeSet<(u8, u8)> {
    let mut calls = BTreeSet::new();
    for seed in SEEDS {
        let grade = || noting(|| fixture.registered().grading.grade_exercise(&fixture.channel(), seed, todo)).1;
        let noted = std::thread::scope(|scope| match scope.spawn(|| common::panics::quietly(grade)).join() {
            Ok(noted) => noted,
            Err(panic) => std::panic::resume_unwind(panic),
        });
        calls.extend(noted);
    }
    calls
}

/// Every exercise's calls, by TODO, recorded over the course's learner files.
fn recorded(course: &str) -> BTreeMap<u32, BTreeSet<(u8, u8)>> {
    let exercises = common::exercises_of(course);
    let todo_of = |id: &str| exercises.iter().find(|(e, _)| e == id).map(|(_, todo)| *todo as u32);
    let mut recorded: BTreeMap<u32, BTreeSet<(u8, u8)>> =
        exercises.iter().map(|(_, todo)| (*todo as u32, BTreeSet::new())).collect();
    let files = [MISTAKES, ALTERNATES, SOLUTIONS, STUBS].into_iter().flatten();
    for fixture in files.filter(|f| f.course == course && f.server.is_some()) {
        // A wrong file is checked on its exercise; the others may stand in any exercise's file.
        let todos: Vec<u32> = match fixture.header("exercise").and_then(todo_of) {
            Some(todo) if fixture.header("mistake").is_some() => vec![todo],
            _ => recorded.keys().copied().collect(),
        };
        for todo in todos {
            recorded.entry(todo).or_default().extend(calls(fixture, todo));
        }
    }
    recorded
}

/// The course's `served.rs`, as the test writes it.
fn served_rs(recorded: &BTreeMap<u32, BTreeSet<(u8, u8)>>) -> String {
    let mut text = String::from(
        "//! Written by `tests/it/served.rs`: see `tutor_grade::Course::served`.\n\n\
         /// What each exercise's graded program serves.\n\
         pub const SERVED: &[(u32, &[(u8, u8)])] = &[\n",
    );
    for (todo, calls) in recorded {
        let pairs: Vec<String> = table(calls).iter().map(|(tag, bits)| format!("({tag}, {bits:#07b})")).collect();
        text.push_str(&format!("    ({todo}, &[{}]),\n", pairs.join(", ")));
    }
    text.push_str("];\n");
    text
}

/// Whether `course`'s table is what its cases call now.
fn check_course(course: &str) {
    let registered = SOLUTIONS.iter().find(|f| f.course == course).map(Fixture::registered).expect("registered");
    let recorded = recorded(course);
    let listed: BTreeMap<u32, Vec<(u8, u8)>> =
        registered.grading.served().iter().map(|(todo, pairs)| (*todo, pairs.to_vec())).collect();
    let now: BTreeMap<u32, Vec<(u8, u8)>> = recorded.iter().map(|(todo, calls)| (*todo, table(calls))).collect();
    if listed != now {
        let text = served_rs(&recorded);
        let path = common::repo().join("courses").join(course).join("grade/src/served.rs");
        if std::env::var_os("TUTOR_WRITE_SERVED").is_some() {
            std::fs::write(&path, &text).unwrap();
        }
        panic!(
            "{}: the table is not what the cases call now; written with TUTOR_WRITE_SERVED=1:\n{text}",
            path.display()
        );
    }
    for (todo, calls) in &now {
        assert!(!calls.is_empty(), "{course}: exercise {todo}'s cases call nothing of the learner's");
    }
}

/// Every course of this repository, each on a thread of its own (they take a while each). (A
/// course without a table would serve every call; here each has one.)
#[test]
fn each_course_serves_what_its_cases_call() {
    let courses = common::courses();
    assert!(courses.len() >= 3, "{courses:?}");
    std::thread::scope(|scope| {
        let checks: Vec<_> = courses.iter().map(|course| scope.spawn(move || check_course(course))).collect();
        for check in checks {
            if let Err(panic) = check.join() {
                std::panic::resume_unwind(panic);
            }
        }
    });
}
