//! Placeholder until the confinement module lands: same API, no confinement.
use std::path::Path;
use std::process::Command;

/// A confinement prepared in the parent, before the fork.
pub struct Confinement;

impl Confinement {
    /// Prepares the confinement of the program at `executable`.
    pub fn prepare(_executable: &Path) -> Confinement {
        Confinement
    }

    /// Adds the confinement to `command`.
    pub fn apply_to(&self, _command: &mut Command) {}
}
