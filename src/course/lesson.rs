//! Splits a lesson's markdown into its parts at `<!-- tutor: KIND [N] LANG -->` marker lines.
//! The format is documented in `lessons/README.md`.

use std::fmt;

/// A content language.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Language {
    /// 中文
    Zh,
    /// English
    En,
}

impl Language {
    /// Both, Chinese first.
    pub const BOTH: [Language; 2] = [Language::Zh, Language::En];

    fn parse(word: &str) -> Option<Self> {
        match word {
            "zh" => Some(Language::Zh),
            "en" => Some(Language::En),
            _ => None,
        }
    }
}

/// Which part of a lesson a section is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Part {
    /// The lesson text.
    Lesson,
    /// A hint, numbered from 1.
    Hint(u32),
    /// The explanation shown after the solution is revealed.
    Explanation,
}

impl Part {
    /// The section's marker words, as an author writes them: `hint 2 zh`.
    pub fn marker(self, language: Language) -> String {
        let language = match language {
            Language::Zh => "zh",
            Language::En => "en",
        };
        match self {
            Part::Lesson => format!("lesson {language}"),
            Part::Hint(n) => format!("hint {n} {language}"),
            Part::Explanation => format!("explanation {language}"),
        }
    }
}

/// One section: a part in one language.
#[derive(Debug, Clone, PartialEq)]
struct Section {
    part: Part,
    language: Language,
    text: String,
}

/// A parsed lesson.
#[derive(Debug, Clone, PartialEq)]
pub struct Lesson {
    sections: Vec<Section>,
}

/// Why a lesson file does not parse or is incomplete.
#[derive(Debug, Clone, PartialEq)]
pub struct LessonError {
    /// 1-based line, when the problem is on one line.
    pub line: Option<usize>,
    /// What is wrong.
    pub problem: LessonProblem,
}

/// What is wrong with a lesson file (the sentences are in `crate::text`).
#[derive(Debug, Clone, PartialEq)]
pub enum LessonProblem {
    /// A marker line does not end with `-->`.
    Unterminated,
    /// A section (its marker words) appears twice.
    Twice(String),
    /// A hint's number is not a number.
    HintNotANumber(String),
    /// A hint numbered 0.
    HintZero,
    /// A marker of an unknown kind.
    UnknownMarker(String),
    /// A marker in an unknown language.
    UnknownLanguage(String),
    /// Fewer hints than an exercise lesson needs.
    TooFewHints { count: u32, min: u32 },
    /// A section that must exist is missing or empty (its marker words).
    Missing(String),
}

impl LessonError {
    /// The problem in one language, with its line when it has one.
    pub fn describe(&self, language: Language) -> String {
        crate::text::lesson_problem(language, self)
    }
}

impl fmt::Display for LessonError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.describe(Language::En))
    }
}

impl std::error::Error for LessonError {}

const MARKER_START: &str = "<!-- tutor:";
const MARKER_END: &str = "-->";

impl Lesson {
    /// Parses markdown with marker lines; text before the first marker is ignored.
    pub fn parse(source: &str) -> Result<Lesson, LessonError> {
        let mut sections: Vec<Section> = Vec::new();
        for (index, line) in source.lines().enumerate() {
            let trimmed = line.trim();
            if let Some(inner) = trimmed.strip_prefix(MARKER_START) {
                let inner = inner
                    .strip_suffix(MARKER_END)
                    .ok_or(LessonError { line: Some(index + 1), problem: LessonProblem::Unterminated })?;
                let (part, language) =
                    parse_marker(inner).map_err(|problem| LessonError { line: Some(index + 1), problem })?;
                if sections.iter().any(|s| s.part == part && s.language == language) {
                    return Err(LessonError {
                        line: Some(index + 1),
                        problem: LessonProblem::Twice(part.marker(language)),
                    });
                }
                sections.push(Section { part, language, text: String::new() });
            } else if let Some(current) = sections.last_mut() {
                current.text.push_str(line);
                current.text.push('\n');
            }
        }
        for section in &mut sections {
            section.text = section.text.trim().to_string();
        }
        Ok(Lesson { sections })
    }

    /// The text of a part in a language.
    pub fn text(&self, part: Part, language: Language) -> Option<&str> {
        self.sections.iter().find(|s| s.part == part && s.language == language).map(|s| s.text.as_str())
    }

    /// How many hint levels there are (1 ..= count).
    pub fn hint_count(&self) -> u32 {
        self.sections.iter().filter_map(|s| if let Part::Hint(n) = s.part { Some(n) } else { None }).max().unwrap_or(0)
    }

