//! Running the graded program: a secret on stdin, a wall-clock limit, capped output, and the
//! whole process group ended on time-out.

use std::collections::hash_map::RandomState;
use std::hash::{BuildHasher, Hasher};
use std::io::{Read, Write};
use std::process::{Command, Stdio};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// Address space the graded program may use: far more than the checks need, far less than a
/// runaway allocation would take from the machine.
#[cfg(unix)]
const MEMORY_LIMIT: libc::rlim_t = 4 << 30;

/// How much of each output stream is kept.
pub const OUTPUT_CAP: usize = 16 * 1024;

/// How the process ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ending {
    /// It exited with this code.
    Exited(i32),
    /// A signal ended it (abort, stack overflow, out of memory …).
    Signalled(i32),
    /// It outlived the limit and was killed.
    TimedOut,
}

/// What the process printed, cut at [`OUTPUT_CAP`] per stream.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Captured {
    /// Standard output.
    pub stdout: String,
    /// Standard error.
    pub stderr: String,
    /// True when either stream was cut.
    pub truncated: bool,
}

/// The end of a run.
pub struct Finished {
    /// How it ended.
    pub ending: Ending,
    /// What it printed.
    pub output: Captured,
}

/// 128 random bits as hex, from the standard library's randomly seeded hasher keys.
pub fn secret_token() -> String {
    let half = || {
        let mut hasher = RandomState::new().build_hasher();
        hasher.write_u128(Instant::now().elapsed().as_nanos());
        hasher.write_u32(std::process::id());
        hasher.finish()
    };
    format!("{:016x}{:016x}", half(), half())
}

/// Runs `command`, writes `stdin_line` to it, and waits at most `limit`.
pub fn run(mut command: Command, stdin_line: &str, limit: Duration) -> std::io::Result<Finished> {
    command.stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped());
    #[cfg(unix)]
    {
        // Its own process group, so that a time-out ends anything it started too.
        use std::os::unix::process::CommandExt;
        command.process_group(0);
        // SAFETY: the closure runs in the child between fork and exec and only calls
        // setrlimit(2) and prctl(2), which are async-signal-safe; it touches no parent memory.
        unsafe {
            command.pre_exec(|| {
                let limit = libc::rlimit { rlim_cur: MEMORY_LIMIT, rlim_max: MEMORY_LIMIT };
                if libc::setrlimit(libc::RLIMIT_AS, &limit) != 0 {
                    return Err(std::io::Error::last_os_error());
                }
                // Being in its own group, the program does not get the terminal's Ctrl-C; if
                // tutor dies of it, the program must die too, or an endless loop runs on.
                #[cfg(target_os = "linux")]
                if libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL) != 0 {
                    return Err(std::io::Error::last_os_error());
                }
                Ok(())
            });
        }
    }
    let mut child = command.spawn()?;
    let _interrupt_guard = InterruptGuard::watch(&child);
    if let Some(mut stdin) = child.stdin.take() {
        // A program that exits at once closes the pipe: that is its verdict, not our error.
        let _ = stdin.write_all(format!("{stdin_line}\n").as_bytes());
    }
    let stdout = child.stdout.take().map(capped_reader);
    let stderr = child.stderr.take().map(capped_reader);

    let started = Instant::now();
    let ending = loop {
        if let Some(status) = child.try_wait()? {
            break ending_of(status);
        }
        if started.elapsed() >= limit {
            kill_group(&mut child);
            let _ = child.wait();
            break Ending::TimedOut;
        }
        std::thread::sleep(Duration::from_millis(5));
    };

    let (out, out_cut) = stdout.map(join_reader).unwrap_or_default();
    let (err, err_cut) = stderr.map(join_reader).unwrap_or_default();
    Ok(Finished { ending, output: Captured { stdout: out, stderr: err, truncated: out_cut || err_cut } })
}

/// The process group of the program running now (0: none), for the interrupt handler.
#[cfg(unix)]
static RUNNING_GROUP: std::sync::atomic::AtomicI32 = std::sync::atomic::AtomicI32::new(0);

/// While alive, Ctrl-C, SIGTERM or SIGHUP to tutor also end the graded program's whole group
/// (it has its own group, so the terminal's Ctrl-C does not reach it), then end tutor as the
/// signal would have.
struct InterruptGuard;

