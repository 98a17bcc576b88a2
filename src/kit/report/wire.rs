//! The line format of a report.
//!
//! Deliberately tiny (no serde in the harness: it would double the first build): `key value`
//! lines, one `case` … `end` block per case, values escaped so that any message fits on one
//! line. The first two lines carry the format version and the run's secret token; a last
//! `done` line shows that the report was not cut short.

use std::fmt::Write as _;

use super::{CaseResult, Contract, Mismatch, Report, Status};
use crate::text::Bi;

#[derive(Debug, Clone, PartialEq)]
pub struct DecodeError(pub String);

impl std::fmt::Display for DecodeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "malformed grading report: {}", self.0)
    }
}

impl std::error::Error for DecodeError {}

const MAGIC: &str = "tutor-report 1";

/// Serialises `report` with the run's `token`, without the closing `done` line.
fn encode(report: &Report, token: &str) -> String {
    let mut out = String::new();
    line(&mut out, "", MAGIC);
    line(&mut out, "token", token);
    for case in &report.cases {
        line(&mut out, "case", "");
        line(&mut out, "contract", case.contract.id());
        line(&mut out, "id", &case.id);
        line(&mut out, "title.zh", &case.title.zh);
        line(&mut out, "title.en", &case.title.en);
        line(&mut out, "status", case.status.id());
        if let Some(message) = &case.message {
            line(&mut out, "message.zh", &message.zh);
            line(&mut out, "message.en", &message.en);
        }
        if let Some(mistake) = &case.mistake {
            line(&mut out, "mistake", mistake);
        }
        if let Some(m) = &case.mismatch {
            line(&mut out, "m.what", &m.what);
            line(&mut out, "m.dtype", &m.dtype);
            line(&mut out, "m.shape", &join(&m.shape));
            line(&mut out, "m.count", &format!("{} {}", m.mismatched, m.total));
            line(&mut out, "m.abs", &format!("{:?} {}", m.max_abs, join(&m.max_abs_at)));
            line(&mut out, "m.rel", &format!("{:?} {}", m.max_rel, join(&m.max_rel_at)));
            line(&mut out, "m.tol", &format!("{:?} {:?}", m.atol, m.rtol));
            line(&mut out, "m.expected", &join_f64(&m.expected));
            line(&mut out, "m.actual", &join_f64(&m.actual));
        }
        line(&mut out, "end", "");
    }
    out
}

/// Parses a report and checks that it carries `token`; anything else is an error, never a pass.
pub fn decode(text: &str, token: &str) -> Result<Report, DecodeError> {
    let mut lines = text.lines();
    if lines.next() != Some(MAGIC) {
        return Err(DecodeError("missing header".into()));
    }
    match lines.next().and_then(|l| l.strip_prefix("token ")) {
        Some(found) if found == token => {}
        _ => return Err(DecodeError("wrong or missing token".into())),
    }
    let mut report = Report::default();
    let mut current: Option<PartialCase> = None;
    let mut finished = false;
    for raw in lines {
        let (key, value) = raw.split_once(' ').unwrap_or((raw, ""));
        let value = unescape(value);
        match key {
            "case" => current = Some(PartialCase::default()),
            "end" => {
                let case = current.take().ok_or_else(|| DecodeError("`end` outside a case".into()))?;
                report.cases.push(case.finish()?);
            }
            "done" => finished = true,
            _ => {
                let case = current.as_mut().ok_or_else(|| DecodeError(format!("`{key}` outside a case")))?;
                case.set(key, value)?;
            }
        }
    }
    if current.is_some() || !finished {
        return Err(DecodeError("truncated report".into()));
    }
    Ok(report)
}

/// Closes an encoded report: a report without this line was cut short and is rejected.
pub fn encode_complete(report: &Report, token: &str) -> String {
    let mut out = encode(report, token);
    line(&mut out, "done", "");
    out
}

#[derive(Default)]
struct PartialCase {
    contract: Option<Contract>,
    id: Option<String>,
    title: Bi,
    status: Option<Status>,
    message: Option<Bi>,
    mismatch: Option<Mismatch>,
    mistake: Option<String>,
}

impl PartialCase {
    fn set(&mut self, key: &str, value: String) -> Result<(), DecodeError> {
        let bad = |what: &str| DecodeError(format!("bad {what}: {value:?}"));
        match key {
            "contract" => self.contract = Some(Contract::from_id(&value).ok_or_else(|| bad("contract"))?),
            "id" => self.id = Some(value),
            "title.zh" => self.title.zh = value,
            "title.en" => self.title.en = value,
            "status" => self.status = Some(Status::from_id(&value).ok_or_else(|| bad("status"))?),
            "message.zh" => self.message.get_or_insert_with(Bi::default).zh = value,
            "message.en" => self.message.get_or_insert_with(Bi::default).en = value,
            "mistake" => self.mistake = Some(value),
            _ if key.starts_with("m.") => {
                let m = self.mismatch.get_or_insert_with(Mismatch::default);
                set_mismatch(m, &key[2..], &value).ok_or_else(|| bad(key))?;
            }
            _ => return Err(DecodeError(format!("unknown key {key:?}"))),
        }
        Ok(())
    }

