//! The one way tutor opens a file for its own use (an exercise, progress, a lock, a harness
//! file): anything at that path may be hostile. A FIFO would block an ordinary open or read for
//! ever, a link to `/dev/zero` never ends, a folder or a device is not text. So a file is looked
//! at before it is opened, opened without blocking, looked at again through the open descriptor
//! (the name may have been swapped in between), refused unless it is a regular file, and read
//! only up to a limit.

use std::fs::{File, Metadata, OpenOptions};
use std::io::Read;
use std::path::{Path, PathBuf};

use super::OnFile;

/// What stands at a path that is not a regular file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A folder.
    Directory,
    /// A FIFO (named pipe): opening or reading one blocks until another process writes.
    Fifo,
    /// A character or block device (`/dev/zero`, a disk, a terminal).
    Device,
    /// A Unix socket.
    Socket,
    /// A symbolic link, where tutor does not follow one.
    Symlink,
    /// Anything else the platform has.
    Other,
}

impl Kind {
    /// The kind of a file from its metadata; `None` for a regular file.
    pub fn of(metadata: &Metadata) -> Option<Kind> {
        let kind = metadata.file_type();
        if kind.is_file() {
            return None;
        }
        if kind.is_dir() {
            return Some(Kind::Directory);
        }
        if kind.is_symlink() {
            return Some(Kind::Symlink);
        }
        #[cfg(unix)]
        {
            use std::os::unix::fs::FileTypeExt;
            if kind.is_fifo() {
                return Some(Kind::Fifo);
            }
            if kind.is_char_device() || kind.is_block_device() {
                return Some(Kind::Device);
            }
            if kind.is_socket() {
                return Some(Kind::Socket);
            }
        }
        Some(Kind::Other)
    }
}

/// Why a file could not be opened or read.
#[derive(Debug)]
pub enum FileError {
    /// Nothing is there.
    Missing,
    /// Something is there, but not a regular file.
    NotRegular(Kind),
    /// It is larger than the limit the caller set (its size, as far as it was read).
    TooLarge(u64),
    /// The file system failed (permissions, the disk).
    Io(std::io::Error),
}

impl From<std::io::Error> for FileError {
    fn from(error: std::io::Error) -> Self {
        if error.kind() == std::io::ErrorKind::NotFound {
            FileError::Missing
        } else {
            FileError::Io(error)
        }
    }
}

impl FileError {
    /// The error for the command line, naming `path`: a refusal as [`NotAFile`] or
    /// [`TooLarge`], a file system failure with its [`OnFile`] context.
    pub fn at(self, path: &Path, writing: bool) -> anyhow::Error {
        let on_file = if writing { OnFile::write(path) } else { OnFile::read(path) };
        match self {
            FileError::NotRegular(kind) => NotAFile { path: path.to_path_buf(), kind }.into(),
            FileError::TooLarge(size) => TooLarge { path: path.to_path_buf(), size }.into(),
            FileError::Missing => {
                anyhow::Error::new(std::io::Error::from(std::io::ErrorKind::NotFound)).context(on_file)
            }
            FileError::Io(error) => anyhow::Error::new(error).context(on_file),
        }
    }
}

/// A path tutor refused to use because it is not a regular file (told to the learner in both
/// languages, see `errors`).
#[derive(Debug)]
pub struct NotAFile {
    /// Where.
    pub path: PathBuf,
    /// What is there instead.
    pub kind: Kind,
}

impl std::fmt::Display for NotAFile {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} is not a regular file ({:?})", self.path.display(), self.kind)
    }
}

impl std::error::Error for NotAFile {}

/// A file over the size tutor reads.
#[derive(Debug)]
pub struct TooLarge {
    /// Where.
    pub path: PathBuf,
    /// Its size, as far as it was read.
    pub size: u64,
}

impl std::fmt::Display for TooLarge {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} is too large ({} bytes)", self.path.display(), self.size)
    }
}

impl std::error::Error for TooLarge {}

