//! Reading a learner's exercise file for grading: a regular file of reasonable size holding
//! UTF-8 text, or a clear reason why not. A FIFO or a device is never opened for a blocking read.

use std::path::Path;

use crate::fsutil::regular::{self, FileError, Kind, Links};

/// Exercise files larger than this are refused: no exercise needs a megabyte of code.
pub const MAX_BYTES: u64 = 1 << 20;

/// Why the file cannot be graded (the learner can fix each of these).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refusal {
    /// There is no file.
    Missing,
    /// It is empty or holds only white space.
    Empty,
    /// It is not a regular file (a folder, a FIFO, a device …).
    NotRegular(Kind),
    /// It is larger than [`MAX_BYTES`].
    TooLarge(u64),
    /// It is not UTF-8 text.
    NotText,
}

/// Reads `path` as an exercise file; `Err(io)` only for a problem that is not the file's
/// (permissions, the disk). A symbolic link is refused, never read through: it could lead the
/// build to any file the learner's account can read (`/proc/self/environ`, a key), and what
/// the build reads a compile error can show.
pub fn read(path: &Path) -> std::io::Result<Result<String, Refusal>> {
    let bytes = match regular::read_bytes(path, MAX_BYTES, Links::Refuse) {
        Ok(bytes) => bytes,
        Err(FileError::Missing) => return Ok(Err(Refusal::Missing)),
        Err(FileError::NotRegular(kind)) => return Ok(Err(Refusal::NotRegular(kind))),
        Err(FileError::TooLarge(size)) => return Ok(Err(Refusal::TooLarge(size))),
        Err(FileError::Io(e)) => return Err(e),
    };
    let Ok(text) = String::from_utf8(bytes) else {
        return Ok(Err(Refusal::NotText));
    };
    if text.trim().is_empty() {
        return Ok(Err(Refusal::Empty));
    }
    Ok(Ok(text))
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    #[test]
    fn refuses_what_is_not_a_small_text_file() {
        let dir = std::env::temp_dir().join(format!("tutor-learner-file-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("02-norm.rs");
        assert_eq!(read(&file).unwrap(), Err(Refusal::Missing));
        std::fs::write(&file, "  \n").unwrap();
        assert_eq!(read(&file).unwrap(), Err(Refusal::Empty));
        std::fs::write(&file, [0xff, 0xfe, b'x']).unwrap();
        assert_eq!(read(&file).unwrap(), Err(Refusal::NotText));
        std::fs::write(&file, vec![b'/'; (MAX_BYTES + 1) as usize]).unwrap();
        assert_eq!(read(&file).unwrap(), Err(Refusal::TooLarge(MAX_BYTES + 1)));
        std::fs::write(&file, "fn main() {}\n").unwrap();
        assert_eq!(read(&file).unwrap(), Ok("fn main() {}\n".to_string()));
        assert_eq!(read(&dir).unwrap(), Err(Refusal::NotRegular(Kind::Directory)));

        // A FIFO with no writer would block an ordinary read for ever.
        let fifo = dir.join("fifo.rs");
        let name = std::ffi::CString::new(fifo.to_string_lossy().as_bytes()).unwrap();
        // SAFETY: `name` is a valid NUL-terminated path for the duration of the call.
        assert_eq!(unsafe { libc::mkfifo(name.as_ptr(), 0o600) }, 0);
        assert_eq!(read(&fifo).unwrap(), Err(Refusal::NotRegular(Kind::Fifo)));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
