//! The CLI end to end, through the built binary, in a temporary copy of the workspace.
//! One scenario shares one workspace so that the harness's dependencies are built once.

use crate::common;

use tutor_courses::rmsnorm as rmsnorm_grade;

use common::Course;

#[test]
fn a_learner_session_from_stub_to_solution() {
    let course = Course::new("session");

    // list: three exercises, nothing done, the first one current.
    course
        .tutor(&["list"])
        .expect(0)
        .shows("01-weight")
        .shows("02-norm")
        .shows("03-forward")
        .shows(&common::done(0))
        .shows("← current");
    course.tutor(&[]).expect(0).shows("Next: edit exercises/rmsnorm/01-weight.rs");

    // The stub fails, naming its TODO.
    course
        .tutor(&["check", "02-norm"])
        .expect(1)
        .shows("TODO 2 is not written yet")
        .shows("cases pass · next: `tutor hint 02-norm`");
    assert!(course.state().contains("failing"), "{}", course.state());

    // Editing the harness's copy of the kit changes nothing: it is rewritten before every check.
    let kit_copy = course.root.join(".tutor/harness/crates/subject/src/text.rs");
    let original = std::fs::read_to_string(&kit_copy).unwrap();
    std::fs::write(
        &kit_copy,
        original.replace(
            "pub fn is_not_done(panic_message: &str) -> bool {",
            "pub fn is_not_done(_: &str) -> bool { return false;",
        ),
    )
    .unwrap();
    course.tutor(&["check", "02-norm"]).expect(1).shows("TODO 2 is not written yet");
    assert_eq!(std::fs::read_to_string(&kit_copy).unwrap(), original);

    // The solution passes and the list shows it done.
    course.write_exercise("02-norm", &Course::solution("02-norm"));
    let cases = rmsnorm_grade::cases::all().iter().filter(|case| case.belongs_to(2)).count();
    course
        .tutor(&["check", "norm"])
        .expect(0)
        .shows(&format!("{cases}/{cases} cases pass"))
        .shows("02-norm passes every check");
    course.tutor(&["list"]).expect(0).shows("done").shows(&common::done(1));

    // rustc's warnings about the learner's own file are shown on a passing build too.
    let with_warning =
        Course::solution("02-norm").replace("let last = Axis", "let unused_here = 1;\n        let last = Axis");
    course.write_exercise("02-norm", &with_warning);
    course
        .tutor(&["check", "02"])
        .expect(0)
        .shows("unused variable: `unused_here`")
        .shows("--> exercises/rmsnorm/02-norm.rs:");

    // The random inputs: printed, and the same seed repeats a run exactly.
    let wrong =
        std::fs::read_to_string(common::repo().join("tests/mistakes/rmsnorm/running-sum-across-rows.rs")).unwrap();
    course.write_exercise("02-norm", &wrong);
    let first = course.tutor(&["check", "02", "--seed", "42", "--verbose"]);
    first.expect(1).shows("--seed 42");
    assert_eq!(
        first.stdout,
        course.tutor(&["check", "02", "--seed", "42", "--verbose"]).stdout,
        "the same seed, another result"
    );
    let other = course.tutor(&["check", "02", "--seed", "43", "--verbose"]);
    assert_ne!(first.stdout.replace("42", "43"), other.stdout, "the seed does not change the inputs");
    // 02-norm had passed: a failing experiment after that keeps the pass, and says so.
    first.shows("02-norm passed before, so it stays done");
    course.tutor(&["list"]).expect(0).shows(&common::done(1)).shows("passed, then failed its last check at ");
    course.tutor(&[]).expect(0).shows("Next: edit exercises/rmsnorm/01-weight.rs");
    course.write_exercise("02-norm", &Course::solution("02-norm"));
    course.tutor(&["check", "02"]).expect(0).hides("stays done");
    course.tutor(&["list"]).expect(0).shows(&common::done(1)).hides("then failed");

    // A syntax error: rustc's own message, pointing at the learner's file.
    course.write_exercise(
        "01-weight",
        &Course::stub("01-weight").replace(
            "reference::check_config(hidden_size, eps)?;",
            "reference::check_config(hidden_size, eps)?; let = ;",
        ),
    );
    course
        .tutor(&["check", "1"])
        .expect(1)
        .shows("exercises/rmsnorm/01-weight.rs does not compile")
        .shows("--> exercises/rmsnorm/01-weight.rs:")
        .shows("error: expected pattern")
        .hides(course.root.to_str().unwrap());

    // Hints advance one level per call, in both languages when asked.
    course.tutor(&["hint", "02"]).expect(0).shows("Hint 1/3");
    course
        .tutor_with(&["hint", "02"], |c| {
            c.env("TUTOR_LANG", "both");
        })
        .expect(0)
        .shows("Hint 2/3")
        .shows("提示 2/3");
    course.tutor(&["hint", "02"]).expect(0).shows("Hint 3/3").shows("That is the last hint");
    course.tutor(&["hint", "02"]).expect(0).shows("Hint 3/3");
    assert!(course.state().contains("hints = 3"), "{}", course.state());
    course.tutor(&["hint", "02", "--all"]).expect(0).shows("Hint 1/3").shows("Hint 2/3").shows("Hint 3/3");
    // --level shows that level directly (a named mistake points there) and counts it as read;
    // a level that does not exist is a usage error naming the commands that do exist.
    course.tutor(&["hint", "01", "--level", "3"]).expect(0).shows("Hint 3/3 · 01-weight");
    // … as its help says.
    course.tutor(&["hint", "--help"]).expect(0).shows("whether or not the levels before it were read");
    assert!(
        course.state().split("[exercises.\"rmsnorm/01-weight\"]").nth(1).is_some_and(|s| s.contains("hints = 3")),
        "{}",
        course.state()
    );
    course.tutor(&["hint", "01", "--level", "9"]).expect(2).shows("no hint 9").shows("`tutor hint 01-weight`");

    // reveal: no terminal and no --yes refuses and shows nothing of the solution.
    let solution_line = "Param::trainable(Array1::ones(hidden_size))";
    course.tutor(&["reveal", "01"]).expect(2).shows("--yes").hides(solution_line).hides("STOP HERE");
    assert!(!course.state().contains("revealed = true"));
    course
        .tutor(&["reveal", "01", "--yes"])
        .expect(0)
        .shows("STOP HERE")
        .shows("停在这里")
        .shows(solution_line)
        .shows("Explanation")
        .shows("+        let weight");
    assert!(course.state().contains("revealed = true"), "{}", course.state());
    course.tutor(&["list"]).expect(0).shows("solution revealed");

    // Lessons.
    course.tutor(&["lesson"]).expect(0).shows("LayerNorm and RMSNorm");
    course.tutor(&["lesson", "3"]).expect(0).shows("round once").shows("tutor check 03-forward");

    // Usage errors exit 2 with a suggestion.
    course.tutor(&["check", "nrom"]).expect(2).shows("did you mean `02-norm`?");
    course.tutor(&["frobnicate"]).expect(2);

    // A corrupt progress file is kept aside; the command still works and progress restarts.
    std::fs::write(course.root.join(".tutor/state.toml"), "[[[ not toml").unwrap();
    course.tutor(&["list"]).expect(0).shows("could not be read").shows(&common::done(0));
    let backups = std::fs::read_dir(course.root.join(".tutor"))
        .unwrap()
        .filter(|e| e.as_ref().unwrap().file_name().to_string_lossy().starts_with("state.toml.corrupt-"))
        .count();
    assert_eq!(backups, 1);
}

