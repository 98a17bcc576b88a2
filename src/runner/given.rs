//! The given library of one exercise: the kit's given pieces for it (and, in place of every other
//! piece, the stubs that say it is absent), compiled once into a shared library that only that
//! exercise's graded program depends on.
//!
//! Compiled into the graded program itself, the pieces were parsed, expanded, type-checked and
//! walked for their generic instances again at every check, and their code went through the
//! linker each time. As a library of their own, optimised once and with their generic functions
//! instantiated there for the four element types, a check compiles the learner's file and little
//! else (rustc on a one-line change of attention 05: 111 → 74 ms; the pieces also run optimised).
//!
//! One library per exercise, never one per course: a program can name the crates it depends on,
//! so a library holding the pieces another exercise is given would hand an answer to this one.
//! Each exercise's program is its own package in the harness's workspace, depending on its own
//! given library alone (see `super::harness`).

use super::pieces;
use crate::course::{embedded, Exercise};

/// The given library's package name: `given-<course>-<exercise>`.
pub fn package(exercise: &Exercise) -> String {
    format!("given-{}-{}", exercise.course, exercise.local)
}

/// Its folder in the harness, relative to the harness.
pub fn dir(exercise: &Exercise) -> String {
    format!("given/{}-{}", exercise.course, exercise.local)
}

/// The file name of the shared library cargo builds it as.
pub fn library_file(exercise: &Exercise) -> String {
    format!("lib{}.so", package(exercise).replace('-', "_"))
}

/// Its manifest: a shared library over the course's kit (as `tutor_kit_core`, without the kit's
/// own `reference` module) and the kit's registry dependencies (`kit_dependencies`, manifest lines).
pub fn manifest(exercise: &Exercise, kit_dir: &str, kit_package: &str, kit_dependencies: &str) -> String {
    format!(
        "# Written by tutor: the given pieces of {id}, a library only its graded program links.\n\
         {package}\
         [lib]\npath = \"lib.rs\"\ncrate-type = [\"dylib\"]\n\n\
         [dependencies]\n{kit_core} = {{ path = \"../../{kit_dir}\", package = \"{kit_package}\", default-features = false }}\n\
         {kit_dependencies}\n",
        id = exercise.id,
        package = package_section(&package(exercise)),
        kit_core = super::harness::KIT_CORE,
    )
}

/// The `[package]` section of a package tutor writes in the harness (a program or a given
/// library): no build script, no target found by its folder's layout.
pub fn package_section(name: &str) -> String {
    format!(
        "[package]\nname = \"{name}\"\nversion = \"0.0.0\"\nedition = \"2021\"\npublish = false\n\
         build = false\nautobins = false\nautoexamples = false\nautotests = false\nautobenches = false\n\n"
    )
}

/// From `given/<course>-<exercise>/`, where the library's `reference.rs` is (a `#[path]` in it
/// is resolved from its folder), to the harness.
const TO_HARNESS: &str = "../../";

/// The pieces of `exercise`'s kit and the ones it is given, if its course lists them.
fn pieces_given(exercise: &Exercise) -> Option<(Vec<pieces::Piece>, &[String])> {
    let given = exercise.given.as_deref()?;
    let course = embedded::registered(&exercise.course)?;
    Some((pieces::of_kit(&exercise.course, course.kit), given))
}

/// Its `reference` module's file, `reference.rs` beside `lib.rs`: the pieces (by relative path:
/// the same text in every course folder) and the stubs (see [`pieces::reference_module`]).
pub fn reference_source(exercise: &Exercise) -> String {
    pieces_given(exercise).map_or_else(String::new, |(pieces, given)| {
        pieces::reference_module(&pieces, given, exercise.todo, &exercise.local, TO_HARNESS)
    })
}

/// Its root file: the kit's core re-exported, the exercise's `reference` module (its own file,
/// [`reference_source`]), and the generic functions' instances (see [`pieces::instances`]).
pub fn source(exercise: &Exercise) -> String {
    let instances = pieces_given(exercise)
        .map(|(pieces, given)| pieces::instances(&pieces, given, exercise.todo))
        .unwrap_or_default();
    let reference = match exercise.given {
        Some(_) => {
            "/// The kit's given pieces for this exercise; every other piece is absent from this program.\n\
                    #[allow(dead_code, unused_imports, unused_variables, clippy::all)]\npub mod reference;\n"
        }
        None => "",
    };
    let mut text = format!(
        "// Written by tutor: the given pieces of {id}. Edits here are overwritten.\n\
         extern crate self as tutor_kit;\n\n\
         #[allow(unused_imports)]\npub use {kit_core}::*;\n\n{reference}\n\
         /// The given generic functions for each element type, instantiated here once: rustc\n\
         /// shares a library's instances with the programs built on it.\n\
         #[doc(hidden)]\npub fn __instances() -> ::std::vec::Vec<*const ()> {{\n    ::std::vec![\n",
        id = exercise.id,
        kit_core = super::harness::KIT_CORE,
    );
    for instance in instances {
        text.push_str(&format!("        {instance},\n"));
    }
    text.push_str("    ]\n}\n");
    text
}