impl InterruptGuard {
    fn watch(child: &std::process::Child) -> InterruptGuard {
        #[cfg(unix)]
        {
            static INSTALL: std::sync::Once = std::sync::Once::new();
            INSTALL.call_once(|| {
                for signal in [libc::SIGINT, libc::SIGTERM, libc::SIGHUP] {
                    // SAFETY: `on_signal` only calls async-signal-safe functions (kill, signal, raise).
                    unsafe {
                        libc::signal(signal, on_signal as extern "C" fn(libc::c_int) as libc::sighandler_t);
                    }
                }
            });
            let group = i32::try_from(child.id()).unwrap_or(0);
            RUNNING_GROUP.store(group, std::sync::atomic::Ordering::SeqCst);
        }
        let _ = child;
        InterruptGuard
    }
}

impl Drop for InterruptGuard {
    fn drop(&mut self) {
        #[cfg(unix)]
        RUNNING_GROUP.store(0, std::sync::atomic::Ordering::SeqCst);
    }
}

#[cfg(unix)]
extern "C" fn on_signal(signal: libc::c_int) {
    let group = RUNNING_GROUP.load(std::sync::atomic::Ordering::SeqCst);
    // SAFETY: kill, signal and raise are async-signal-safe.
    unsafe {
        if group > 0 {
            libc::kill(-group, libc::SIGKILL);
        }
        libc::signal(signal, libc::SIG_DFL);
        libc::raise(signal);
    }
}

fn ending_of(status: std::process::ExitStatus) -> Ending {
    if let Some(code) = status.code() {
        return Ending::Exited(code);
    }
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt;
        if let Some(signal) = status.signal() {
            return Ending::Signalled(signal);
        }
    }
    Ending::Exited(-1)
}

fn kill_group(child: &mut std::process::Child) {
    #[cfg(unix)]
    {
        if let Ok(pid) = libc::pid_t::try_from(child.id()) {
            // SAFETY: kill(2) with a negative pid signals the process group we created above.
            unsafe {
                libc::kill(-pid, libc::SIGKILL);
            }
        }
    }
    let _ = child.kill();
}

/// Reads a stream to its end on a thread, keeping the first [`OUTPUT_CAP`] bytes and draining the
/// rest, so that a program printing without end never blocks on a full pipe.
fn capped_reader(mut stream: impl Read + Send + 'static) -> JoinHandle<(String, bool)> {
    std::thread::spawn(move || {
        let mut kept = Vec::new();
        let mut cut = false;
        let mut buffer = [0u8; 8192];
        while let Ok(n) = stream.read(&mut buffer) {
            if n == 0 {
                break;
            }
            let room = OUTPUT_CAP.saturating_sub(kept.len());
            kept.extend_from_slice(&buffer[..n.min(room)]);
            cut |= n > room;
        }
        (String::from_utf8_lossy(&kept).into_owned(), cut)
    })
}

fn join_reader(handle: JoinHandle<(String, bool)>) -> (String, bool) {
    handle.join().unwrap_or_default()
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    fn sh(script: &str) -> Command {
        let mut c = Command::new("sh");
        c.args(["-c", script]);
        c
    }

    #[test]
    fn passes_the_token_and_captures_output() {
        let done = run(sh("read t; echo got $t; echo oops >&2; exit 3"), "abc", Duration::from_secs(10)).unwrap();
        assert_eq!(done.ending, Ending::Exited(3));
        assert_eq!(done.output.stdout, "got abc\n");
        assert_eq!(done.output.stderr, "oops\n");
    }

    #[test]
    fn kills_the_whole_group_on_time_out() {
        let started = Instant::now();
        let done = run(sh("sleep 30 & sleep 30; echo never"), "t", Duration::from_millis(300)).unwrap();
        assert_eq!(done.ending, Ending::TimedOut);
        assert!(started.elapsed() < Duration::from_secs(10), "the background child kept the pipes open");
    }

    #[test]
    fn endless_output_is_capped() {
        let done = run(sh("yes spam | head -c 1000000"), "t", Duration::from_secs(10)).unwrap();
        assert!(done.output.truncated);
        assert_eq!(done.output.stdout.len(), OUTPUT_CAP);
    }

    #[test]
    fn memory_is_limited() {
        // `ulimit -v` prints the address-space limit in KiB.
        let done = run(sh("ulimit -v"), "t", Duration::from_secs(10)).unwrap();
        assert_eq!(done.output.stdout.trim(), (MEMORY_LIMIT / 1024).to_string());
    }

    #[test]
    fn tokens_differ() {
        assert_ne!(secret_token(), secret_token());
        assert_eq!(secret_token().len(), 32);
    }
}