    /// Checks that the lesson text exists in both languages, and, for an exercise lesson, that
    /// there are at least `min_hints` gap-free hints and an explanation, all in both languages.
    pub fn validate(&self, exercise: bool, min_hints: u32) -> Result<(), LessonError> {
        let mut required = vec![Part::Lesson];
        if exercise {
            let count = self.hint_count();
            if count < min_hints {
                return Err(LessonError { line: None, problem: LessonProblem::TooFewHints { count, min: min_hints } });
            }
            required.extend((1..=count).map(Part::Hint));
            required.push(Part::Explanation);
        }
        for part in required {
            for language in Language::BOTH {
                match self.text(part, language) {
                    Some(text) if !text.is_empty() => {}
                    _ => {
                        return Err(LessonError { line: None, problem: LessonProblem::Missing(part.marker(language)) })
                    }
                }
            }
        }
        Ok(())
    }
}

fn parse_marker(inner: &str) -> Result<(Part, Language), LessonProblem> {
    let words: Vec<&str> = inner.split_whitespace().collect();
    let (part, language) = match words.as_slice() {
        ["lesson", lang] => (Part::Lesson, lang),
        ["explanation", lang] => (Part::Explanation, lang),
        ["hint", n, lang] => {
            let n: u32 = n.parse().map_err(|_| LessonProblem::HintNotANumber(n.to_string()))?;
            if n == 0 {
                return Err(LessonProblem::HintZero);
            }
            (Part::Hint(n), lang)
        }
        _ => return Err(LessonProblem::UnknownMarker(inner.trim().to_string())),
    };
    let language = Language::parse(language).ok_or_else(|| LessonProblem::UnknownLanguage(language.to_string()))?;
    Ok((part, language))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::course::embedded::course_files;

    #[test]
    fn splits_sections_and_ignores_the_title() {
        let source = "# Title\n<!-- tutor: lesson zh -->\n中文\n\n<!-- tutor: lesson en -->\nEnglish\n<!-- tutor: hint 1 en -->\nh1\n";
        let lesson = Lesson::parse(source).unwrap();
        assert_eq!(lesson.text(Part::Lesson, Language::Zh), Some("中文"));
        assert_eq!(lesson.text(Part::Lesson, Language::En), Some("English"));
        assert_eq!(lesson.text(Part::Hint(1), Language::En), Some("h1"));
        assert_eq!(lesson.hint_count(), 1);
        assert!(lesson.validate(false, 0).is_ok());
        assert!(lesson.validate(true, 1).is_err(), "hint 1 zh and the explanation are missing");
    }

    #[test]
    fn rejects_malformed_markers() {
        assert_eq!(Lesson::parse("<!-- tutor: lesson fr -->").unwrap_err().line, Some(1));
        assert!(Lesson::parse("x\n<!-- tutor: hint one en -->").is_err());
        assert!(Lesson::parse("<!-- tutor: hint 0 en -->").is_err());
        assert!(Lesson::parse("<!-- tutor: lesson en").is_err());
        assert!(Lesson::parse("<!-- tutor: lesson en -->\na\n<!-- tutor: lesson en -->\nb").is_err());
    }

    #[test]
    fn a_gap_in_the_hints_is_reported() {
        let source = "<!-- tutor: lesson zh -->\na\n<!-- tutor: lesson en -->\na\n\
            <!-- tutor: hint 1 zh -->\na\n<!-- tutor: hint 1 en -->\na\n<!-- tutor: hint 3 zh -->\na\n<!-- tutor: hint 3 en -->\na\n\
            <!-- tutor: explanation zh -->\na\n<!-- tutor: explanation en -->\na\n";
        let err = Lesson::parse(source).unwrap().validate(true, 1).unwrap_err();
        assert_eq!(err.problem, LessonProblem::Missing("hint 2 zh".into()), "{err}");
    }

    #[test]
    fn every_shipped_lesson_parses_and_is_complete_in_both_languages() {
        let lessons: Vec<_> = course_files().filter(|f| f.path.starts_with("lessons/")).collect();
        let catalogue = crate::course::Catalogue::embedded().unwrap();
        let expected = catalogue.exercises.len() + catalogue.courses.len();
        assert_eq!(lessons.len(), expected, "one lesson per exercise, and an overview per course");
        for file in lessons {
            let lesson = Lesson::parse(file.contents).unwrap_or_else(|e| panic!("{}: {e}", file.path));
            let is_exercise = !catalogue.courses.iter().any(|c| c.info.overview == file.path);
            lesson.validate(is_exercise, 3).unwrap_or_else(|e| panic!("{}: {e}", file.path));
        }
    }
}
