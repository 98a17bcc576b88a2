//! The fingerprint of a course's grading side in a checkout, for `dev check` to compare with the
//! one compiled in. Computed by `tutor_courses::fingerprint` (the build script's code too).

use std::path::Path;

use anyhow::Result;

use crate::fsutil::OnFile;

/// Whether the checkout at `root` has the course's grading side at all (`courses/<id>/`): a
/// folder holding only content has nothing to compare.
pub fn has_grading_side(root: &Path, course: &str) -> bool {
    root.join("courses").join(course).is_dir()
}

/// The fingerprint of `course`'s kit and grading crate in the checkout at `root`.
pub fn of_checkout(root: &Path, course: &str) -> Result<u64> {
    tutor_courses::fingerprint::of_checkout(root, course).map_err(|e| {
        let path = e.path.clone();
        anyhow::Error::new(e.error).context(OnFile::read(&path))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_fingerprint_compiled_in_is_the_one_of_this_checkout() {
        // The build script runs again whenever a grading file changes: what it compiled in is
        // the fingerprint of the sources tutor was built from.
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        for course in crate::course::embedded::courses() {
            let here = of_checkout(root, course.id).unwrap();
            assert_eq!(here, course.grading_fingerprint, "courses/{}/{{kit,grade}}", course.id);
        }
    }
}
