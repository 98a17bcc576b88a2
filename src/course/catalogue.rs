//! The catalogue (`exercises/info.toml`) and resolving what a learner types to an exercise.

use serde::Deserialize;

use super::embedded;

/// The course: its overview and its exercises in the order they are taken.
#[derive(Debug, Clone, Deserialize)]
pub struct Catalogue {
    /// Course-wide facts.
    pub course: CourseInfo,
    /// The exercises, in order.
    pub exercises: Vec<Exercise>,
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
    /// Stable id, for example `02-norm`.
    pub id: String,
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
}

impl Exercise {
    /// The reference solution.
    pub fn solution(&self) -> &'static str {
        embedded::course_file(&self.solution).unwrap_or_default()
    }

    /// The lesson markdown.
    pub fn lesson_source(&self) -> &'static str {
        embedded::course_file(&self.lesson).unwrap_or_default()
    }

    /// The part of the id after the number: `norm` for `02-norm`.
    fn short_name(&self) -> &str {
        self.id.split_once('-').map_or(self.id.as_str(), |(_, rest)| rest)
    }

    /// The number before the dash: 2 for `02-norm`.
    fn number(&self) -> Option<u32> {
        self.id.split('-').next()?.parse().ok()
    }
}

/// What the learner typed matched no exercise.
#[derive(Debug, Clone, PartialEq)]
pub struct UnknownExercise {
    /// What was typed.
    pub given: String,
    /// The closest id, when one is close enough to suggest.
    pub suggestion: Option<String>,
}

impl Catalogue {
    /// The catalogue compiled into this binary.
    pub fn embedded() -> Result<Self, toml::de::Error> {
        toml::from_str(embedded::course_file("exercises/info.toml").unwrap_or_default())
    }

    /// Resolves `02-norm`, `02`, `2`, `norm` (and any unambiguous prefix of an id) to an exercise.
    pub fn resolve(&self, given: &str) -> Result<&Exercise, UnknownExercise> {
        let wanted = given.trim().trim_end_matches(".rs").to_lowercase();
        let wanted = wanted.rsplit('/').next().unwrap_or(&wanted).to_string();
        let found = self
            .exercises
            .iter()
            .find(|e| e.id == wanted || e.short_name() == wanted)
            .or_else(|| {
                let number: u32 = wanted.parse().ok()?;
                self.exercises.iter().find(|e| e.number() == Some(number))
            })
            .or_else(|| {
                let mut by_prefix = self.exercises.iter().filter(|e| !wanted.is_empty() && e.id.starts_with(&wanted));
                let first = by_prefix.next()?;
                by_prefix.next().is_none().then_some(first)
            });
        found.ok_or_else(|| UnknownExercise { given: given.to_string(), suggestion: self.closest(&wanted) })
    }

    fn closest(&self, wanted: &str) -> Option<String> {
        self.exercises
            .iter()
            .map(|e| {
                let distance = strsim::levenshtein(wanted, &e.id).min(strsim::levenshtein(wanted, e.short_name()));
                (distance, e)
            })
            .filter(|(distance, e)| *distance <= 3.max(e.short_name().len() / 2))
            .min_by_key(|(distance, _)| *distance)
            .map(|(_, e)| e.id.clone())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn resolves_every_spelling_a_learner_uses() {
        let catalogue = Catalogue::embedded().unwrap();
        for given in ["02-norm", "02", "2", "norm", "NORM", "exercises/02-norm.rs", "02-n"] {
            assert_eq!(catalogue.resolve(given).unwrap().id, "02-norm", "{given}");
        }
        assert_eq!(catalogue.resolve("1").unwrap().id, "01-weight");
        assert_eq!(catalogue.resolve("forward").unwrap().id, "03-forward");
    }

    #[test]
    fn suggests_the_closest_exercise_for_a_typo() {
        let catalogue = Catalogue::embedded().unwrap();
        let err = catalogue.resolve("nrom").unwrap_err();
        assert_eq!(err.suggestion.as_deref(), Some("02-norm"));
        let err = catalogue.resolve("02-weigth").unwrap_err();
        assert_eq!(err.suggestion.as_deref(), Some("01-weight"));
        assert_eq!(catalogue.resolve("softmax-attention-kernel").unwrap_err().suggestion, None);
        assert!(catalogue.resolve("0").is_err(), "a prefix shared by every exercise is ambiguous");
    }

    #[test]
    fn every_catalogue_entry_has_its_files_embedded() {
        let catalogue = Catalogue::embedded().unwrap();
        assert!(!catalogue.exercises.is_empty());
        for (i, e) in catalogue.exercises.iter().enumerate() {
            assert_eq!(e.todo as usize, i + 1);
            assert!(embedded::course_file(&e.file).unwrap().contains(&format!("TODO {}", e.todo)), "{}", e.id);
            assert!(!e.solution().contains("todo!("), "{}", e.id);
            assert!(!e.lesson_source().is_empty(), "{}", e.id);
        }
        assert!(embedded::course_file(&catalogue.course.overview).is_some());
    }

    #[test]
    fn every_named_mistake_points_at_a_hint_that_exists() {
        use crate::course::lesson::Lesson;
        let catalogue = Catalogue::embedded().unwrap();
        for mistake in tutor_grade::mistakes::ALL {
            let exercise = catalogue
                .resolve(mistake.exercise)
                .unwrap_or_else(|_| panic!("{}: no exercise {}", mistake.id, mistake.exercise));
            let hints = Lesson::parse(exercise.lesson_source()).unwrap().hint_count();
            assert!((1..=hints).contains(&mistake.hint), "{} points at hint {} of {hints}", mistake.id, mistake.hint);
        }
    }

    #[test]
    fn hints_never_hold_the_solution_code() {
        use crate::course::lesson::{Language, Lesson, Part};
        let catalogue = Catalogue::embedded().unwrap();
        for exercise in &catalogue.exercises {
            let lesson = Lesson::parse(exercise.lesson_source()).unwrap();
            // The lines the learner writes: in the solution, absent from the stub.
            let stub = embedded::course_file(&exercise.file).unwrap();
            let written: Vec<&str> = exercise
                .solution()
                .lines()
                .map(str::trim)
                .filter(|l| l.starts_with("let ") && !stub.contains(*l))
                .collect();
            assert!(!written.is_empty(), "{}", exercise.id);
            for level in 1..=lesson.hint_count() {
                for language in Language::BOTH {
                    let hint = lesson.text(Part::Hint(level), language).unwrap();
                    for line in &written {
                        let code = line.trim_end_matches(';');
                        assert!(!hint.contains(code), "{} hint {level} gives away `{line}`", exercise.id);
                    }
                }
            }
        }
    }
}