/// Whether the last component of a path may be a symbolic link to a regular file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Links {
    /// Followed: a learner's exercise file may be a link to their own copy elsewhere.
    Follow,
    /// Refused: inside `.tutor/`, where a link could lead a write or a lock out of the course.
    Refuse,
}

/// What is at `path`: `Ok(None)` for a regular file, [`FileError::Missing`] for nothing.
pub fn kind_at(path: &Path, links: Links) -> Result<Option<Kind>, FileError> {
    let metadata = match links {
        Links::Follow => std::fs::metadata(path),
        Links::Refuse => std::fs::symlink_metadata(path),
    };
    Ok(Kind::of(&metadata?))
}

/// Flags that make an open never wait, and (with [`Links::Refuse`]) never follow a link.
fn careful(options: &mut OpenOptions, links: Links) {
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        let no_follow = if links == Links::Refuse { libc::O_NOFOLLOW } else { 0 };
        options.custom_flags(libc::O_NONBLOCK | no_follow);
    }
    #[cfg(not(unix))]
    let _ = (options, links);
}

/// Checks through the open descriptor that `file` is a regular file.
fn regular(file: File) -> Result<File, FileError> {
    match Kind::of(&file.metadata()?) {
        None => Ok(file),
        Some(kind) => Err(FileError::NotRegular(kind)),
    }
}

/// The open error of a path that was a regular file a moment ago: a link refused by
/// `O_NOFOLLOW` (ELOOP), or a FIFO with no reader (ENXIO), is told by what is there now.
fn explain(path: &Path, error: std::io::Error, links: Links) -> FileError {
    #[cfg(unix)]
    if matches!(error.raw_os_error(), Some(libc::ELOOP | libc::ENXIO)) {
        if let Ok(Some(kind)) = kind_at(path, links) {
            return FileError::NotRegular(kind);
        }
    }
    let _ = (path, links);
    FileError::from(error)
}

/// Opens a regular file for reading. What is not one is refused before it is opened (a device
/// is never opened at all), and again after (the name may have been swapped for a FIFO).
pub fn open_read(path: &Path, links: Links) -> Result<File, FileError> {
    if let Some(kind) = kind_at(path, links)? {
        return Err(FileError::NotRegular(kind));
    }
    let mut options = OpenOptions::new();
    options.read(true);
    careful(&mut options, links);
    regular(options.open(path).map_err(|e| explain(path, e, links))?)
}

