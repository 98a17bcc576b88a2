//! rustc's messages drawn to the terminal's width (issue 32): tutor shows them as rustc renders
//! them, and cargo tells rustc no width when its output is not a terminal (140 columns, lines of
//! 200 seen). Through the built binary, by cargo (the first build) and by the replayed rustc
//! command (a re-check).

use crate::common;

use common::Course;

#[test]
fn rustc_draws_its_messages_to_the_terminal_width() {
    let course = Course::new("diagnostic-width");
    let sum: Vec<String> = (1..=40).map(|n| n.to_string()).collect();
    let long = format!("let _a = {}; let _b: u8 = 1.0f32;", sum.join(" + "));
    let stub = Course::stub("02-norm");
    let todo = stub.rfind("todo!(").expect("the stub has a todo!");
    let file = |extra: &str| format!("{}{long}\n        {}{extra}", &stub[..todo], &stub[todo..]);
    for (round, extra) in ["", "\n// the same, again: the replayed rustc command\n"].into_iter().enumerate() {
        course.write_exercise("02-norm", &file(extra));
        let run = course.tutor_with(&["check", "02-norm"], |c| {
            c.env("COLUMNS", "80");
        });
        run.expect(1).shows("E0308");
        let rendered =
            run.stdout.split("error[E0308]").nth(1).expect("the error").split("\n\n").next().unwrap_or_default();
        // The code line rustc quotes (`49 | ...`), cut to the width; its suggestions (`49 - …`)
        // rustc never cuts.
        let quoted =
            rendered.lines().find(|l| l.split_once(" | ").is_some_and(|(n, _)| n.trim().parse::<u32>().is_ok()));
        let quoted = quoted.unwrap_or_else(|| panic!("round {round}: no code line in:\n{rendered}"));
        assert!(
            quoted.contains("...") && quoted.chars().count() <= 80,
            "round {round}: {quoted:?} is not cut to 80 columns"
        );
    }
}
