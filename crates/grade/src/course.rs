//! What a course's grading code gives tutor: its cases, its mistakes, and a verdict on a graded
//! program. The CLI knows courses only through this trait (and the files registered beside it),
//! so a new course adds no line to the CLI.

use crate::fault::Channel;
use crate::report::{Contract, Report};
use crate::run::{self, Case, Run};
use crate::text::Bi;

/// One case as the course lists it: its contract, id and title.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CaseTitle {
    /// The contract it belongs to.
    pub contract: Contract,
    /// Stable id, carried in reports.
    pub id: &'static str,
    /// What it checks, in Chinese.
    pub zh: &'static str,
    /// What it checks, in English.
    pub en: &'static str,
}

/// A classic mistake and the hint that addresses it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Mistake {
    /// Stable id, carried in the report.
    pub id: &'static str,
    /// The exercise whose hints address it (its id within the course, e.g. `02-norm`).
    pub exercise: &'static str,
    /// The hint level that addresses it.
    pub hint: u32,
    /// What it is, in Chinese.
    pub zh: &'static str,
    /// What it is, in English.
    pub en: &'static str,
}

impl Mistake {
    /// Its title in both languages.
    pub fn title(&self) -> Bi {
        Bi::new(self.zh, self.en)
    }
}

/// A short note for a compiler error beginners meet: when rustc says `missing` cannot be found,
/// the line that brings it in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ImportNote {
    /// The name rustc cannot find.
    pub missing: &'static str,
    /// The `use` line that brings it in.
    pub import: &'static str,
}

/// A course's grading code, registered in `courses/Cargo.toml` (see the README). A course lists
/// its cases and mistakes; the case runner ([`run::grade`]) grades and names by evidence.
pub trait Course: Sync {
    /// Every case with its body, in the order it runs and is shown. (A course that still runs
    /// its own loop overrides [`Course::cases`] and [`Course::grade`] instead: none here then.)
    fn checks(&self) -> Vec<Case> {
        Vec::new()
    }

    /// Every mistake the course can name.
    fn mistakes(&self) -> &'static [Mistake];

    /// The mistake a property of the learner's code shows, when no case and no observation named
    /// one (the course's diagnoses by property; none by default).
    fn by_property(&self, _run: &Run) -> Option<&'static str> {
        None
    }

    /// Every case's contract, id and title, in order.
    fn cases(&self) -> Vec<CaseTitle> {
        self.checks().iter().map(Case::title).collect()
    }

    /// Grades the program behind `channel`, with random inputs drawn from `seed`.
    fn grade(&self, channel: &dyn Channel, seed: u64) -> Report {
        run::grade(&self.checks(), self.mistakes(), &Run::new(channel, seed), |run| self.by_property(run))
    }

    /// Notes for the names an exercise file forgets to import.
    fn import_notes(&self) -> &'static [ImportNote] {
        &[]
    }
}
