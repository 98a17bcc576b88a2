//! Naming a mistake by evidence across cases, never by the closest match on one.
//!
//! Every comparison the checks make, passing ones included, records an [`Observation`]: for each
//! known mistake that can be computed on that input (each way of writing it), whether its output
//! matches the learner's and whether it is wrong there. After the run, a mistake is named only if
//! one way of writing it matched the learner's output on every comparison where it was computed
//! (a passing case where it would have been wrong contradicts it), and matched at least once where
//! it and the learner's output were both wrong and no other mistake's output matched too: a case
//! where two mistakes coincide (D = 2 makes D − 1 and the sum look alike) is no evidence for
//! either, and neither is a comparison the learner passed (a mistake's output a little off,
//! within twice the tolerance of a right answer, only looks like it).

use std::collections::BTreeMap;
use std::sync::Mutex;

use ndarray::ArrayD;
use tutor_subject::Float;

use crate::compare::is_close;

/// A wrong answer a course can compute: which mistake, which way of writing it, and what it
/// produces on the input at hand.
#[derive(Debug, Clone, PartialEq)]
pub struct Candidate<V> {
    /// The mistake's id.
    pub mistake: &'static str,
    /// One way of writing it (a mistake may be written several ways that differ in numbers).
    pub variant: &'static str,
    /// Its output on the input at hand.
    pub output: ArrayD<V>,
}

impl<V> Candidate<V> {
    /// The same candidate with its output's elements converted.
    pub fn map<W>(self, convert: impl Fn(V) -> W) -> Candidate<W>
    where
        V: Clone,
    {
        Candidate { mistake: self.mistake, variant: self.variant, output: self.output.mapv(convert) }
    }
}

/// A [`Candidate`].
pub fn candidate<V>(mistake: &'static str, variant: &'static str, output: ArrayD<V>) -> Candidate<V> {
    Candidate { mistake, variant, output }
}

/// One candidate on one comparison.
#[derive(Debug, Clone, PartialEq)]
pub struct Sighting {
    /// The mistake.
    pub mistake: &'static str,
    /// The way of writing it.
    pub variant: &'static str,
    /// Its output matches the learner's.
    pub matches: bool,
    /// Its output is wrong on this input (it differs from the right answer).
    pub wrong: bool,
}

/// What one comparison says about the known mistakes.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Observation {
    /// The case it was made in.
    pub case: &'static str,
    /// The learner's output is wrong here (it fails the comparison).
    pub learner_wrong: bool,
    /// One entry per candidate.
    pub sightings: Vec<Sighting>,
}

impl Observation {
    /// Compares at a tolerance: a candidate matches when every element is within twice the case's
    /// tolerance of the learner's (another summation order moves values a little), and is wrong
    /// when it fails the case's tolerance against the right answer.
    pub fn by_tolerance<V: Float>(
        case: &'static str,
        actual: &ArrayD<f64>,
        expected: &ArrayD<f64>,
        candidates: Vec<Candidate<V>>,
        atol: f64,
        rtol: f64,
    ) -> Observation {
        let within = |a: &ArrayD<f64>, b: &ArrayD<f64>, scale: f64| {
            a.shape() == b.shape() && a.iter().zip(b.iter()).all(|(&x, &y)| is_close(x, y, atol * scale, rtol * scale))
        };
        let sightings = candidates
            .into_iter()
            .map(|c| {
                let output = c.output.mapv(V::to_f64);
                Sighting {
                    mistake: c.mistake,
                    variant: c.variant,
                    matches: within(actual, &output, 2.0),
                    wrong: !within(&output, expected, 1.0),
                }
            })
            .collect();
        Observation { case, learner_wrong: !within(actual, expected, 1.0), sightings }
    }

    /// Compares bits, for outputs where one rounding more or less is the whole question: a
    /// candidate matches when at least `share` of the elements are bit-identical.
    pub fn by_bits<T: Float>(
        case: &'static str,
        actual: &ArrayD<T>,
        expected: &ArrayD<T>,
        candidates: Vec<Candidate<T>>,
        share: f64,
    ) -> Observation {
        let same = |a: &ArrayD<T>, b: &ArrayD<T>| {
            if a.shape() != b.shape() {
                return false;
            }
            let equal = a.iter().zip(b.iter()).filter(|(x, y)| x.to_f64().to_bits() == y.to_f64().to_bits()).count();
            equal as f64 >= share * a.len() as f64
        };
        let sightings = candidates
            .into_iter()
            .map(|c| Sighting {
                mistake: c.mistake,
                variant: c.variant,
                matches: same(actual, &c.output),
                wrong: !same(&c.output, expected),
            })
            .collect();
        Observation { case, learner_wrong: !same(actual, expected), sightings }
    }
}

