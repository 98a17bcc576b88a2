//! Every wrong solution in `tests/mistakes/`, graded in-process: each must fail at least one case
//! as a real failure (not "not done", not a pass), and no failing case may name a mistake other
//! than the one its file declares in its `//! mistake:` line (`unnamed` declares that no name
//! fits). Prints the figures: caught, named, misnamed.

mod common;

use common::fixtures::{MISTAKES, MISTAKES_BUILD};
use tutor_grade::report::Status;
use tutor_grade::{run_all, Run};

#[test]
fn every_wrong_solution_is_caught_and_never_misnamed() {
    tutor_grade::checks::install_quiet_panic_hook();
    let mut caught = 0;
    let mut named = 0;
    let mut problems = Vec::new();
    for (fixture, build) in MISTAKES.iter().zip(MISTAKES_BUILD) {
        let declared = fixture.header("mistake").unwrap_or_else(|| panic!("{}: no `//! mistake:` line", fixture.name));
        if declared != "unnamed" {
            assert!(tutor_grade::mistakes::find(declared).is_some(), "{}: unknown mistake {declared}", fixture.name);
        }
        let report = run_all(&Run { subject: build, seed: 12_345 });
        let failed: Vec<_> = report.cases.iter().filter(|c| c.status == Status::Failed).collect();
        if failed.is_empty() || report.cases.iter().any(|c| c.status == Status::NotDone) {
            problems.push(format!("{}: not caught", fixture.name));
            continue;
        }
        caught += 1;
        let names: Vec<&str> = failed.iter().filter_map(|c| c.mistake.as_deref()).collect();
        let wrong: Vec<&&str> = names.iter().filter(|&&m| m != declared).collect();
        if !wrong.is_empty() {
            problems.push(format!("{}: declared {declared}, named {wrong:?}", fixture.name));
        } else if names.contains(&declared) {
            named += 1;
        } else if declared != "unnamed" {
            problems.push(format!("{}: {declared} is never named", fixture.name));
        }
    }
    let total = MISTAKES.len();
    let unnamed = MISTAKES.iter().filter(|f| f.header("mistake") == Some("unnamed")).count();
    println!("wrong solutions: {total}; caught {caught}; named {named} (of {} with a name); misnamed or unnamed: {}", total - unnamed, problems.len());
    assert!(total >= 40, "at least 40 wrong solutions");
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