#[test]
fn outside_a_workspace_it_says_where_to_go() {
    let empty = std::env::temp_dir().join(format!("tutor-e2e-empty-{}", std::process::id()));
    std::fs::create_dir_all(&empty).unwrap();
    let run = common::Run::from(
        std::process::Command::new(env!("CARGO_BIN_EXE_tutor"))
            .arg("list")
            .current_dir(&empty)
            .env("TUTOR_LANG", "both")
            .output()
            .unwrap(),
    );
    run.expect(2)
        .shows("no course workspace")
        .shows("课程工作区")
        .shows("`tutor init`")
        .shows("exercises/<course>/info.toml")
        .shows("exercises/<课程>/info.toml");
    let run = common::Run::from(
        std::process::Command::new(env!("CARGO_BIN_EXE_tutor"))
            .args(["--workspace", empty.to_str().unwrap(), "list"])
            .output()
            .unwrap(),
    );
    run.expect(2).shows("is not a course workspace").shows("init");
    std::fs::remove_dir_all(&empty).unwrap();
}

/// A learner may take chapter 2 before finishing chapter 1: after a check in SwiGLU, short names
/// and the current exercise are looked up there first, and the end of a chapter is said once, by
/// the check that finished it (found by a newcomer: `check 02` graded rmsnorm/02-norm right after
/// "Next up: 02-linear", and every passing re-check said "the whole course is done").
#[test]
fn the_chapter_last_checked_is_the_one_being_taken() {
    let course = Course::new("taking");
    let solution =
        |id: &str| std::fs::read_to_string(common::repo().join(format!("solutions/swiglu/{id}.rs"))).unwrap();
    course.write_exercise_of("swiglu", "01-silu", &solution("01-silu"));
    course.tutor(&["check", "swiglu/01"]).expect(0).shows("Next up: 02-linear");
    // `02` now means swiglu's, and the list's current exercise is there too.
    course.tutor(&["check", "02"]).expect(1).shows("Checking 02-linear").hides("Checking 02-norm");
    let list = course.tutor(&["list"]);
    let current = list.stdout.lines().position(|l| l.contains("← current")).expect("a current exercise");
    let linear = list.stdout.lines().position(|l| l.contains("02-linear")).expect("02-linear listed");
    assert!(current == linear || current == linear + 1, "{}", list.stdout);

    // Every exercise of the chapter passed: the last check says the chapter is done, once.
    let ids: Vec<String> = common::exercises_of("swiglu").into_iter().map(|(id, _)| id).collect();
    for id in &ids {
        course.write_exercise_of("swiglu", id, &solution(id));
    }
    let (last, others) = ids.split_last().expect("swiglu has exercises");
    for id in others {
        course.tutor(&["check", &format!("swiglu/{id}")]).expect(0).hides("the chapter is done");
    }
    // The chapter is done, not the course: the next one (in course order, one not done) is named,
    // its overview first.
    let finished = course.tutor(&["check", &format!("swiglu/{last}")]);
    finished.expect(0).shows("the chapter is done").shows("Next chapter: Attention").shows("`tutor lesson attention`");
    finished.hides("Every exercise is done");
    course.tutor(&["check", &format!("swiglu/{last}")]).expect(0).hides("the chapter is done");
}