/// Reads a whole regular file of at most `limit` bytes ([`open_read`]); a larger one is
/// refused, read no further than one byte past the limit.
pub fn read_bytes(path: &Path, limit: u64, links: Links) -> Result<Vec<u8>, FileError> {
    let file = open_read(path, links)?;
    // The size from the open file first, so that a large file is never read; `take` bounds a
    // file that grows while it is read.
    let size = file.metadata()?.len();
    if size > limit {
        return Err(FileError::TooLarge(size));
    }
    let mut bytes = Vec::new();
    file.take(limit + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > limit {
        return Err(FileError::TooLarge(bytes.len() as u64));
    }
    Ok(bytes)
}

/// The largest file tutor reads for itself but an exercise (a manifest, a harness file).
pub const MAX_OWN_FILE: u64 = 4 << 20;

/// A regular file of at most [`MAX_OWN_FILE`] bytes holding UTF-8 text, or `None` (whatever
/// else is there, or nothing): for files whose absence or strangeness only means "not ours".
pub fn read_text(path: &Path, links: Links) -> Option<String> {
    read_bytes(path, MAX_OWN_FILE, links).ok().and_then(|bytes| String::from_utf8(bytes).ok())
}

/// Opens (creating it if need be) a lock file, never through a link and never waiting on a FIFO;
/// anything but a regular file there is refused.
pub fn open_lock(path: &Path) -> Result<File, FileError> {
    match kind_at(path, Links::Refuse) {
        Ok(None) | Err(FileError::Missing) => {}
        Ok(Some(kind)) => return Err(FileError::NotRegular(kind)),
        Err(e) => return Err(e),
    }
    let mut options = OpenOptions::new();
    options.create(true).truncate(false).write(true);
    careful(&mut options, Links::Refuse);
    regular(options.open(path).map_err(|e| explain(path, e, Links::Refuse))?)
}

#[cfg(all(test, unix))]
pub(crate) mod tests {
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("tutor-regular-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    pub(crate) fn mkfifo(path: &Path) {
        let name = std::ffi::CString::new(path.as_os_str().as_encoded_bytes()).unwrap();
        // SAFETY: `name` is a valid NUL-terminated path for the duration of the call.
        assert_eq!(unsafe { libc::mkfifo(name.as_ptr(), 0o600) }, 0, "mkfifo {}", path.display());
    }

    #[test]
    fn only_regular_files_are_read_and_only_up_to_the_limit() {
        let dir = scratch("read");
        let file = dir.join("a.rs");
        assert!(matches!(read_bytes(&file, 10, Links::Follow), Err(FileError::Missing)));
        std::fs::write(&file, "0123456789").unwrap();
        assert_eq!(read_bytes(&file, 10, Links::Follow).unwrap(), b"0123456789");
        assert!(matches!(read_bytes(&file, 9, Links::Follow), Err(FileError::TooLarge(10))));
        assert!(matches!(read_bytes(&dir, 10, Links::Follow), Err(FileError::NotRegular(Kind::Directory))));
        let fifo = dir.join("fifo");
        mkfifo(&fifo);
        assert!(matches!(read_bytes(&fifo, 10, Links::Follow), Err(FileError::NotRegular(Kind::Fifo))));
        let zero = dir.join("zero");
        std::os::unix::fs::symlink("/dev/zero", &zero).unwrap();
        assert!(matches!(read_bytes(&zero, 10, Links::Follow), Err(FileError::NotRegular(Kind::Device))));
        let link = dir.join("link");
        std::os::unix::fs::symlink(&file, &link).unwrap();
        assert_eq!(read_bytes(&link, 10, Links::Follow).unwrap(), b"0123456789", "a link to a file is followed");
        assert!(matches!(read_bytes(&link, 10, Links::Refuse), Err(FileError::NotRegular(Kind::Symlink))));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_lock_is_created_but_never_through_a_link_or_on_a_fifo() {
        let dir = scratch("lock");
        let lock = dir.join("check.lock");
        open_lock(&lock).unwrap().lock().unwrap();
        assert!(lock.is_file());
        let fifo = dir.join("fifo.lock");
        mkfifo(&fifo);
        assert!(matches!(open_lock(&fifo), Err(FileError::NotRegular(Kind::Fifo))));
        // A dangling link would otherwise create its target, outside the folder.
        let outside = dir.join("outside");
        let link = dir.join("link.lock");
        std::os::unix::fs::symlink(&outside, &link).unwrap();
        assert!(matches!(open_lock(&link), Err(FileError::NotRegular(Kind::Symlink))));
        assert!(!outside.exists(), "nothing is created through the link");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_refusal_names_the_file_for_the_command_line() {
        let error = FileError::NotRegular(Kind::Fifo).at(Path::new(".tutor/state.lock"), true);
        let refused = error.downcast_ref::<NotAFile>().expect("typed");
        assert_eq!((refused.path.as_path(), refused.kind), (Path::new(".tutor/state.lock"), Kind::Fifo));
        let denied =
            FileError::Io(std::io::Error::from(std::io::ErrorKind::PermissionDenied)).at(Path::new("x"), false);
        // What `errors::storage_failure` reads: the I/O error, and the file it was about.
        assert!(denied.chain().any(|e| e.downcast_ref::<std::io::Error>().is_some()));
        assert!(denied.downcast_ref::<OnFile>().is_some_and(|f| !f.writing() && f.path() == Path::new("x")));
    }
}
