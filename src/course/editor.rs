//! What makes a course folder something an editor understands: a `Cargo.toml` whose library
//! includes every exercise file as a module, over the same kit the grader builds on, so that
//! rust-analyzer resolves `tutor_kit`, `ndarray` and `half` in the exercises with completion and
//! types. tutor itself never grades through it (rustlings writes such a file too).

use super::Catalogue;

/// Where `tutor init` puts the library root, relative to the course folder.
pub const LIBRARY_ROOT: &str = ".tutor/editor/lib.rs";

/// The first line of the course `Cargo.toml` that tutor writes, to recognise its own file.
const MARKER: &str = "# Written by `tutor init` for editors (rust-analyzer)";

/// A library root that includes every exercise of `catalogue` by `#[path]`, with paths relative
/// to the library root's folder (`prefix`, e.g. `../../` for [`LIBRARY_ROOT`]).
pub fn library_root(catalogue: &Catalogue, prefix: &str) -> String {
    let mut text = String::from(
        "//! Written by tutor so that editors understand the exercises; tutor grades them through its\n\
         //! own harness, not through this file.\n",
    );
    for exercise in &catalogue.exercises {
        let module = format!("exercise_{}", exercise.id.replace('-', "_"));
        text.push_str(&format!("\n#[path = \"{prefix}{}\"]\npub mod {module};\n", exercise.file));
    }
    text
}

/// The course folder's `Cargo.toml`: one library over the exercises, on the harness's kit.
pub fn manifest(kit_dependencies: &str) -> String {
    format!(
        "{MARKER}: each exercise is a module of\n\
         # this package's library, over the grading kit tutor keeps in .tutor/harness/kit. tutor does not\n\
         # grade through this file; `tutor check` does.\n\
         [package]\nname = \"tutor-course\"\nversion = \"0.0.0\"\nedition = \"2021\"\npublish = false\n\n\
         [lib]\npath = \"{LIBRARY_ROOT}\"\n\n\
         [dependencies]\ntutor_kit = {{ path = \".tutor/harness/kit\" }}\n{kit_dependencies}\n\n\
         # Its own workspace, so that an enclosing Cargo workspace never claims it.\n[workspace]\n"
    )
}

/// Whether a course `Cargo.toml` is tutor's own (and may be rewritten).
pub fn is_ours(manifest: &str) -> bool {
    manifest.starts_with(MARKER)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_repositorys_editor_example_lists_every_exercise() {
        // The repository's own editor support (an example of the tutor package) is the same
        // library root, with paths from `src/course/`.
        let catalogue = Catalogue::embedded().unwrap();
        assert_eq!(include_str!("editor_exercises.rs"), library_root(&catalogue, "../../"));
        for exercise in &catalogue.exercises {
            assert!(library_root(&catalogue, "").contains(&format!("#[path = \"{}\"]", exercise.file)));
        }
        assert!(is_ours(&manifest("")));
    }
}
