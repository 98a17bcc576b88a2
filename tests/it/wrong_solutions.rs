//! Every wrong solution in `tests/mistakes/<course>/`, graded in-process, one test per file
//! (`wrong_solutions::each::<course>_<file>`): each must fail at least one case as a real failure
//! (not "not done", not a pass), and no failing case may name a mistake other than the one its
//! file declares in its `//! mistake:` line (`unnamed` declares that no name fits); a file that
//! declares a mistake must be named it. The figures (files, declared unnamed) are checked and
//! printed by `the_wrong_solutions_are_many_and_mostly_named`.

use crate::common;

use common::fixtures::{Fixture, MISTAKES};
use tutor_grade::report::Status;

/// One test per file of [`MISTAKES`].
mod each {
    tutor_learner_files::each_mistakes!(super::caught_and_never_misnamed);
}

/// The declared mistake of `fixture` is caught with every seed and never misnamed.
fn caught_and_never_misnamed(fixture: &Fixture) {
    let problems = problems(fixture);
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// What is wrong with how `fixture` is graded (nothing, for a good grading).
fn problems(fixture: &Fixture) -> Vec<String> {
    let mut problems = Vec::new();
    let declared = fixture.header("mistake").unwrap_or_else(|| panic!("{}: no `//! mistake:` line", fixture.key()));
    let known = fixture.registered().grading.mistakes();
    if declared != "unnamed" && !known.iter().any(|m| m.id == declared) {
        return vec![format!("{}: declares an unknown mistake {declared}", fixture.key())];
    }
    // Other seeds: a name must not depend on the random inputs. (With seeds 4 and 13, a
    // comparison a wrong solution passed once counted as evidence for another mistake.)
    let report = common::panics::graded(fixture, 12_345);
    for seed in [7, 4, 13] {
        let again = common::panics::graded(fixture, seed);
        if report.mistakes != again.mistakes {
            problems.push(format!(
                "{}: named {:?} with seed 12345, {:?} with seed {seed}",
                fixture.key(),
                report.mistakes,
                again.mistakes
            ));
        }
    }
    let failed: Vec<_> = report.cases.iter().filter(|c| c.status == Status::Failed).collect();
    if failed.is_empty() || report.cases.iter().any(|c| c.status == Status::NotDone) {
        problems.push(format!("{}: not caught", fixture.key()));
        return problems;
    }
    // A rounding message says which rounding it is: only for that mistake.
    let told = |words: &str| report.cases.iter().any(|c| c.message.as_ref().is_some_and(|m| m.en.contains(words)));
    for (words, mistake) in [
        ("they were rounded twice", "double-rounding"),
        ("they are truncated toward zero", "rounds-toward-zero"),
        ("exact ties away from zero", "ties-away-from-zero"),
        ("the whole forward was computed in", "half-precision-statistics"),
    ] {
        if told(words) && declared != mistake {
            problems.push(format!("{}: told \"{words}\", but its mistake is {declared}", fixture.key()));
        }
    }
    // What the learner is told: the report's named mistakes, and any case's own name.
    let mut names: Vec<&str> = report.mistakes.iter().map(String::as_str).collect();
    names.extend(failed.iter().filter_map(|c| c.mistake.as_deref()));
    let wrong: Vec<&&str> = names.iter().filter(|&&m| m != declared).collect();
    if !wrong.is_empty() {
        problems.push(format!("{}: declared {declared}, named {wrong:?}", fixture.key()));
    } else if declared != "unnamed" && !names.contains(&declared) {
        problems.push(format!("{}: {declared} is never named (names: {:?})", fixture.key(), report.mistakes));
    }
    problems
}

/// The share named: every file that declares a mistake is named it (each file's own test), so
/// the files named are those that do not declare `unnamed`.
#[test]
fn the_wrong_solutions_are_many_and_mostly_named() {
    let total = MISTAKES.len();
    let unnamed = MISTAKES.iter().filter(|f| f.header("mistake") == Some("unnamed")).count();
    let named = total - unnamed;
    println!(
        "wrong solutions: {total}; named when every file's test passes: {named} ({:.0}%; {unnamed} declared unnamed)",
        100.0 * named as f64 / total as f64
    );
    assert!(total >= 40, "at least 40 wrong solutions");
    assert!(named as f64 >= 0.75 * total as f64, "named {named} of {total}: under 75%");
}
