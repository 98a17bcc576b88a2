//! Every wrong solution in `tests/mistakes/<course>/`, graded in-process: each must fail at least one case
//! as a real failure (not "not done", not a pass), and no failing case may name a mistake other
//! than the one its file declares in its `//! mistake:` line (`unnamed` declares that no name
//! fits). Prints the figures: caught, named, misnamed.

mod common;

use common::fixtures::MISTAKES;
use tutor_grade::report::Status;

#[test]
fn every_wrong_solution_is_caught_and_never_misnamed() {
    tutor_grade::outcome::install_quiet_panic_hook();
    let mut caught = 0;
    let mut named = 0;
    let mut misnamed = 0;
    let mut problems = Vec::new();
    for fixture in MISTAKES {
        let declared = fixture.header("mistake").unwrap_or_else(|| panic!("{}: no `//! mistake:` line", fixture.key()));
        let known = fixture.registered().grading.mistakes();
        if declared != "unnamed" && !known.iter().any(|m| m.id == declared) {
            problems.push(format!("{}: declares an unknown mistake {declared}", fixture.key()));
            continue;
        }
        // Other seeds: a name must not depend on the random inputs. (With seeds 4 and 13, a
        // comparison a wrong solution passed once counted as evidence for another mistake.)
        let report = fixture.grade(12_345);
        for seed in [7, 4, 13] {
            let again = fixture.grade(seed);
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
            continue;
        }
        caught += 1;
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
            misnamed += 1;
            problems.push(format!("{}: declared {declared}, named {wrong:?}", fixture.key()));
        } else if names.contains(&declared) {
            named += 1;
        } else if declared != "unnamed" {
            problems.push(format!("{}: {declared} is never named (names: {:?})", fixture.key(), report.mistakes));
        }
    }
    let total = MISTAKES.len();
    let unnamed = MISTAKES.iter().filter(|f| f.header("mistake") == Some("unnamed")).count();
    // Back to the default hook, so that the assertions below are heard.
    drop(std::panic::take_hook());
    println!(
        "wrong solutions: {total}; caught {caught}; named {named} ({:.0}%; {unnamed} declared unnamed); misnamed {misnamed}",
        100.0 * named as f64 / total as f64
    );
    assert!(total >= 40, "at least 40 wrong solutions");
    assert!(named as f64 >= 0.75 * total as f64, "named {named} of {total}: under 75%");
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
