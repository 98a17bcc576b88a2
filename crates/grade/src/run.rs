//! The case runner every course grades with: a course lists its cases (and its mistakes), and
//! [`grade`] runs each in isolation (a `todo!()`, a panic, an error or a dead graded program fails
//! that case with its message, and the others still run), then names the mistakes the failures
//! show, on evidence only (see [`crate::evidence`]).

use std::cell::{Cell, RefCell};
use std::panic::AssertUnwindSafe;

use crate::course::{CaseTitle, Mistake};
use crate::data::Rng;
use crate::evidence::{self, Observation};
use crate::fault::Channel;
use crate::outcome::{run_guarded, Outcome};
use crate::report::{CaseResult, Contract, Report, Status};
use crate::text::Bi;

/// One grading run: the learner's code behind a channel, the seed its random inputs are drawn
/// from, and what the comparisons observed about known mistakes.
pub struct Run<'c> {
    /// The graded program (or, in tests, an exercise compiled in: [`crate::InProcess`]).
    pub channel: &'c dyn Channel,
    /// The run's seed: random inputs differ from run to run, so no answer can be memorised, and
    /// `tutor check --seed N` repeats a run exactly.
    pub seed: u64,
    observations: RefCell<Vec<Deferred<'c>>>,
    case: Cell<&'static str>,
    /// Mistakes a case found, to be named only when nothing else is: (case, mistake).
    last_resort: RefCell<Vec<(&'static str, &'static str)>>,
}

/// What a comparison says about the known mistakes, worked out only when some case failed: a
/// run where every case passes names nothing, and computing every mistake's output on every
/// input would be most of tutor's own share of a passing check.
type Deferred<'c> = Box<dyn FnOnce() -> Vec<Observation> + 'c>;

impl<'c> Run<'c> {
    /// A run of the learner's code behind `channel`, with random inputs from `seed`.
    pub fn new(channel: &'c dyn Channel, seed: u64) -> Run<'c> {
        Run {
            channel,
            seed,
            observations: RefCell::new(Vec::new()),
            case: Cell::new(""),
            last_resort: RefCell::new(Vec::new()),
        }
    }

    /// Records that the case running now found `mistake`, which is named only when no case,
    /// observation or diagnosis names anything else: a finding that is true of the answer but may
    /// be a side effect of another mistake (a slow formula that is also a wrong one, say).
    pub fn name_if_nothing_else(&self, mistake: &'static str) {
        self.last_resort.borrow_mut().push((self.case(), mistake));
    }

    /// The id of the case running now.
    pub fn case(&self) -> &'static str {
        self.case.get()
    }

    /// Records what a comparison says about the known mistakes, to be worked out only if some
    /// case fails: `observations` holds its own copies of what it compares.
    pub fn observe(&self, observations: impl FnOnce() -> Vec<Observation> + 'c) {
        self.observations.borrow_mut().push(Box::new(observations));
    }

