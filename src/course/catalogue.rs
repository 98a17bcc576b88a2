//! The catalogue of every registered course (`exercises/<course>/info.toml` each), and resolving
//! what a learner types to an exercise. Nothing here names a course: the list comes from the
//! registry (`courses/Cargo.toml`).

use serde::Deserialize;
use tutor_courses::Registered;

use super::embedded;

/// Every course, and every exercise in the order they are taken (course by course).
#[derive(Debug, Clone)]
pub struct Catalogue {
    /// The courses, in registration order.
    pub courses: Vec<CourseEntry>,
    /// The exercises of every course, in order.
    pub exercises: Vec<Exercise>,
}

/// One course of the catalogue.
#[derive(Debug, Clone)]
pub struct CourseEntry {
    /// Its id: its folder's name under `exercises/`, `solutions/`, `lessons/`, `courses/`.
    pub id: String,
    /// What its `info.toml` says about it.
    pub info: CourseInfo,
}

impl CourseEntry {
    /// The course's registry entry: its grading code and files.
    pub fn registered(&self) -> &'static Registered {
        embedded::registered(&self.id).expect("a catalogue course is registered")
    }
}

/// One course's `info.toml`.
#[derive(Debug, Clone, Deserialize)]
struct CourseFile {
    course: CourseInfo,
    exercises: Vec<Exercise>,
}

/// Course-wide facts.
#[derive(Debug, Clone, Deserialize)]
pub struct CourseInfo {
    /// Title in Chinese.
    pub title_zh: String,
    /// Title in English.
    pub title_en: String,
    /// The overview lesson's path.
    pub overview: String,
}

/// One exercise of the catalogue.
#[derive(Debug, Clone, Deserialize, PartialEq)]
pub struct Exercise {
    /// The name it is shown and typed by: its id in its course (`02-norm`), or, when another
    /// course has an exercise of that id, `course/id`.
    pub id: String,
    /// The course it belongs to.
    #[serde(skip)]
    pub course: String,
    /// Its id within its course, as `info.toml` has it.
    #[serde(skip)]
    pub local: String,
    /// The TODO number the learner writes.
    pub todo: u32,
    /// Title in Chinese.
    pub title_zh: String,
    /// Title in English.
    pub title_en: String,
    /// The learner's file, relative to the workspace.
    pub file: String,
    /// The reference solution's path in the course files.
    pub solution: String,
    /// The lesson's path in the course files.
    pub lesson: String,
    /// The kit's given pieces (`courses/<course>/kit/src/reference/<piece>.rs`) its graded program
    /// is built with, besides those that answer no TODO; every other piece is absent from it. `None`
    /// for a course whose kit is one `reference` module, which its programs link whole.
    #[serde(default)]
    pub given: Option<Vec<String>>,
}

impl Exercise {
    /// The key progress and the harness know it by: `course/id`, unique across courses.
    pub fn key(&self) -> String {
        format!("{}/{}", self.course, self.local)
    }

    /// The reference solution.
    pub fn solution(&self) -> &'static str {
        embedded::course_file(&self.solution).unwrap_or_default()
    }

    /// The lesson markdown.
    pub fn lesson_source(&self) -> &'static str {
        embedded::course_file(&self.lesson).unwrap_or_default()
    }

    /// The stub as the course ships it.
    pub fn stub(&self) -> &'static str {
        embedded::course_file(&self.file).unwrap_or_default()
    }

    /// Its course's registry entry: grading code and kit.
    pub fn registered(&self) -> &'static Registered {
        embedded::registered(&self.course).expect("a catalogue exercise's course is registered")
    }

    /// The part of the id after the number: `norm` for `02-norm`.
    fn short_name(&self) -> &str {
        self.local.split_once('-').map_or(self.local.as_str(), |(_, rest)| rest)
    }

    /// The number before the dash: 2 for `02-norm`.
    fn number(&self) -> Option<u32> {
        self.local.split('-').next()?.parse().ok()
    }
}

/// What the learner typed matched no exercise, or exercises of several courses.
#[derive(Debug, Clone, PartialEq)]
pub struct UnknownExercise {
    /// What was typed.
    pub given: String,
    /// The closest id, when one is close enough to suggest.
    pub suggestion: Option<String>,
    /// The exercises it names in different courses (`course/id` each), when it names several.
    pub candidates: Vec<String>,
}

/// A course's `info.toml` could not be read.
#[derive(Debug)]
pub struct CatalogueError {
    /// The course.
    pub course: String,
    /// Why.
    pub error: toml::de::Error,
}

impl std::fmt::Display for CatalogueError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "exercises/{}/info.toml: {}", self.course, self.error)
    }
}

impl std::error::Error for CatalogueError {}

impl Catalogue {
    /// The catalogue of every course compiled into this binary.
    pub fn embedded() -> Result<Self, CatalogueError> {
        Self::from_sources(
            embedded::courses().iter().map(|c| (c.id, embedded::course_file(&info_path(c.id)).unwrap_or_default())),
        )
    }

