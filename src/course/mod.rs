//! The course as the binary carries it: catalogue, lessons, stubs, solutions and kit source.

pub mod cargo_habits;
pub mod catalogue;
pub mod editor;
pub mod embedded;
pub mod lesson;
pub mod notes;

pub use catalogue::{Catalogue, Exercise};
pub use lesson::{Lesson, Part};
pub use notes::CourseNotes;
