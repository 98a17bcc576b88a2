//! The learner-file fixtures of every course, listed by `build.rs` from their folders, and
//! graded in process through the same calls and the same grading as `tutor check`. A crate of
//! its own so that the files are compiled once per test build, not once per change of a test
//! (the one test binary `tests/it` uses it as `common::fixtures`).

use tutor_courses::{Registered, COURSES};
use tutor_grade::report::Report;
use tutor_grade::tutor_subject::serve::Server;
use tutor_grade::InProcess;

/// One learner file of the tests.
pub struct Fixture {
    /// The course it is written for (the name of the folder it is in).
    pub course: &'static str,
    /// Its file name without `.rs`.
    pub name: &'static str,
    /// Its text.
    pub source: &'static str,
    /// Its calls served in this process (none for hostile files, run through the binary only).
    pub server: Option<fn() -> Box<dyn Server>>,
}

impl Fixture {
    /// The value of a `//! key: value` header line.
    pub fn header(&self, key: &str) -> Option<&'static str> {
        let prefix = format!("//! {key}:");
        self.source.lines().find_map(|l| l.strip_prefix(&prefix)).map(str::trim)
    }

    /// Its course, as tutor's registry knows it.
    pub fn registered(&self) -> &'static Registered {
        COURSES.iter().find(|c| c.id == self.course).unwrap_or_else(|| panic!("{} is not registered", self.course))
    }

    /// A channel to the file compiled into this test, in process.
    pub fn channel(&self) -> InProcess {
        let server = self.server.unwrap_or_else(|| panic!("{}/{} is not compiled in", self.course, self.name));
        InProcess::boxed(server())
    }

    /// Grades the file with its course's grading, as `tutor check` does, in process.
    pub fn grade(&self, seed: u64) -> Report {
        self.registered().grading.grade(&self.channel(), seed)
    }

    /// `course/name`, for messages.
    pub fn key(&self) -> String {
        format!("{}/{}", self.course, self.name)
    }
}

include!(concat!(env!("OUT_DIR"), "/fixtures.rs"));
