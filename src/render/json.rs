//! `tutor check --format json`: one JSON document for classrooms and CI, shaped like Exercism's
//! test-runner `results.json`. Its schema is `docs/check-report.schema.json` (version 1); a test
//! validates every document tutor writes against it.

use serde_json::{json, Map, Value};
use tutor_grade::report::{CaseResult, NonFinite, Status};
use tutor_grade::text::Bi;
use tutor_grade::Mistake;

use crate::runner::CheckOutcome;

/// The schema version written into every document.
pub const VERSION: u64 = 1;

/// One exercise's check, for the document.
pub struct Checked<'a> {
    /// The exercise, as tutor names it.
    pub exercise: &'a str,
    /// Its course's id.
    pub course: &'a str,
    /// What the check found; `None` when it could not be graded (see `printed`).
    pub outcome: Option<&'a CheckOutcome>,
    /// The check as tutor prints it without colour, for an exercise that could not be graded
    /// (empty for a graded one, which is described case by case), or the error that ended it.
    pub printed: String,
}

/// The whole document for the exercises checked.
pub fn document(checked: &[Checked]) -> Value {
    let mut tests = Vec::new();
    let mut exercises = Vec::new();
    for check in checked {
        let status = status_of(check.outcome);
        let mut entry = Map::new();
        entry.insert("exercise".into(), json!(check.exercise));
        entry.insert("course".into(), json!(check.course));
        entry.insert("status".into(), json!(status));
        match check.outcome {
            Some(CheckOutcome::Graded { report, .. }) => {
                tests.extend(report.cases.iter().map(|case| test(case, check.exercise)));
                entry.insert("seed".into(), json!(report.seed));
                let passed = report.cases.iter().filter(|c| c.status == Status::Passed).count();
                entry.insert("passed".into(), json!(passed));
                entry.insert("total".into(), json!(report.cases.len()));
                let named: Vec<Value> = report.named_mistakes().into_iter().map(mistake).collect();
                entry.insert("mistakes".into(), Value::Array(named));
            }
            _ => {
                entry.insert("message".into(), json!(check.printed.trim()));
                entry.insert("mistakes".into(), json!([]));
            }
        }
        exercises.push(Value::Object(entry));
    }
    let overall = if checked.iter().any(|c| status_of(c.outcome) == "error") {
        "error"
    } else if checked.iter().all(|c| c.outcome.is_some_and(CheckOutcome::passed)) {
        "pass"
    } else {
        "fail"
    };
    json!({
        "version": VERSION,
        "tool": format!("tutor {}", env!("CARGO_PKG_VERSION")),
        "status": overall,
        "tests": tests,
        "exercises": exercises,
    })
}

fn status_of(outcome: Option<&CheckOutcome>) -> &'static str {
    match outcome {
        Some(CheckOutcome::Graded { report, .. }) if report.all_passed() => "pass",
        Some(CheckOutcome::Graded { .. }) => "fail",
        _ => "error",
    }
}

fn bilingual(bi: &Bi) -> Value {
    json!({ "zh": bi.zh, "en": bi.en })
}

/// A float as JSON: a number, or `"inf"` / `"-inf"` / `"nan"` (JSON has no such numbers).
fn number(v: f64) -> Value {
    if v.is_finite() {
        json!(v)
    } else if v.is_nan() {
        json!("nan")
    } else if v > 0.0 {
        json!("inf")
    } else {
        json!("-inf")
    }
}

fn test(case: &CaseResult, exercise: &str) -> Value {
    let mut entry = Map::new();
    entry.insert("name".into(), json!(case.id));
    entry.insert("title".into(), bilingual(&case.title));
    let status = match case.status {
        Status::Passed => "pass",
        Status::Failed => "fail",
        Status::NotDone => "todo",
    };
    entry.insert("status".into(), json!(status));
    entry.insert("exercise".into(), json!(exercise));
    entry.insert("contract".into(), json!(case.contract.id));
    if let Some(message) = &case.message {
        entry.insert("message".into(), bilingual(message));
    }
    if let Some(id) = &case.mistake {
        entry.insert("mistake".into(), json!(id));
    }
    if let Some(m) = &case.mismatch {
        let mut mismatch = json!({
            "what": bilingual(&m.what), "dtype": m.dtype, "shape": m.shape,
            "mismatched": m.mismatched, "total": m.total,
            "max_abs": number(m.max_abs), "max_rel": number(m.max_rel),
            "atol": m.atol, "rtol": m.rtol,
        });
        if let (Some(n), Value::Object(fields)) = (&m.non_finite, &mut mismatch) {
            fields.insert("non_finite".into(), non_finite(n));
        }
        entry.insert("mismatch".into(), mismatch);
    }
    Value::Object(entry)
}

/// Where the output first is NaN or infinite while the reference is a number, and its input.
fn non_finite(n: &NonFinite) -> Value {
    let mut out = json!({ "at": n.at, "actual": number(n.actual), "expected": number(n.expected) });
    if let (Some(input), Value::Object(fields)) = (&n.input, &mut out) {
        let values: Vec<Value> = input.values.iter().map(|v| number(*v)).collect();
        let mut shown = json!({ "name": input.name, "at": input.at, "values": values });
        if let (Some((length, largest)), Value::Object(row)) = (input.row, &mut shown) {
            row.insert("row_length".into(), json!(length));
            row.insert("row_largest".into(), number(largest));
        }
        fields.insert("input".into(), shown);
    }
    out
}

fn mistake(m: &Mistake) -> Value {
    json!({ "id": m.id, "title": bilingual(&m.title()), "hint": { "exercise": m.exercise, "level": m.hint } })
}
