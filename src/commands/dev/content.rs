//! Where `tutor dev check` reads a course's content from: the files compiled into this binary, or
//! a repository checkout (`--root DIR`). Either way the grading code is the compiled-in one.

use std::collections::BTreeMap;
use std::io::ErrorKind;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};

use crate::course::catalogue::info_path;
use crate::course::{embedded, Catalogue, Exercise};
use crate::fsutil::files_below;
use crate::fsutil::OnFile;

/// The origin of a course's catalogue, stubs, solutions and lessons.
pub enum Source {
    /// The files compiled into this binary.
    Embedded,
    /// A repository checkout: `DIR/exercises/<id>/info.toml` …
    Root(PathBuf),
}

impl Source {
    /// A file by its repository path; `None` when there is no such file. A file that exists
    /// but cannot be read is an environment error.
    pub fn read(&self, path: &str) -> Result<Option<String>> {
        match self {
            Source::Embedded => Ok(embedded::course_file(path).map(str::to_string)),
            Source::Root(root) => {
                let full = root.join(path);
                match std::fs::read_to_string(&full) {
                    Ok(text) => Ok(Some(text)),
                    Err(e) if matches!(e.kind(), ErrorKind::NotFound | ErrorKind::NotADirectory) => Ok(None),
                    Err(e) if e.kind() == ErrorKind::IsADirectory => Ok(None),
                    Err(e) => Err(e).with_context(|| OnFile::read(&full)),
                }
            }
        }
    }

    /// Every text file the author writes for `course`, by repository path: its content
    /// (`exercises/`, `solutions/`, `lessons/`), its kit, and from a checkout its grading crate
    /// too (the binary carries only the compiled grading code, not its source).
    pub fn author_files(&self, course: &str) -> Result<Vec<(String, String)>> {
        match self {
            Source::Embedded => {
                let Some(registered) = embedded::registered(course) else { return Ok(Vec::new()) };
                Ok(registered
                    .files
                    .iter()
                    .chain(registered.kit.iter())
                    .map(|f| (f.path.to_string(), f.contents.to_string()))
                    .collect())
            }
            Source::Root(root) => {
                let mut files = Vec::new();
                for dir in ["exercises", "solutions", "lessons", "courses"] {
                    text_files_below(root, &root.join(dir).join(course), &mut files)?;
                }
                Ok(files)
            }
        }
    }
}

/// Every UTF-8 file below `dir` (cargo's `target/` and README files left out), sorted.
fn text_files_below(root: &Path, dir: &Path, out: &mut Vec<(String, String)>) -> Result<()> {
    for (relative, path) in files_below(root, dir)? {
        if path.file_name().is_some_and(|n| n == "README.md") {
            continue;
        }
        let Ok(bytes) = std::fs::read(&path) else { continue };
        if let Ok(text) = String::from_utf8(bytes) {
            out.push((relative, text));
        }
    }
    Ok(())
}

/// One course as `dev check` sees it: its catalogue, and the text of every file the catalogue
/// names that exists.
pub struct Course {
    /// Its id.
    pub id: String,
    /// Its catalogue's path, `exercises/<id>/info.toml`.
    pub info_path: String,
    /// Its catalogue, alone (exercise ids are the course's own).
    pub catalogue: Catalogue,
    /// Its registry entry: the compiled-in grading code.
    pub grading: &'static dyn tutor_grade::Course,
    texts: BTreeMap<String, String>,
}

/// Why a course's catalogue could not be read at all.
pub enum Unloadable {
    /// There is no `info.toml`.
    Missing,
    /// It is not a catalogue.
    Unreadable(String),
}

impl Course {
    /// Reads course `id`'s catalogue and every file it names from `source`.
    pub fn load(source: &Source, id: &str) -> Result<std::result::Result<Course, Unloadable>> {
        let info = info_path(id);
        let Some(text) = source.read(&info)? else { return Ok(Err(Unloadable::Missing)) };
        let catalogue = match Catalogue::from_sources([(id, text.as_str())]) {
            Ok(catalogue) => catalogue,
            Err(e) => return Ok(Err(Unloadable::Unreadable(e.error.message().trim().to_string()))),
        };
        let registered = embedded::registered(id).context("a course dev check is given is registered")?;
        let mut texts = BTreeMap::new();
        let named = catalogue
            .courses
            .iter()
            .map(|c| c.info.overview.clone())
            .chain(catalogue.exercises.iter().flat_map(|e| [e.file.clone(), e.solution.clone(), e.lesson.clone()]));
        for path in named {
            if let Some(text) = source.read(&path)? {
                texts.insert(path, text);
            }
        }
        Ok(Ok(Course { id: id.to_string(), info_path: info, catalogue, grading: registered.grading, texts }))
    }

    /// The text of a file the catalogue names; `None` when it does not exist.
    pub fn text(&self, path: &str) -> Option<&str> {
        self.texts.get(path).map(String::as_str)
    }

    /// The course's exercises, in order.
    pub fn exercises(&self) -> impl Iterator<Item = &Exercise> {
        self.catalogue.exercises_of(&self.id)
    }

    /// The overview lesson's path.
    pub fn overview(&self) -> &str {
        self.catalogue.course(&self.id).map_or("", |c| c.info.overview.as_str())
    }

    /// Where the course's grading crate is, for problems found in the grading code.
    pub fn grading_dir(&self) -> String {
        format!("courses/{}/grade", self.id)
    }
}
