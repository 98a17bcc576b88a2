//! How tutor hands a graded program its end of the request socket.
//!
//! tutor starts the program with its socket on two descriptors named in [`PROTOCOL_ENV`], so
//! whatever the learner's code prints on stdout or stderr is shown to the learner and never mixes
//! with the replies. A course's request loop takes them with [`protocol_files`].

use std::fs::File;

/// The environment variable that tells the program its request and reply descriptors: `IN,OUT`.
pub const PROTOCOL_ENV: &str = "TUTOR_PROTOCOL_FDS";

/// Exit code when the program was started without tutor's protocol.
pub const USAGE_EXIT: u8 = 3;

/// What a graded program says when it is run by hand.
pub const USAGE: &str = "this program answers tutor's requests; run it through `tutor check`";

/// The descriptors named in [`PROTOCOL_ENV`], as files (requests, replies).
pub fn protocol_files() -> Option<(File, File)> {
    let value = std::env::var(PROTOCOL_ENV).ok()?;
    let (input, output) = value.split_once(',')?;
    let (input, output): (i32, i32) = (input.parse().ok()?, output.parse().ok()?);
    if input < 3 || output < 3 || input == output {
        return None;
    }
    #[cfg(unix)]
    {
        use std::os::fd::FromRawFd;
        // SAFETY: tutor sets PROTOCOL_ENV only after it has opened these two descriptors for this
        // program (see tutor's `runner::subject`); nothing else in this process owns them, and the
        // variable is read once, before any learner code runs.
        Some(unsafe { (File::from_raw_fd(input), File::from_raw_fd(output)) })
    }
    #[cfg(not(unix))]
    {
        None
    }
}