/// A variant as observed in `scope` (one function of the learner's that may compute on its own
/// what another one gets right: a `forward` that does not call its `norm`), as its own variant, so
/// that evidence about the other function says nothing against it. Each is made once and kept
/// for the life of the process (a course has a few dozen).
pub fn scoped(scope: &'static str, variant: &'static str) -> &'static str {
    static SCOPED: Mutex<BTreeMap<(&str, &str), &'static str>> = Mutex::new(BTreeMap::new());
    let mut made = SCOPED.lock().unwrap_or_else(|e| e.into_inner());
    made.entry((scope, variant)).or_insert_with(|| Box::leak(format!("{scope}: {variant}").into_boxed_str()))
}

/// The mistakes the observations name, and for each the cases whose failure it explains.
pub fn named(observations: &[Observation]) -> BTreeMap<&'static str, Vec<&'static str>> {
    // First, which ways of writing a mistake some comparison contradicts.
    let mut contradicted: BTreeMap<(&str, &str), bool> = BTreeMap::new();
    for s in observations.iter().flat_map(|o| &o.sightings) {
        *contradicted.entry((s.mistake, s.variant)).or_default() |= !s.matches;
    }
    let standing = |s: &Sighting| !contradicted.get(&(s.mistake, s.variant)).copied().unwrap_or(true);
    // Then, where a standing one matched a wrong output and no other standing mistake did: a
    // mistake ruled out elsewhere is no rival, but two that still both fit are no evidence.
    let mut names: BTreeMap<&'static str, Vec<&'static str>> = BTreeMap::new();
    for observation in observations.iter().filter(|o| o.learner_wrong) {
        for s in observation.sightings.iter().filter(|s| s.matches && s.wrong && standing(s)) {
            let rival =
                observation.sightings.iter().any(|o| o.mistake != s.mistake && o.matches && o.wrong && standing(o));
            if !rival {
                let cases = names.entry(s.mistake).or_default();
                if !cases.contains(&observation.case) {
                    cases.push(observation.case);
                }
            }
        }
    }
    names
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sighting(mistake: &'static str, matches: bool, wrong: bool) -> Sighting {
        Sighting { mistake, variant: "v", matches, wrong }
    }

    /// A comparison the learner failed.
    fn observation(case: &'static str, sightings: Vec<Sighting>) -> Observation {
        Observation { case, learner_wrong: true, sightings }
    }

    #[test]
    fn a_mistake_is_named_when_it_alone_explains_a_failure_and_nothing_contradicts_it() {
        let observations = vec![
            // D = 2: the sum and D − 1 coincide: evidence for neither.
            observation(
                "tutorial-case",
                vec![sighting("sum-not-mean", true, true), sighting("d-minus-one", true, true)],
            ),
            // D = 4: only D − 1 matches; the sum is contradicted.
            observation(
                "last-axis-only",
                vec![sighting("sum-not-mean", false, true), sighting("d-minus-one", true, true)],
            ),
            // A passing comparison where D − 1 would be right anyway says nothing against it.
            observation(
                "empty-batch",
                vec![sighting("sum-not-mean", true, false), sighting("d-minus-one", true, false)],
            ),
        ];
        let names = named(&observations);
        assert_eq!(names.keys().copied().collect::<Vec<_>>(), vec!["d-minus-one"]);
        // The sum, ruled out at D = 4, is no rival at D = 2 any more: both failures are explained.
        assert_eq!(names["d-minus-one"], vec!["tutorial-case", "last-axis-only"]);
    }

    #[test]
    fn coincidences_alone_name_nothing_and_a_contradiction_vetoes() {
        let tie =
            vec![observation("f16-long-row", vec![sighting("layernorm", true, true), sighting("half", true, true)])];
        assert!(named(&tie).is_empty(), "a tie is no evidence");
        // Once one of the two is ruled out elsewhere, the tie is evidence for the other.
        let mut settled = tie.clone();
        settled.push(observation(
            "f16-squares-in-fp32",
            vec![sighting("layernorm", false, false), sighting("half", true, true)],
        ));
        assert_eq!(named(&settled).keys().copied().collect::<Vec<_>>(), vec!["half"]);
        let vetoed = vec![
            observation("a", vec![sighting("layernorm", true, true)]),
            observation("b", vec![sighting("layernorm", false, false)]),
        ];
        assert!(named(&vetoed).is_empty(), "a passing case where it would be wrong contradicts it");
    }

    #[test]
    fn a_scoped_variant_is_its_own_and_made_once() {
        let (a, b) = (scoped("forward", "centred"), scoped("forward", "centred"));
        assert_eq!((a, std::ptr::eq(a, b)), ("forward: centred", true));
        assert_ne!(scoped("backward", "centred"), a);
    }

    #[test]
    fn a_comparison_the_learner_passed_is_no_evidence_for_a_mistake() {
        // No eps: a little off the right answer, within twice the tolerance of the learner's.
        let passed = Observation {
            case: "f16-input",
            learner_wrong: false,
            sightings: vec![sighting("forward-without-eps", true, true)],
        };
        assert!(named(std::slice::from_ref(&passed)).is_empty());
        let failed = Observation { learner_wrong: true, ..passed };
        assert_eq!(named(&[failed]).keys().copied().collect::<Vec<_>>(), vec!["forward-without-eps"]);
    }
}
