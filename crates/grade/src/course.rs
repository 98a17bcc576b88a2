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

/// A course's table of mistakes, one entry a line pair:
/// `mistakes! { "id", "exercise", hint, "中文", "English"; … }` writes `pub const ALL: &[Mistake]`.
#[macro_export]
macro_rules! mistakes {
    ($($id:literal, $exercise:literal, $hint:literal, $zh:literal, $en:literal;)*) => {
        /// Every mistake the course's checks can name.
        pub const ALL: &[$crate::Mistake] =
            &[$($crate::Mistake { id: $id, exercise: $exercise, hint: $hint, zh: $zh, en: $en }),*];
    };
}

/// What every course's grading crate declares in its `lib.rs`, written once: the kit re-exported
/// (for tests that compile learner files in with `tutor_kit::graded_server!`), the learner's code
/// as the cases call it (`subject`, from the kit's protocol), the course's type and its `COURSE`
/// static for the registry, and its [`Course`] impl listing `cases::all()` and `mistakes::ALL`
/// (the chapter layout: `cases/`, `mistakes.rs`), with import notes for `Param`, `Float` and
/// those given; `served: served::SERVED;` after them returns that table from
/// [`Course::served`] (the course's `served.rs`, written by `tests/it/served.rs`). Further trait
/// methods (diagnoses, coaching) follow.
///
/// ```ignore
/// tutor_grade::course! {
///     /// The SwiGLU course, as tutor's registry knows it.
///     pub struct SwiGlu;
///     imports: [("MlpError", "use tutor_kit::MlpError;"), ("Rng", "use tutor_kit::Rng;")];
///     served: served::SERVED;
/// }
/// ```
#[macro_export]
macro_rules! course {
    (
        $(#[$meta:meta])*
        $vis:vis struct $name:ident;
        imports: [$(($missing:literal, $import:literal)),* $(,)?];
        served: $served:path;
        $($method:tt)*
    ) => {
        $crate::course! {
            $(#[$meta])*
            $vis struct $name;
            imports: [$(($missing, $import)),*];

            fn served(&self) -> &'static [(u32, &'static [(u8, u8)])] {
                $served
            }

            $($method)*
        }
    };
    (
        $(#[$meta:meta])*
        $vis:vis struct $name:ident;
        imports: [$(($missing:literal, $import:literal)),* $(,)?];
        $($method:tt)*
    ) => {
        /// The course's kit, for tests that compile learner files in (`tutor_kit::graded_server!`).
        pub use tutor_kit;

        // The learner's code as the cases call it, through the course's declared calls.
        tutor_kit::protocol!($crate::client!(pub mod subject));

        $(#[$meta])*
        $vis struct $name;

        /// The course's grading code, for the registry.
        pub static COURSE: $name = $name;

        impl $crate::Course for $name {
            fn cases(&self) -> ::std::vec::Vec<$crate::Case> {
                cases::all()
            }

            fn mistakes(&self) -> &'static [$crate::Mistake] {
                mistakes::ALL
            }

            fn import_notes(&self) -> &'static [$crate::ImportNote] {
                &[
                    $crate::ImportNote { missing: "Param", import: "use tutor_kit::Param;" },
                    $crate::ImportNote { missing: "Float", import: "use tutor_kit::Float;" },
                    $($crate::ImportNote { missing: $missing, import: $import },)*
                ]
            }

            $($method)*
        }
    };
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

/// A compile error tutor recognises in rustc's diagnostics, on which a course can coach each of
/// its exercises in that exercise's own terms (the names and conversion it needs).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CompileError {
    /// E0605, `v as T`: a cast to the generic element type, which Rust does not allow.
    CastToGeneric,
    /// E0308, an array of `f32` where one of the generic element type is expected, or the other
    /// way round (`ArrayD<f32>` returned where `ArrayD<T>` is declared).
    ElementType,
    /// E0308, arrays of different dimensions: `Array1` (`Ix1`) where `ArrayD` (`IxDyn`) is
    /// expected, or the other way round.
    Dimension,
    /// E0277 (or E0308 on scalars): arithmetic between the generic element type and `f32`.
    MixedFloat,
}

/// What a course says under one kind of compile error in one of its exercises.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Coaching {
    /// The exercise, by its id within the course (`03-forward`).
    pub exercise: &'static str,
    /// The error it is about.
    pub error: CompileError,
    /// The note in Chinese.
    pub zh: &'static str,
    /// The note in English.
    pub en: &'static str,
}

