//! `tutor lesson [EXERCISE]`: the lesson text, or the overview, rendered for the terminal and
//! paged when it is taller than the screen.

use std::process::ExitCode;

use anyhow::{Context, Result};

use super::Session;
use crate::course::embedded::course_file;
use crate::course::{Lesson, Part};
use crate::render::{markdown, pager};

/// Prints a lesson in the chosen languages.
pub fn run(session: &Session, name: Option<&str>) -> Result<ExitCode> {
    let (source, next) = match name {
        Some(name) => {
            let exercise = session.exercise(Some(name))?;
            (exercise.lesson_source(), Some(exercise.id.clone()))
        }
        None => (course_file(&session.catalogue.course.overview).context("the overview lesson is embedded")?, None),
    };
    let lesson = Lesson::parse(source).context("parsing the lesson")?;
    let texts: Vec<String> = session
        .printer
        .languages()
        .iter()
        .filter_map(|&l| lesson.text(Part::Lesson, l))
        .map(|text| markdown::render(&crate::invocation::course_text(text)))
        .collect();
    let mut shown = texts.join("\n────────\n\n");
    if let Some(id) = next {
        shown.push_str(&format!("\n{}\n", session.printer.lines(|u| u.lesson_next, &[("id", &id)])));
    }
    pager::show(&shown);
    Ok(ExitCode::SUCCESS)
}
