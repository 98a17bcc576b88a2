//! The learner-file fixtures, listed by `build.rs` from their folders.

#![allow(dead_code)]

/// One learner file of the tests.
pub struct Fixture {
    /// Its file name without `.rs`.
    pub name: &'static str,
    /// Its text.
    pub source: &'static str,
}

impl Fixture {
    /// The value of a `//! key: value` header line.
    pub fn header(&self, key: &str) -> Option<&'static str> {
        let prefix = format!("//! {key}:");
        self.source.lines().find_map(|l| l.strip_prefix(&prefix)).map(str::trim)
    }
}

include!(concat!(env!("OUT_DIR"), "/fixtures.rs"));