/// A course's notes under compile errors, one entry a line triple:
/// `coaching! { "03-forward", CastToGeneric, "中文", "English"; … }` writes
/// `pub const COACHING: &[Coaching]` (the error is a [`CompileError`] variant).
#[macro_export]
macro_rules! coaching {
    ($($exercise:literal, $error:ident, $zh:literal, $en:literal;)*) => {
        /// Every note, by exercise.
        pub const COACHING: &[$crate::Coaching] = &[$($crate::Coaching {
            exercise: $exercise,
            error: $crate::CompileError::$error,
            zh: $zh,
            en: $en,
        }),*];
    };
}

/// A course's grading code, registered in `courses/Cargo.toml` (see the README). A course lists
/// its cases and mistakes; the case runner ([`run::grade`]) grades and names by evidence.
pub trait Course: Sync {
    /// Every case with its body, in the order it runs and is shown.
    fn cases(&self) -> Vec<Case>;

    /// Every mistake the course can name.
    fn mistakes(&self) -> &'static [Mistake];

    /// The mistake a property of the learner's code shows, when no case and no observation named
    /// one (the course's diagnoses by property; none by default).
    fn by_property(&self, _run: &Run) -> Option<&'static str> {
        None
    }

    /// A mistake that makes every comparison unreliable (answers that depend on earlier calls,
    /// say), asked first when a case failed; when it names one, that is the only name (none by
    /// default).
    fn before_evidence(&self, _run: &Run) -> Option<&'static str> {
        None
    }

    /// Which of the learner's functions and methods each exercise's graded program serves, and
    /// in which element types: `(todo, [(tag, bits)])` as `tutor_subject::served` reads them, bits
    /// `1 << element` (f32 0, f64 1, f16 2, bf16 3; 4: a call that is not generic). Recorded over
    /// every learner file of the tests and written as the course's `served.rs` by
    /// `TUTOR_WRITE_SERVED=1 cargo test --test it served::`, which fails when a table is not
    /// current. An exercise it does not list serves every call (none listed by default).
    fn served(&self) -> &'static [(u32, &'static [(u8, u8)])] {
        &[]
    }

    /// The handle methods, `Type.method` as the protocol declares them, that keep state between
    /// calls on purpose (a KV cache): [`crate::state::state_kept`] never probes them (none by
    /// default).
    fn stateful(&self) -> &'static [&'static str] {
        &[]
    }

    /// Pairs `(cause, consequence)` of mistakes: when both are named, only the cause is (none by
    /// default).
    fn implied(&self) -> &'static [(&'static str, &'static str)] {
        &[]
    }

    /// Notes for the names an exercise file forgets to import.
    fn import_notes(&self) -> &'static [ImportNote] {
        &[]
    }

    /// Notes on compile errors, each for one exercise and kind of error.
    fn coaching(&self) -> &'static [Coaching] {
        &[]
    }
}

/// What every course does the same way, derived from what it lists (not for a course to change).
impl dyn Course + '_ {
    /// Every case's contract, id and title, in order.
    pub fn case_titles(&self) -> Vec<CaseTitle> {
        self.cases().iter().map(Case::title).collect()
    }

    /// Grades the program behind `channel`, with random inputs drawn from `seed`: every case by
    /// the case runner ([`run::grade`]), mistakes named by evidence.
    pub fn grade(&self, channel: &dyn Channel, seed: u64) -> Report {
        self.grade_cases(&self.cases(), channel, seed)
    }

    /// Grades the program behind `channel` on the cases of the exercise of TODO `todo` (those that
    /// grade it, alone or in a composition: [`Case::belongs_to`]): what `tutor check` runs. Its
    /// report counts only those.
    pub fn grade_exercise(&self, channel: &dyn Channel, seed: u64, todo: u32) -> Report {
        let cases: Vec<Case> = self.cases().into_iter().filter(|case| case.belongs_to(todo)).collect();
        self.grade_cases(&cases, channel, seed)
    }

    /// Grades the program behind `channel` on `cases`, naming mistakes by the course's diagnoses.
    fn grade_cases(&self, cases: &[Case], channel: &dyn Channel, seed: u64) -> Report {
        let diagnoses = run::Diagnoses {
            before_evidence: &|run| self.before_evidence(run),
            by_property: &|run| self.by_property(run),
            implied: self.implied(),
        };
        run::grade(cases, self.mistakes(), &Run::new(channel, seed), diagnoses)
    }

    /// The titles of the exercise of TODO `todo`'s cases, in order (see [`Self::grade_exercise`]).
    pub fn case_titles_of(&self, todo: u32) -> Vec<CaseTitle> {
        self.cases().iter().filter(|case| case.belongs_to(todo)).map(Case::title).collect()
    }
}