    /// A catalogue from each course's id and `info.toml` text.
    pub fn from_sources<'a>(sources: impl IntoIterator<Item = (&'a str, &'a str)>) -> Result<Self, CatalogueError> {
        let mut courses = Vec::new();
        let mut exercises: Vec<Exercise> = Vec::new();
        for (id, text) in sources {
            let file: CourseFile =
                toml::from_str(text).map_err(|error| CatalogueError { course: id.to_string(), error })?;
            courses.push(CourseEntry { id: id.to_string(), info: file.course });
            exercises.extend(file.exercises.into_iter().map(|mut e| {
                e.course = id.to_string();
                e.local = e.id.clone();
                e
            }));
        }
        // An id two courses share is shown and typed with its course.
        let shared: Vec<String> = exercises
            .iter()
            .filter(|e| exercises.iter().filter(|o| o.local == e.local).count() > 1)
            .map(|e| e.local.clone())
            .collect();
        for exercise in &mut exercises {
            if shared.contains(&exercise.local) {
                exercise.id = exercise.key();
            }
        }
        Ok(Catalogue { courses, exercises })
    }

    /// A course by its id.
    pub fn course(&self, id: &str) -> Option<&CourseEntry> {
        self.courses.iter().find(|c| c.id == id)
    }

    /// The exercises of one course, in order.
    pub fn exercises_of<'a>(&'a self, course: &'a str) -> impl Iterator<Item = &'a Exercise> + 'a {
        self.exercises.iter().filter(move |e| e.course == course)
    }

    /// Resolves `02-norm`, `02`, `2`, `norm` (and any unambiguous prefix of an id) to an exercise,
    /// in any course, or within one course when it is named first: `<course>/02`,
    /// `exercises/<course>/02-norm.rs`. A name that fits exercises of two courses is ambiguous.
    #[cfg(test)]
    pub fn resolve(&self, given: &str) -> Result<&Exercise, UnknownExercise> {
        self.resolve_preferring(given, None).map(|(exercise, _)| exercise)
    }

    /// [`Catalogue::resolve`], except that a name fitting exercises of several courses means the
    /// one in `preferred` (the learner's current course) when that course has one: `tutor check 2`
    /// keeps meaning "exercise 2 of the course I am taking" whatever other courses there are.
    /// With the exercise come the others the name also fits (`course/id` each), when the
    /// preference chose among several.
    pub fn resolve_preferring(
        &self,
        given: &str,
        preferred: Option<&str>,
    ) -> Result<(&Exercise, Vec<String>), UnknownExercise> {
        let wanted = given.trim().trim_end_matches(".rs").to_lowercase();
        let parts: Vec<&str> = wanted.split('/').collect();
        let name = parts.last().copied().unwrap_or_default().to_string();
        let course = parts.iter().rev().skip(1).find(|p| self.course(p).is_some()).map(|p| p.to_string());
        let unknown = |suggestion, candidates| UnknownExercise { given: given.to_string(), suggestion, candidates };
        let mut found: Vec<&Exercise> = Vec::new();
        for entry in &self.courses {
            if course.as_ref().is_some_and(|c| *c != entry.id) {
                continue;
            }
            if let Some(exercise) = Self::resolve_in(self.exercises_of(&entry.id).collect(), &name) {
                found.push(exercise);
            }
        }
        match found.as_slice() {
            [one] => Ok((one, Vec::new())),
            [_, _, ..] => match found.iter().find(|e| preferred.is_some_and(|p| p == e.course)) {
                Some(mine) => Ok((mine, found.iter().filter(|e| e.key() != mine.key()).map(|e| e.key()).collect())),
                None => Err(unknown(None, found.iter().map(|e| e.key()).collect())),
            },
            [] => Err(unknown(self.closest(&name, course.as_deref()), Vec::new())),
        }
    }

    /// The exercise of one course's list that `wanted` names.
    fn resolve_in<'a>(exercises: Vec<&'a Exercise>, wanted: &str) -> Option<&'a Exercise> {
        exercises
            .iter()
            .find(|e| e.local == wanted || e.short_name() == wanted)
            .or_else(|| {
                let number: u32 = wanted.parse().ok()?;
                exercises.iter().find(|e| e.number() == Some(number))
            })
            .or_else(|| {
                let mut by_prefix = exercises.iter().filter(|e| !wanted.is_empty() && e.local.starts_with(wanted));
                let first = by_prefix.next()?;
                by_prefix.next().is_none().then_some(first)
            })
            .copied()
    }

    fn closest(&self, wanted: &str, course: Option<&str>) -> Option<String> {
        self.exercises
            .iter()
            .filter(|e| course.is_none_or(|c| c == e.course))
            .map(|e| {
                let distance = strsim::levenshtein(wanted, &e.local).min(strsim::levenshtein(wanted, e.short_name()));
                (distance, e)
            })
            .filter(|(distance, e)| *distance <= 3.max(e.short_name().len() / 2))
            .min_by_key(|(distance, _)| *distance)
            .map(|(_, e)| e.id.clone())
    }
}

