//! Floods are capped, and `check --all --format json` always writes its document. A file with
//! 40,000 warnings shows the first few and a count; a program answering about 64 MB to every
//! call gets wrong answers, refused by their length; tutor's own peak memory in both stays
//! within a few times a right answer's (measured from `/proc/<pid>/status`'s `VmHWM`, tutor's
//! process alone, not the compiler's or the graded program's).

use crate::common;

use std::process::Stdio;
use std::time::Duration;

use common::fixtures::HOSTILE;
use common::{Course, Run};
use serde_json::Value;

/// How much more than a right answer's peak memory a flood may cost tutor.
const TIMES_A_RIGHT_ANSWER: u64 = 3;

/// Runs `tutor ARGS` and returns what it printed with tutor's own peak resident memory, in KiB:
/// its `VmHWM` (the high-water mark, which only grows), read until the process ends.
fn with_peak_memory(course: &Course, args: &[&str]) -> (Run, u64) {
    let mut child = course.command(args).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap();
    let status = format!("/proc/{}/status", child.id());
    let stdout = child.stdout.take().unwrap();
    let stderr = child.stderr.take().unwrap();
    let read = |mut stream: Box<dyn std::io::Read + Send>| {
        std::thread::spawn(move || {
            let mut text = String::new();
            let _ = stream.read_to_string(&mut text);
            text
        })
    };
    let (out, err) = (read(Box::new(stdout)), read(Box::new(stderr)));
    let mut peak = 0;
    let code = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status.code().unwrap_or(-1);
        }
        let high_water = std::fs::read_to_string(&status).ok().and_then(|text| {
            text.lines()
                .find_map(|l| l.strip_prefix("VmHWM:"))
                .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        });
        peak = peak.max(high_water.unwrap_or(0));
        std::thread::sleep(Duration::from_millis(2));
    };
    let run = Run { code, stdout: out.join().unwrap(), stderr: err.join().unwrap() };
    assert!(peak > 0, "tutor's memory was never read");
    (run, peak)
}

#[test]
fn forty_thousand_warnings_are_counted_not_kept() {
    let course = Course::new("flood-warnings");
    let solution = Course::solution("02-norm");
    course.write_exercise("02-norm", &solution);
    let (right, right_peak) = with_peak_memory(&course, &["check", "02"]);
    right.expect(0);
    let flood: String = (0..40_000).map(|i| format!("    let v{i} = {i};\n")).collect();
    course.write_exercise("02-norm", &format!("{solution}\n#[allow(dead_code)]\nfn flood() {{\n{flood}}}\n"));
    for round in ["cargo", "rustc alone"] {
        let (run, peak) = with_peak_memory(&course, &["check", "02"]);
        // Folded above a graded report: the first warning, and a count of every other one rustc
        // said, those it kept and those it only counted.
        run.expect(0).shows("unused variable: `v0`").shows("…and 39999 more warning(s)");
        run.hides("`v8`");
        assert!(run.all().len() < 16_000, "{round}: {} bytes shown", run.all().len());
        assert!(
            peak <= TIMES_A_RIGHT_ANSWER * right_peak,
            "{round}: tutor peaked at {peak} KiB, a right answer at {right_peak} KiB"
        );
    }
    // The build's record holds the few messages kept, not the flood.
    let record = std::fs::read_to_string(course.root.join(".tutor/builds/ex-rmsnorm-02-norm.json")).unwrap();
    let kept = record.matches("\"level\":\"warning\"").count();
    assert!((1..=8).contains(&kept), "the record kept {kept} warnings");
}

#[test]
fn replies_larger_than_their_calls_allow_are_wrong_answers_read_with_bounded_memory() {
    let course = Course::new("flood-replies");
    course.write_exercise_of(
        "swiglu",
        "02-linear",
        &std::fs::read_to_string(common::repo().join("solutions/swiglu/02-linear.rs")).unwrap(),
    );
    let (right, right_peak) = with_peak_memory(&course, &["check", "swiglu/02"]);
    right.expect(0);
    let fixture =
        HOSTILE.iter().find(|f| f.name == "floods-every-reply").expect("tests/hostile/swiglu/floods-every-reply.rs");
    course.write_exercise_of("swiglu", "02-linear", fixture.source);
    let (run, peak) = with_peak_memory(&course, &["check", "swiglu/02"]);
    run.expect(1).shows("reply could not be read (a frame of 65536028 bytes, over the 4194304 it may have)");
    assert!(
        peak <= TIMES_A_RIGHT_ANSWER * right_peak,
        "tutor peaked at {peak} KiB, a right answer at {right_peak} KiB"
    );
}

#[test]
fn check_all_as_json_writes_one_document_when_an_exercise_cannot_be_graded() {
    let course = Course::new("json-all-error");
    course.write_exercise("01-weight", &Course::solution("01-weight"));
    // A program that imitates the loader failing to find the standard library, before it
    // answers anything: tutor takes it for a program that could not start.
    let imitation = Course::stub("02-norm").replacen(
        "reference::check_config(hidden_size, eps)?;",
        "eprintln!(\"ex: error while loading shared libraries: libstd-0123456789abcdef.so: cannot open shared object file: No such file or directory\");\n        std::process::exit(127);",
        1,
    );
    assert_ne!(imitation, Course::stub("02-norm"));
    course.write_exercise("02-norm", &imitation);
    let run = course.tutor(&["check", "--all", "--format", "json"]);
    run.expect(2);
    let document: Value =
        serde_json::from_str(&run.stdout).unwrap_or_else(|e| panic!("not one JSON document ({e}):\n{}", run.all()));
    assert_eq!(document["status"], "error");
    let exercises = document["exercises"].as_array().expect("exercises");
    assert_eq!(exercises.len(), common::total_exercises(), "every exercise has its entry");
    let entry = |id: &str| exercises.iter().find(|e| e["exercise"] == id).unwrap_or_else(|| panic!("{id}: {document}"));
    let norm = entry("02-norm");
    assert_eq!(norm["status"], "error");
    let message = norm["message"].as_str().unwrap_or_default();
    assert!(message.contains("could not start") && message.contains("libstd-0123456789abcdef.so"), "{message}");
    assert_eq!(entry("01-weight")["status"], "pass", "the others keep their results");
    assert_eq!(entry("03-forward")["status"], "fail");
    assert!(document["tests"].as_array().is_some_and(|t| t.iter().any(|t| t["exercise"] == "01-weight")));
    // Valid against the documented schema, like every document tutor writes.
    let schema: Value = serde_json::from_str(include_str!("../../docs/check-report.schema.json")).unwrap();
    let schema = common::schema::Schema::new(schema).expect("the schema uses only what the validator knows");
    assert!(schema.is_valid(&document), "{:?}: {document}", schema.errors(&document));
}
