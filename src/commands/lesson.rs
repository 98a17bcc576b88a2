//! `tutor lesson [EXERCISE | COURSE]`: the lesson text, or a course's overview, rendered for the terminal and
//! paged when it is taller than the screen.

use std::process::ExitCode;

use anyhow::{Context, Result};

use super::Session;
use crate::course::embedded::course_file;
use crate::course::{Lesson, Part};
use crate::render::{markdown, pager, wrap};

/// Prints a lesson in the chosen languages.
pub fn run(session: &Session, name: Option<&str>) -> Result<ExitCode> {
    pager::show(&text(session, name)?);
    Ok(ExitCode::SUCCESS)
}

/// What [`run`] shows (`tutor watch` shows it on its screen), wrapped to the terminal.
pub fn text(session: &Session, name: Option<&str>) -> Result<String> {
    // A course's id shows its overview; no name, the overview of the current exercise's course.
    let overview = |course: &str| -> Result<&'static str> {
        let entry = session.catalogue.course(course).context("the exercise's course is in the catalogue")?;
        course_file(&entry.info.overview).context("the overview lesson is embedded")
    };
    let (source, next) = match name {
        Some(name) if session.catalogue.course(name.trim()).is_some() => (overview(name.trim())?, None),
        Some(name) => {
            let exercise = session.exercise(Some(name))?;
            (exercise.lesson_source(), Some(exercise.id.clone()))
        }
        None => (overview(&session.exercise(None)?.course)?, None),
    };
    let lesson = Lesson::parse(source).context("parsing the lesson")?;
    // Wrapped here, to the terminal's width, which is also the pager's.
    let columns = session.printer.width();
    let texts: Vec<String> = session
        .printer
        .languages()
        .iter()
        .filter_map(|&l| lesson.text(Part::Lesson, l))
        .map(|text| markdown::render(&crate::invocation::course_text(text), columns))
        .collect();
    let mut shown = texts.join("\n────────\n\n");
    if let Some(id) = next {
        let next = session.printer.lines(|u| u.lesson_next, &[("id", &id)]);
        shown.push_str(&format!("\n{}\n", wrap::wrap(&next, "", "  ", columns)));
    }
    Ok(shown)
}