    /// Records a comparison at a tolerance (`Observation::by_tolerance`) of the running case:
    /// `candidates`, the known mistakes' outputs on this input, are worked out only if some case
    /// fails, and held against `actual` and `expected` then.
    pub fn observe_close<V: tutor_subject::Float + 'static>(
        &self,
        actual: &ndarray::ArrayD<f64>,
        expected: &ndarray::ArrayD<f64>,
        (atol, rtol): (f64, f64),
        candidates: impl FnOnce() -> Vec<evidence::Candidate<V>> + 'c,
    ) {
        let (case, seen, right) = (self.case(), actual.clone(), expected.clone());
        self.observe(move || vec![Observation::by_tolerance(case, &seen, &right, candidates(), atol, rtol)]);
    }

    /// `assert_close` of `what` (a code span, `dtype` its element type) at (atol, rtol), recorded
    /// as evidence first ([`Self::observe_close`]); a failure says which output of which dtype
    /// differs (a long output shows no table, where the dtype would otherwise be read). What every
    /// course's cases compare with, written once.
    pub fn compare<V: tutor_subject::Float + 'static>(
        &self,
        what: &str,
        dtype: &str,
        actual: &ndarray::ArrayD<f64>,
        expected: &ndarray::ArrayD<f64>,
        (atol, rtol): (f64, f64),
        candidates: impl FnOnce() -> Vec<evidence::Candidate<V>> + 'c,
    ) -> crate::Outcome {
        self.observe_close(actual, expected, (atol, rtol), candidates);
        crate::compare::close(what, dtype, actual, expected, (atol, rtol))
    }

    /// Works out every observation recorded. One that panics (tutor's bug, never the learner's:
    /// no code of theirs runs here) is no evidence.
    fn observations(&self) -> Vec<Observation> {
        let deferred = self.observations.take();
        let worked_out = deferred.into_iter().map(|work| std::panic::catch_unwind(AssertUnwindSafe(work)));
        worked_out.flat_map(Result::unwrap_or_default).collect()
    }

    /// A generator for one case's random inputs, from the run's seed and the case's own salt, so
    /// that one case's inputs do not depend on how many numbers another one drew.
    pub fn rng(&self, salt: u64) -> Rng {
        Rng::new(self.seed ^ salt.wrapping_mul(0x9E37_79B9_7F4A_7C15))
    }
}

/// One named check, with its title.
#[derive(Clone, Copy)]
pub struct Case {
    /// The contract it belongs to.
    pub contract: Contract,
    /// Stable id, carried in reports.
    pub id: &'static str,
    /// What it checks, in Chinese.
    pub zh: &'static str,
    /// What it checks, in English.
    pub en: &'static str,
    /// The body.
    pub run: fn(&Run) -> Outcome,
    /// The TODOs whose answers it grades (a case of a composition names each piece it composes):
    /// checking the exercise of TODO N runs the cases that name N. Empty: every exercise's (a
    /// course written before cases belonged to exercises).
    pub grades: &'static [u32],
}

impl Case {
    /// Its contract, id and title, as the CLI lists it.
    pub fn title(&self) -> CaseTitle {
        CaseTitle { contract: self.contract, id: self.id, zh: self.zh, en: self.en }
    }

    /// Whether checking the exercise of TODO `todo` runs it.
    pub fn belongs_to(&self, todo: u32) -> bool {
        self.grades.is_empty() || self.grades.contains(&todo)
    }
}

/// `cases`, each grading the TODOs `todos` (see [`Case::grades`]).
pub fn grading(todos: &'static [u32], cases: Vec<Case>) -> Vec<Case> {
    cases.into_iter().map(|case| Case { grades: todos, ..case }).collect()
}

/// A contract's list of cases: `cases! { CONTRACT; "id", "中文", "English" => body; … }`, which
/// belong to every exercise until [`grading`] says which TODOs they grade.
#[macro_export]
macro_rules! cases {
    ($contract:expr; $($id:literal, $zh:literal, $en:literal => $run:expr;)*) => {
        ::std::vec![$($crate::run::Case { contract: $contract, id: $id, zh: $zh, en: $en, run: $run, grades: &[] }),*]
    };
}

/// Runs one case, turning a panic or a fault into a failure (or into "not done" for a TODO
/// marker).
pub fn run_case(case: &Case, run: &Run) -> CaseResult {
    run.case.set(case.id);
    let (status, failure) = run_guarded(|| {
        let outcome = (case.run)(run);
        // A deferred request's failure is this case's, not the next one's.
        run.channel.settle();
        outcome
    });
    let (message, mismatch, mistake) = match failure {
        Some(f) => (Some(f.message), f.mismatch.map(|m| *m), f.mistake),
        None => (None, None, None),
    };
    CaseResult {
        contract: case.contract,
        id: case.id.to_string(),
        title: Bi::new(case.zh, case.en),
        status,
        message,
        mismatch,
        mistake,
    }
}