/// Where a course's catalogue is, in the course files and in a workspace.
pub fn info_path(course: &str) -> String {
    format!("exercises/{course}/info.toml")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn resolves_every_spelling_a_learner_uses() {
        let catalogue = Catalogue::embedded().unwrap();
        let spellings = [
            "02-norm",
            "02",
            "2",
            "norm",
            "NORM",
            "exercises/rmsnorm/02-norm.rs",
            "exercises/02-norm.rs",
            "02-n",
            "rmsnorm/02",
            "rmsnorm/norm",
            "rmsnorm/02-norm",
        ];
        for given in spellings {
            // Preferring the course: another course may have a `02` too.
            let found = catalogue.resolve_preferring(given, Some("rmsnorm"));
            assert_eq!(found.unwrap().0.key(), "rmsnorm/02-norm", "{given}");
        }
        assert_eq!(catalogue.resolve("rmsnorm/1").unwrap().key(), "rmsnorm/01-weight");
        assert_eq!(catalogue.resolve_preferring("forward", Some("rmsnorm")).unwrap().0.key(), "rmsnorm/03-forward");
    }

    #[test]
    fn suggests_the_closest_exercise_for_a_typo() {
        let catalogue = Catalogue::embedded().unwrap();
        let err = catalogue.resolve("nrom").unwrap_err();
        assert_eq!(err.suggestion.as_deref(), Some("02-norm"));
        let err = catalogue.resolve("02-weigth").unwrap_err();
        assert_eq!(err.suggestion.as_deref(), Some("01-weight"));
        assert_eq!(catalogue.resolve("softmax-attention-kernel").unwrap_err().suggestion, None);
        assert!(catalogue.resolve("rmsnorm/0").is_err(), "a prefix shared by every exercise is ambiguous");
    }

    const TWO_COURSES: [(&str, &str); 2] = [
        ("alpha", "[course]\ntitle_zh = \"甲\"\ntitle_en = \"A\"\noverview = \"o\"\n[[exercises]]\nid = \"01-scale\"\ntodo = 1\ntitle_zh = \"甲\"\ntitle_en = \"a\"\nfile = \"f\"\nsolution = \"s\"\nlesson = \"l\"\n[[exercises]]\nid = \"02-shift\"\ntodo = 2\ntitle_zh = \"乙\"\ntitle_en = \"b\"\nfile = \"f\"\nsolution = \"s\"\nlesson = \"l\"\n"),
        ("beta", "[course]\ntitle_zh = \"乙\"\ntitle_en = \"B\"\noverview = \"o\"\n[[exercises]]\nid = \"01-scale\"\ntodo = 1\ntitle_zh = \"丙\"\ntitle_en = \"c\"\nfile = \"f\"\nsolution = \"s\"\nlesson = \"l\"\n"),
    ];

    #[test]
    fn a_name_two_courses_share_needs_its_course() {
        let catalogue = Catalogue::from_sources(TWO_COURSES).unwrap();
        assert_eq!(
            catalogue.exercises.iter().map(|e| e.id.as_str()).collect::<Vec<_>>(),
            ["alpha/01-scale", "02-shift", "beta/01-scale"]
        );
        let err = catalogue.resolve("scale").unwrap_err();
        assert_eq!(err.candidates, ["alpha/01-scale", "beta/01-scale"], "ambiguous: every candidate, with its course");
        let (chosen, others) = catalogue.resolve_preferring("1", Some("beta")).unwrap();
        assert_eq!((chosen.key().as_str(), others), ("beta/01-scale", vec!["alpha/01-scale".to_string()]));
        assert_eq!(catalogue.resolve_preferring("scale", Some("alpha")).unwrap().0.key(), "alpha/01-scale");
        assert!(catalogue.resolve_preferring("1", Some("gamma")).is_err(), "no preferred course has it");
        assert_eq!(catalogue.resolve("beta/scale").unwrap().key(), "beta/01-scale");
        assert_eq!(catalogue.resolve("beta/1").unwrap().key(), "beta/01-scale");
        assert_eq!(catalogue.resolve("shift").unwrap().key(), "alpha/02-shift", "unique names need no course");
        assert!(catalogue.resolve("beta/shift").is_err());
    }

    #[test]
    fn every_catalogue_entry_has_its_files_embedded() {
        let catalogue = Catalogue::embedded().unwrap();
        assert_eq!(catalogue.courses.len(), embedded::courses().len());
        for course in &catalogue.courses {
            let exercises: Vec<&Exercise> = catalogue.exercises_of(&course.id).collect();
            assert!(!exercises.is_empty(), "{}", course.id);
            for (i, e) in exercises.iter().enumerate() {
                assert_eq!(e.todo as usize, i + 1);
                assert!(e.stub().contains(&format!("TODO {}", e.todo)), "{}", e.id);
                assert!(!e.solution().contains("todo!("), "{}", e.id);
                assert!(!e.lesson_source().is_empty(), "{}", e.id);
            }
            assert!(embedded::course_file(&course.info.overview).is_some());
        }
    }
}
