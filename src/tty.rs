//! The terminal while `tutor watch` reads single keys: every key arrives at once and unechoed
//! (typing during a check must not write into the report), Ctrl-C arrives as a key (so quitting
//! cancels the check and restores the terminal like `q`), and output is left as it is (a newline
//! still returns the carriage, so every `println!` of tutor draws as usual). The cursor is hidden
//! while the screen is redrawn.
//!
//! [`restore`] puts the learner's settings back and shows the cursor. It runs when the
//! [`KeyMode`] guard is dropped, from the panic hook, and from the signal handler of
//! `runner::process` (SIGTERM, SIGHUP), so it only uses async-signal-safe calls.

use std::io::{IsTerminal, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::OnceLock;

/// The learner's terminal settings, as found before the first change.
#[cfg(unix)]
static SAVED: OnceLock<libc::termios> = OnceLock::new();
/// Whether the settings are changed now.
static ACTIVE: AtomicBool = AtomicBool::new(false);
/// Whether tutor hid the cursor.
static CURSOR_HIDDEN: AtomicBool = AtomicBool::new(false);

const HIDE_CURSOR: &[u8] = b"\x1b[?25l";
const SHOW_CURSOR: &[u8] = b"\x1b[?25h";

/// Keys one at a time on standard input, until dropped.
pub struct KeyMode {
    _private: (),
}

impl KeyMode {
    /// Switches standard input (a terminal) to single unechoed keys, and hides the cursor when
    /// standard output is a terminal too.
    pub fn enter() -> std::io::Result<KeyMode> {
        #[cfg(unix)]
        {
            // SAFETY: termios is a plain C struct of integers, for which all zeroes is valid;
            // tcgetattr(3) overwrites it on success.
            let mut original: libc::termios = unsafe { std::mem::zeroed() };
            // SAFETY: `original` is a valid termios to write into; descriptor 0 is only read.
            if unsafe { libc::tcgetattr(libc::STDIN_FILENO, &mut original) } != 0 {
                return Err(std::io::Error::last_os_error());
            }
            let original = *SAVED.get_or_init(|| original);
            let mut keys = original;
            keys.c_lflag &= !(libc::ICANON | libc::ECHO | libc::ISIG | libc::IEXTEN);
            // Ctrl-S would otherwise freeze the output until Ctrl-Q.
            keys.c_iflag &= !libc::IXON;
            keys.c_cc[libc::VMIN] = 1;
            keys.c_cc[libc::VTIME] = 0;
            ACTIVE.store(true, Ordering::SeqCst);
            // SAFETY: `keys` is a valid termios derived from the terminal's own settings.
            if unsafe { libc::tcsetattr(libc::STDIN_FILENO, libc::TCSANOW, &keys) } != 0 {
                ACTIVE.store(false, Ordering::SeqCst);
                return Err(std::io::Error::last_os_error());
            }
        }
        if std::io::stdout().is_terminal() {
            let mut stdout = std::io::stdout();
            let _ = stdout.write_all(HIDE_CURSOR);
            let _ = stdout.flush();
            CURSOR_HIDDEN.store(true, Ordering::SeqCst);
        }
        Ok(KeyMode { _private: () })
    }
}

impl Drop for KeyMode {
    fn drop(&mut self) {
        // What tutor printed goes out before the cursor comes back.
        let _ = std::io::stdout().flush();
        restore();
    }
}

/// Gives the terminal back as the learner had it and shows the cursor; does nothing when tutor
/// changed neither. Async-signal-safe: atomics, tcsetattr(3) and write(2) only.
pub fn restore() {
    #[cfg(unix)]
    if ACTIVE.swap(false, Ordering::SeqCst) {
        if let Some(saved) = SAVED.get() {
            // SAFETY: `saved` is the terminal's own earlier settings; tcsetattr is
            // async-signal-safe.
            unsafe {
                libc::tcsetattr(libc::STDIN_FILENO, libc::TCSANOW, saved);
            }
        }
    }
    if CURSOR_HIDDEN.swap(false, Ordering::SeqCst) {
        #[cfg(unix)]
        // SAFETY: writes a static byte string to descriptor 1; write(2) is async-signal-safe.
        unsafe {
            libc::write(libc::STDOUT_FILENO, SHOW_CURSOR.as_ptr().cast(), SHOW_CURSOR.len());
        }
    }
}