/// A course's diagnoses from what the answer is, run on the learner's code after the cases and
/// only when one failed.
pub struct Diagnoses<'a> {
    /// Asked first: a finding that makes every comparison unreliable (answers that depend on
    /// earlier calls, say). When it names a mistake, that is the only name.
    pub before_evidence: &'a dyn Fn(&Run) -> Option<&'static str>,
    /// Asked last, only when no case and no observation named anything.
    pub by_property: &'a dyn Fn(&Run) -> Option<&'static str>,
    /// Pairs `(cause, consequence)`: a mistake that brings another with it (eps dropped from r
    /// everywhere also drops it from the weight's gradient). When both are named, only the cause
    /// is.
    pub implied: &'a [(&'static str, &'static str)],
}

/// Runs every case on the learner's code, then names the mistakes the failures show: what
/// `diagnoses.before_evidence` finds, alone; otherwise the cases' direct findings; then, only if
/// there are none, what the observations across all cases support; then, only when nothing else
/// did, what a case recorded with [`Run::name_if_nothing_else`], or else what
/// `diagnoses.by_property` finds.
pub fn grade(cases: &[Case], known_mistakes: &'static [Mistake], run: &Run, diagnoses: Diagnoses) -> Report {
    let mut report = Report {
        cases: cases.iter().map(|case| run_case(case, run)).collect(),
        seed: run.seed,
        mistakes: Vec::new(),
        known_mistakes,
    };
    if report.all_passed() {
        return report;
    }
    if let Some(first) = (diagnoses.before_evidence)(run) {
        // It explains every failure: what the cases would name from their numbers is an accident.
        report.cases.iter_mut().for_each(|case| case.mistake = None);
        report.mistakes = vec![first.to_string()];
        return report;
    }
    let mut names: Vec<String> = Vec::new();
    for direct in report.cases.iter().filter_map(|case| case.mistake.as_ref()) {
        if !names.contains(direct) {
            names.push(direct.clone());
        }
    }
    // A direct finding (a clamped eps, a zero weight) also moves the numbers: it explains them,
    // and inferring more from them would name a consequence.
    let observed = if names.is_empty() { evidence::named(&run.observations()) } else { Default::default() };
    for (mistake, cases) in &observed {
        for case in report.cases.iter_mut().filter(|c| c.status == Status::Failed && cases.contains(&c.id.as_str())) {
            case.mistake.get_or_insert_with(|| mistake.to_string());
        }
        if !names.iter().any(|n| n == mistake) {
            names.push(mistake.to_string());
        }
    }
    // A consequence named beside its cause is the cause's doing.
    let consequences: Vec<String> = names
        .iter()
        .filter(|name| {
            diagnoses.implied.iter().any(|(cause, effect)| effect == name && names.iter().any(|n| n == cause))
        })
        .cloned()
        .collect();
    names.retain(|name| !consequences.contains(name));
    for case in report.cases.iter_mut().filter(|c| c.mistake.as_ref().is_some_and(|m| consequences.contains(m))) {
        case.mistake = None;
    }
    let failed = report.cases.iter().any(|c| c.status == Status::Failed);
    let last_resort = run.last_resort.borrow().first().copied();
    if let (true, true, Some((case_id, mistake))) = (names.is_empty(), failed, last_resort) {
        names.push(mistake.to_string());
        for case in report.cases.iter_mut().filter(|c| c.id == case_id && c.status == Status::Failed) {
            case.mistake = Some(mistake.to_string());
        }
    } else if names.is_empty() && failed {
        if let Some(property) = (diagnoses.by_property)(run) {
            names.push(property.to_string());
        }
    }
    report.mistakes = names;
    report
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::evidence::Sighting;
    use crate::fault::Fault;
    use crate::outcome::Failure;

    const C: Contract = Contract { id: "c", zh: "契约", en: "contract" };
    static KNOWN: &[Mistake] = &[];

    /// A channel nothing calls.
    struct Silent;

    impl Channel for Silent {
        fn call(&self, _: Option<u64>, _: &[u8]) -> (Vec<u8>, u64) {
            unreachable!("the cases here call nothing")
        }
        fn discard(&self) {}
    }

    fn passes(_: &Run) -> Outcome {
        Ok(())
    }

    /// A channel whose deferred request (one, sent before the first case ends) panicked.
    struct OwesAPanic(Cell<bool>);

    impl Channel for OwesAPanic {
        fn call(&self, _: Option<u64>, _: &[u8]) -> (Vec<u8>, u64) {
            unreachable!("the cases here call nothing")
        }
        fn settle(&self) {
            if self.0.replace(false) {
                Fault::Panicked { message: "in a setter".into(), location: None, call: None }.raise();
            }
        }
        fn discard(&self) {}
    }

    #[test]
    fn a_deferred_request_that_failed_fails_its_own_case() {
        crate::outcome::install_quiet_panic_hook();
        let channel = OwesAPanic(Cell::new(true));
        let run = Run::new(&channel, 7);
        let cases = cases! { C; "a", "甲", "a" => passes; "b", "乙", "b" => passes; };
        let report = grade(&cases, KNOWN, &run, property_last());
        let statuses: Vec<_> = report.cases.iter().map(|c| c.status).collect();
        assert_eq!(statuses, vec![Status::Failed, Status::Passed]);
        assert!(report.cases[0].message.as_ref().is_some_and(|m| m.en.contains("in a setter")));
    }

    fn fails_observing(run: &Run) -> Outcome {
        let case = run.case();
        run.observe(move || {
            vec![Observation {
                case,
                learner_wrong: true,
                sightings: vec![Sighting { mistake: "seen", variant: "v", matches: true, wrong: true }],
            }]
        });
        Err(Failure::new(Bi::new("错", "wrong")))
    }

    fn fails_directly(_: &Run) -> Outcome {
        Err(Failure::new(Bi::new("错", "wrong")).with_mistake(Some("direct")))
    }

    fn panics(_: &Run) -> Outcome {
        panic!("TODO 3 is not done yet / TODO 3 尚未完成")
    }

    fn compares_a_halved_output(run: &Run) -> Outcome {
        let expected = ndarray::arr1(&[1.0, 2.0, 4.0]).into_dyn();
        let actual = expected.mapv(|v| v / 2.0);
        let halved = actual.clone();
        run.compare("y", "float32", &actual, &expected, (1e-5, 1e-5), move || {
            vec![evidence::candidate("halved", "half", halved)]
        })
    }

    #[test]
    fn compare_says_which_output_differs_and_records_the_evidence() {
        let cases = [Case { contract: C, id: "c1", zh: "中", en: "en", run: compares_a_halved_output, grades: &[] }];
        let report = grade(&cases, KNOWN, &Run::new(&Silent, 7), property_last());
        let message = report.cases[0].message.as_ref().expect("a failure message");
        assert!(message.en.contains("`y` (float32) differs from the reference"), "{}", message.en);
        assert!(report.cases[0].mismatch.is_some(), "the numbers are kept");
        assert_eq!(report.mistakes, ["halved"], "named on the evidence it recorded");
    }

    /// Diagnoses that find nothing first and `property` last.
    fn property_last() -> Diagnoses<'static> {
        Diagnoses { before_evidence: &|_| None, by_property: &|_| Some("property"), implied: &[] }
    }

    #[test]
    fn every_case_runs_and_mistakes_are_named_on_evidence_then_by_property() {
        crate::outcome::install_quiet_panic_hook();
        let run = Run::new(&Silent, 7);
        let cases = cases! { C;
            "a", "甲", "a" => passes;
            "b", "乙", "b" => fails_observing;
            "c", "丙", "c" => panics;
        };
        let report = grade(&cases, KNOWN, &run, property_last());
        let statuses: Vec<_> = report.cases.iter().map(|c| c.status).collect();
        assert_eq!(statuses, vec![Status::Passed, Status::Failed, Status::NotDone]);
        assert_eq!(report.mistakes, vec!["seen".to_string()], "evidence comes before a property");
        assert_eq!(report.cases[1].mistake.as_deref(), Some("seen"));

        let direct = cases! { C; "b", "乙", "b" => fails_observing; "d", "丁", "d" => fails_directly; };
        let report = grade(&direct, KNOWN, &Run::new(&Silent, 7), property_last());
        assert_eq!(report.mistakes, vec!["direct".to_string()], "a direct finding explains the numbers");
        let first = Diagnoses { before_evidence: &|_| Some("first"), by_property: &|_| Some("property"), implied: &[] };
        let report = grade(&direct, KNOWN, &Run::new(&Silent, 7), first);
        assert_eq!(report.mistakes, vec!["first".to_string()], "what is asked first is the only name");

        let plain = cases! { C; "e", "戊", "e" => |_| Err(Failure::new(Bi::new("错", "wrong"))); };
        let both = cases! { C;
            "d", "丁", "d" => fails_directly;
            "f", "己", "f" => |_| Err(Failure::new(Bi::new("错", "wrong")).with_mistake(Some("effect")));
        };
        let implied = Diagnoses { implied: &[("direct", "effect")], ..property_last() };
        let report = grade(&both, KNOWN, &Run::new(&Silent, 7), implied);
        assert_eq!(report.mistakes, vec!["direct".to_string()], "a consequence beside its cause is not named");
        assert_eq!(report.cases[1].mistake, None);
        let report = grade(&both[1..], KNOWN, &Run::new(&Silent, 7), property_last());
        assert_eq!(report.mistakes, vec!["effect".to_string()], "alone, it is named");
        let report = grade(&plain, KNOWN, &Run::new(&Silent, 7), property_last());
        assert_eq!(report.mistakes, vec!["property".to_string()]);
        let never =
            Diagnoses { before_evidence: &|_| panic!("never asked on a pass"), by_property: &|_| None, implied: &[] };
        let report = grade(&cases[..1], KNOWN, &Run::new(&Silent, 7), never);
        assert!(report.all_passed() && report.mistakes.is_empty());
    }

    fn fails_noting_a_last_resort(run: &Run) -> Outcome {
        run.name_if_nothing_else("last-resort");
        Err(Failure::new(Bi::new("错", "wrong")))
    }

    #[test]
    fn a_last_resort_is_named_only_when_nothing_else_is() {
        crate::outcome::install_quiet_panic_hook();
        let alone = cases! { C; "a", "甲", "a" => fails_noting_a_last_resort; };
        let report = grade(&alone, KNOWN, &Run::new(&Silent, 7), property_last());
        assert_eq!(report.mistakes, vec!["last-resort".to_string()], "before the properties");
        assert_eq!(report.cases[0].mistake.as_deref(), Some("last-resort"));
        let beside = cases! { C; "a", "甲", "a" => fails_noting_a_last_resort; "b", "乙", "b" => fails_observing; };
        let report = grade(&beside, KNOWN, &Run::new(&Silent, 7), property_last());
        assert_eq!(report.mistakes, vec!["seen".to_string()], "the evidence names the mistake");
        assert_eq!(report.cases[0].mistake, None);
    }

    #[test]
    fn a_case_belongs_to_the_exercises_of_the_todos_it_grades() {
        let owned = grading(&[2, 4], cases! { C; "a", "甲", "a" => passes; });
        assert!(owned[0].belongs_to(2) && owned[0].belongs_to(4));
        assert!(!owned[0].belongs_to(3) && !owned[0].belongs_to(1));
        let everyone = cases! { C; "b", "乙", "b" => passes; };
        assert!(everyone[0].belongs_to(1) && everyone[0].belongs_to(9), "a course written before cases had owners");
    }

    #[test]
    fn each_case_draws_from_its_own_stream() {
        let run = Run::new(&Silent, 42);
        assert_eq!(run.rng(1).uniform(), run.rng(1).uniform());
        assert_ne!(run.rng(1).uniform(), run.rng(2).uniform());
        assert_ne!(Run::new(&Silent, 43).rng(1).uniform(), run.rng(1).uniform());
    }
}