    fn finish(self) -> Result<CaseResult, DecodeError> {
        let missing = |what: &str| DecodeError(format!("case without {what}"));
        Ok(CaseResult {
            contract: self.contract.ok_or_else(|| missing("contract"))?,
            id: self.id.ok_or_else(|| missing("id"))?,
            title: self.title,
            status: self.status.ok_or_else(|| missing("status"))?,
            message: self.message,
            mismatch: self.mismatch,
            mistake: self.mistake,
        })
    }
}

fn set_mismatch(m: &mut Mismatch, key: &str, value: &str) -> Option<()> {
    let mut words = value.split(' ');
    match key {
        "what" => m.what = value.to_string(),
        "dtype" => m.dtype = value.to_string(),
        "shape" => m.shape = split_usize(value)?,
        "count" => {
            m.mismatched = words.next()?.parse().ok()?;
            m.total = words.next()?.parse().ok()?;
        }
        "abs" => {
            m.max_abs = words.next()?.parse().ok()?;
            m.max_abs_at = split_usize(words.next().unwrap_or(""))?;
        }
        "rel" => {
            m.max_rel = words.next()?.parse().ok()?;
            m.max_rel_at = split_usize(words.next().unwrap_or(""))?;
        }
        "tol" => {
            m.atol = words.next()?.parse().ok()?;
            m.rtol = words.next()?.parse().ok()?;
        }
        "expected" => m.expected = split_f64(value)?,
        "actual" => m.actual = split_f64(value)?,
        _ => return None,
    }
    Some(())
}

fn line(out: &mut String, key: &str, value: &str) {
    if key.is_empty() {
        let _ = writeln!(out, "{value}");
    } else {
        let _ = writeln!(out, "{key} {}", escape(value));
    }
}

fn escape(value: &str) -> String {
    value.replace('\\', "\\\\").replace('\n', "\\n").replace('\r', "\\r")
}

fn unescape(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    let mut chars = value.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('n') => out.push('\n'),
            Some('r') => out.push('\r'),
            Some(other) => out.push(other),
            None => out.push('\\'),
        }
    }
    out
}

fn join(values: &[usize]) -> String {
    values.iter().map(usize::to_string).collect::<Vec<_>>().join(",")
}

fn join_f64(values: &[f64]) -> String {
    values.iter().map(|v| format!("{v:?}")).collect::<Vec<_>>().join(",")
}

fn split_usize(text: &str) -> Option<Vec<usize>> {
    if text.is_empty() {
        return Some(Vec::new());
    }
    text.split(',').map(|v| v.parse().ok()).collect()
}

fn split_f64(text: &str) -> Option<Vec<f64>> {
    if text.is_empty() {
        return Some(Vec::new());
    }
    text.split(',').map(|v| v.parse().ok()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Report {
        Report {
            cases: vec![
                CaseResult {
                    contract: Contract::Numeric,
                    id: "tutorial-case".into(),
                    title: Bi::new("教程\n用例", "tutorial \\ case"),
                    status: Status::Failed,
                    message: Some(Bi::new("不一致", "differs")),
                    mismatch: Some(Mismatch {
                        what: "norm(x)".into(),
                        dtype: "float32".into(),
                        shape: vec![1, 2, 2],
                        mismatched: 2,
                        total: 4,
                        max_abs: f64::INFINITY,
                        max_abs_at: vec![0, 1, 0],
                        max_rel: 0.5,
                        max_rel_at: vec![0, 0, 1],
                        atol: 1e-6,
                        rtol: 1e-5,
                        expected: vec![0.8, 1.1, 0.0, 0.0],
                        actual: vec![0.8, 1.0, f64::NAN, f64::NAN],
                    }),
                    mistake: Some("no-eps".into()),
                },
                CaseResult {
                    contract: Contract::Parameter,
                    id: "weight-is-ones".into(),
                    title: Bi::new("a", "b"),
                    status: Status::Passed,
                    message: None,
                    mismatch: None,
                    mistake: None,
                },
            ],
        }
    }

    #[test]
    fn round_trips_every_field() {
        let report = sample();
        let back = decode(&encode_complete(&report, "secret"), "secret").unwrap();
        // NaN != NaN, so compare the NaN-free parts and the NaN positions separately.
        let (m0, m1) = (report.cases[0].mismatch.clone().unwrap(), back.cases[0].mismatch.clone().unwrap());
        assert_eq!(m1.actual.iter().filter(|v| v.is_nan()).count(), 2);
        assert_eq!(Mismatch { actual: vec![], ..m0 }, Mismatch { actual: vec![], ..m1 });
        assert_eq!(report.cases[1], back.cases[1]);
        assert_eq!(report.cases[0].title, back.cases[0].title);
        assert!(!back.all_passed());
    }

    #[test]
    fn rejects_a_wrong_token_and_a_truncated_report() {
        let text = encode_complete(&sample(), "secret");
        assert!(decode(&text, "guess").is_err());
        assert!(decode(&encode(&sample(), "secret"), "secret").is_err(), "no `done` line");
        let cut = &text[..text.len() / 2];
        assert!(decode(cut, "secret").is_err());
        assert!(decode("passed\n", "secret").is_err());
    }
}
