//! What a course says under compile errors in one exercise: its `use` lines and its coaching,
//! picked when a build fails (by the runner) and shown under rustc's messages (by
//! `render::compile_note`).

use tutor_grade::{Coaching, ImportNote};

use super::Exercise;

/// What a course says under compile errors in one exercise.
#[derive(Debug, Clone, Default)]
pub struct CourseNotes {
    /// The `use` lines for the course's names.
    pub imports: &'static [ImportNote],
    /// The exercise's own notes.
    pub coaching: Vec<&'static Coaching>,
}

impl CourseNotes {
    /// The notes of `exercise`'s course that apply to it.
    pub fn for_exercise(exercise: &Exercise) -> CourseNotes {
        let grading = exercise.registered().grading;
        let coaching = grading.coaching().iter().filter(|c| c.exercise == exercise.local).collect();
        CourseNotes { imports: grading.import_notes(), coaching }
    }
}
