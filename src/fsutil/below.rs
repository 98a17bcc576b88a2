//! The one way tutor writes, renames and deletes inside a course folder: every folder between the
//! course folder and the file must be a real folder, never a symbolic link, so that nothing
//! outside the course folder is written or deleted (`.tutor` linked to the learner's home, say,
//! or `exercises/<course>` linked to another project). A link is refused with [`LinkedFolder`],
//! which the command reports (exit 2) naming the link and where it points; the folder it points
//! to is left as it is. The course folder itself may be a link: the learner chose it.

use std::fs;
use std::path::{Component, Path};

use anyhow::{Context, Result};

use super::LinkedFolder;
use crate::fsutil::OnFile;

/// The folders from `root` (left out) down to `path` (included), in order: `path` relative to
/// `root`, one component at a time. A path outside `root` (or with `..`) gives `None`.
fn steps(root: &Path, path: &Path) -> Option<Vec<std::path::PathBuf>> {
    let relative = path.strip_prefix(root).ok()?;
    let mut current = root.to_path_buf();
    let mut out = Vec::new();
    for component in relative.components() {
        match component {
            Component::Normal(name) => {
                current.push(name);
                out.push(current.clone());
            }
            Component::CurDir => {}
            _ => return None,
        }
    }
    Some(out)
}

/// The error for a symbolic link at `path`.
fn linked(path: &Path) -> anyhow::Error {
    LinkedFolder { path: path.to_path_buf(), target: fs::read_link(path).unwrap_or_default() }.into()
}

/// Refuses when anything from below `root` down to `path` (included) is a symbolic link; what
/// does not exist yet is no link. Reads nothing and makes nothing.
pub fn no_link_below(root: &Path, path: &Path) -> Result<()> {
    let Some(steps) = steps(root, path) else { return Err(outside(root, path)) };
    for step in steps {
        match fs::symlink_metadata(&step) {
            Ok(metadata) if metadata.file_type().is_symlink() => return Err(linked(&step)),
            Ok(_) => {}
            // Nothing there: nothing further down either.
            Err(_) => break,
        }
    }
    Ok(())
}

/// A path tutor was asked to change outside the folder it works in (a bug, never a learner's).
fn outside(root: &Path, path: &Path) -> anyhow::Error {
    anyhow::anyhow!("{} is not inside {}", path.display(), root.display())
}

/// Makes sure every folder from below `root` down to `dir` (included) is a real folder, making
/// what is missing one folder at a time; a link on the way is refused.
pub fn real_folders_below(root: &Path, dir: &Path) -> Result<()> {
    let Some(steps) = steps(root, dir) else { return Err(outside(root, dir)) };
    if !root.as_os_str().is_empty() {
        fs::create_dir_all(root).with_context(|| OnFile::write(root))?;
    }
    for step in steps {
        match fs::symlink_metadata(&step) {
            Ok(metadata) if metadata.file_type().is_symlink() => return Err(linked(&step)),
            Ok(_) => {}
            Err(_) => match fs::create_dir(&step) {
                Ok(()) => {}
                // Made by another process in between: looked at again on the next write.
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {}
                Err(e) => return Err(e).with_context(|| OnFile::write(&step)),
            },
        }
    }
    Ok(())
}

/// The folder a file below `root` is in, made real ([`real_folders_below`]).
fn real_parent<'a>(root: &Path, path: &'a Path) -> Result<&'a Path> {
    let dir = path.parent().context("a file path has a parent")?;
    real_folders_below(root, dir)?;
    Ok(dir)
}

/// [`super::write_if_changed`] for a file below `root`, no folder on the way a link.
pub fn write_below(root: &Path, path: &Path, contents: &str) -> Result<()> {
    real_parent(root, path)?;
    super::write_if_changed(path, contents)
}

/// Removes the file (or the link itself) at `path` below `root`, no folder on the way a link;
/// nothing there is no error.
pub fn remove_file_below(root: &Path, path: &Path) -> Result<()> {
    no_link_below(root, path.parent().unwrap_or(root))?;
    match fs::remove_file(path) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(e).with_context(|| OnFile::write(path)),
        _ => Ok(()),
    }
}

/// Renames `from` to `to`, both below `root`: the folders on both ways must be real, the new
/// one's made if missing.
pub fn rename_below(root: &Path, from: &Path, to: &Path) -> Result<()> {
    no_link_below(root, from.parent().unwrap_or(root))?;
    real_parent(root, to)?;
    fs::rename(from, to).with_context(|| OnFile::write(to))
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    #[test]
    fn nothing_is_written_or_removed_through_a_linked_folder() {
        let root = std::env::temp_dir().join(format!("tutor-below-{}", std::process::id()));
        let outside = root.with_extension("outside");
        for dir in [&root, &outside] {
            let _ = fs::remove_dir_all(dir);
            fs::create_dir_all(dir).unwrap();
        }
        fs::write(outside.join("lib.rs"), "theirs").unwrap();
        std::os::unix::fs::symlink(&outside, root.join(".tutor")).unwrap();
        let refused = |e: anyhow::Error| e.downcast_ref::<LinkedFolder>().map(|l| l.path.clone());
        let linked = Some(root.join(".tutor"));
        assert_eq!(write_below(&root, &root.join(".tutor/editor/a.rs"), "x").map_err(refused), Err(linked.clone()));
        assert_eq!(remove_file_below(&root, &root.join(".tutor/lib.rs")).map_err(refused), Err(linked.clone()));
        assert_eq!(no_link_below(&root, &root.join(".tutor")).map_err(refused), Err(linked));
        assert_eq!(fs::read_dir(&outside).unwrap().count(), 1, "nothing made outside");
        assert_eq!(fs::read_to_string(outside.join("lib.rs")).unwrap(), "theirs");
        write_below(&root, &root.join("exercises/a/b.rs"), "ours").unwrap();
        assert_eq!(fs::read_to_string(root.join("exercises/a/b.rs")).unwrap(), "ours");
        rename_below(&root, &root.join("exercises/a/b.rs"), &root.join("kept/b.rs")).unwrap();
        assert!(root.join("kept/b.rs").is_file());
        assert!(write_below(&root, &outside.join("x"), "x").is_err(), "outside the root");
        fs::remove_dir_all(&root).unwrap();
        fs::remove_dir_all(&outside).unwrap();
    }
}
