//! Writing files so that a crash or a kill never leaves half of one.

use std::fs;
use std::path::Path;

use anyhow::{Context, Result};

/// Replaces `path` with `contents` (through a renamed temporary file) unless it already holds them.
pub fn write_if_changed(path: &Path, contents: &str) -> Result<()> {
    if fs::read(path).is_ok_and(|current| current == contents.as_bytes()) {
        return Ok(());
    }
    let dir = path.parent().context("a file path has a parent")?;
    fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    let temporary = dir.join(format!(
        ".{}.tmp-{}",
        path.file_name().and_then(|n| n.to_str()).unwrap_or("file"),
        std::process::id()
    ));
    fs::write(&temporary, contents).with_context(|| format!("writing {}", temporary.display()))?;
    fs::rename(&temporary, path).with_context(|| format!("replacing {}", path.display()))?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unchanged_files_are_not_rewritten() {
        let dir = std::env::temp_dir().join(format!("tutor-harness-test-{}", std::process::id()));
        let file = dir.join("a.rs");
        write_if_changed(&file, "fn a() {}").unwrap();
        let before = fs::metadata(&file).unwrap().modified().unwrap();
        std::thread::sleep(std::time::Duration::from_millis(20));
        write_if_changed(&file, "fn a() {}").unwrap();
        assert_eq!(fs::metadata(&file).unwrap().modified().unwrap(), before);
        write_if_changed(&file, "fn b() {}").unwrap();
        assert_eq!(fs::read_to_string(&file).unwrap(), "fn b() {}");
        fs::remove_dir_all(&dir).unwrap();
    }
}
