//! Running programs tutor does not trust to end: cargo (which compiles learner code) and the
//! graded program. Each runs as the leader of its own process group, under an address-space
//! limit, and the whole group is killed when tutor is done with it (success included), when tutor
//! is interrupted, and — through a small watchdog process — even when tutor is killed outright.

use std::io::Read;
use std::process::{Child, Command};
use std::sync::mpsc::{self, Receiver};
use std::time::{Duration, Instant};

pub use super::cancel::Cancel;

/// How much of each output stream is kept.
pub const OUTPUT_CAP: usize = 16 * 1024;

/// How long reader threads may take to finish once their process group is gone.
const READER_GRACE: Duration = Duration::from_millis(300);

/// How a process ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ending {
    /// It exited with this code.
    Exited(i32),
    /// A signal ended it (abort, stack overflow, out of memory …).
    Signalled(i32),
    /// It outlived the limit and was killed.
    TimedOut,
}

/// What a process printed, cut at [`OUTPUT_CAP`] per stream.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Captured {
    /// Standard output.
    pub stdout: String,
    /// Standard error.
    pub stderr: String,
    /// True when either stream was cut.
    pub truncated: bool,
}

impl Captured {
    /// Appends another run's output (a graded program restarted after a crash).
    pub fn append(&mut self, other: Captured) {
        for (mine, theirs) in [(&mut self.stdout, other.stdout), (&mut self.stderr, other.stderr)] {
            let room = OUTPUT_CAP.saturating_sub(mine.len());
            if theirs.len() > room {
                self.truncated = true;
            }
            let mut cut = room.min(theirs.len());
            while !theirs.is_char_boundary(cut) {
                cut -= 1;
            }
            mine.push_str(&theirs[..cut]);
        }
        self.truncated |= other.truncated;
    }
}

/// A process group led by a child of tutor. Dropping it kills the whole group.
pub struct Group {
    child: Child,
    pgid: i32,
    ended: Option<Ending>,
    cancel: Option<Cancel>,
    _watchdog: Option<Watchdog>,
    _interrupt: InterruptGuard,
}

impl Group {
    /// Spawns `command` as the leader of a new process group with an address-space limit of
    /// `memory_limit` bytes, dying with tutor. Other `pre_exec` steps the caller registered on
    /// `command` (confinement, descriptors) run too.
    pub fn spawn(command: &mut Command, memory_limit: u64) -> std::io::Result<Group> {
        Group::spawn_cancellable(command, memory_limit, None)
    }

    /// [`Group::spawn`], with the group killed by `cancel` (now, if it is already cancelled).
    pub fn spawn_cancellable(
        command: &mut Command,
        memory_limit: u64,
        cancel: Option<&Cancel>,
    ) -> std::io::Result<Group> {
        #[cfg(unix)]
        {
            use std::os::unix::process::CommandExt;
            command.process_group(0);
            // SAFETY: the closure runs in the child between fork and exec; it only calls
            // setrlimit(2) and prctl(2), which are async-signal-safe, and touches no parent memory.
            unsafe {
                command.pre_exec(move || {
                    let limit = libc::rlimit { rlim_cur: memory_limit as _, rlim_max: memory_limit as _ };
                    if libc::setrlimit(libc::RLIMIT_AS, &limit) != 0 {
                        return Err(std::io::Error::last_os_error());
                    }
                    // In its own group the program does not get the terminal's Ctrl-C; if tutor
                    // dies, it must die too, or an endless loop runs on.
                    #[cfg(target_os = "linux")]
                    if libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL) != 0 {
                        return Err(std::io::Error::last_os_error());
                    }
                    Ok(())
                });
            }
        }
        let child = command.spawn()?;
        let pgid = i32::try_from(child.id()).unwrap_or(0);
        let watchdog = Watchdog::start(pgid);
        let interrupt = InterruptGuard::watch(pgid);
        if let Some(cancel) = cancel {
            cancel.enter(pgid);
        }
        Ok(Group { child, pgid, ended: None, cancel: cancel.cloned(), _watchdog: watchdog, _interrupt: interrupt })
    }

    /// The leader's standard streams, to be taken once.
    pub fn child_mut(&mut self) -> &mut Child {
        &mut self.child
    }

    /// How the leader ended, if it has.
    pub fn try_wait(&mut self) -> std::io::Result<Option<Ending>> {
        if self.ended.is_none() {
            self.ended = self.child.try_wait()?.map(ending_of);
        }
        Ok(self.ended)
    }

    /// Waits for the leader to end, at most until `deadline`; past it the group is killed.
    pub fn wait_until(&mut self, deadline: Instant) -> std::io::Result<Ending> {
        loop {
            if let Some(ending) = self.try_wait()? {
                return Ok(ending);
            }
            if Instant::now() >= deadline {
                self.kill();
                return Ok(Ending::TimedOut);
            }
            std::thread::sleep(Duration::from_millis(2));
        }
    }

    /// Kills every process of the group and reaps the leader.
    pub fn kill(&mut self) {
        if let Some(cancel) = &self.cancel {
            cancel.leave(self.pgid);
        }
        kill_group(self.pgid);
        if self.ended.is_none() {
            let _ = self.child.kill();
            self.ended = self.child.wait().ok().map(ending_of);
        }
    }
}

impl Drop for Group {
    fn drop(&mut self) {
        self.kill();
    }
}

/// Sends SIGKILL to every process of group `pgid` (nothing for 0).
pub(super) fn kill_group(pgid: i32) {
    #[cfg(unix)]
    if pgid > 0 {
        // SAFETY: kill(2) with a negative pid signals the process group this module created.
        unsafe {
            libc::kill(-pgid, libc::SIGKILL);
        }
    }
}

/// Runs `command` in its own group with stdin from `/dev/null`, waits at most `limit`, and
/// returns how it ended and what it printed.
pub fn run(mut command: Command, limit: Duration, memory_limit: u64) -> std::io::Result<(Ending, Captured)> {
    use std::process::Stdio;
    command.stdin(Stdio::null()).stdout(Stdio::piped()).stderr(Stdio::piped());
    let mut group = Group::spawn(&mut command, memory_limit)?;
    let stdout = group.child_mut().stdout.take().map(capped_reader);
    let stderr = group.child_mut().stderr.take().map(capped_reader);
    let ending = group.wait_until(Instant::now() + limit)?;
    drop(group);
    Ok((ending, collect(stdout, stderr)))
}

/// Reads a stream to its end on a thread, keeping the first [`OUTPUT_CAP`] bytes and draining the
/// rest, so that a program printing without end never blocks on a full pipe.
pub fn capped_reader(mut stream: impl Read + Send + 'static) -> Receiver<(String, bool)> {
    let (sender, receiver) = mpsc::channel();
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
        let _ = sender.send((String::from_utf8_lossy(&kept).into_owned(), cut));
    });
    receiver
}

/// What two capped readers collected. A stream still held open by something that escaped the
/// group is given up on after a short grace, never waited for.
pub fn collect(stdout: Option<Receiver<(String, bool)>>, stderr: Option<Receiver<(String, bool)>>) -> Captured {
    let take =
        |r: Option<Receiver<(String, bool)>>| r.and_then(|r| r.recv_timeout(READER_GRACE).ok()).unwrap_or_default();
    let (out, out_cut) = take(stdout);
    let (err, err_cut) = take(stderr);
    Captured { stdout: out, stderr: err, truncated: out_cut || err_cut }
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

/// A process forked from tutor that kills a group if tutor dies without saying goodbye
/// (`kill -9`, where no signal handler runs). It waits on a pipe: a byte means "done, leave the
/// group alone"; the end of the pipe without a byte means tutor is gone.
struct Watchdog {
    #[cfg(unix)]
    done: libc::c_int,
    #[cfg(unix)]
    pid: libc::pid_t,
}

impl Watchdog {
    #[cfg(unix)]
    fn start(pgid: i32) -> Option<Watchdog> {
        if pgid <= 0 {
            return None;
        }
        let mut fds = [0 as libc::c_int; 2];
        // SAFETY: `fds` has room for the two descriptors pipe(2) writes.
        if unsafe { libc::pipe(fds.as_mut_ptr()) } != 0 {
            return None;
        }
        let [read_end, write_end] = fds;
        for fd in fds {
            // SAFETY: both descriptors were just created by pipe(2) and belong to this function.
            unsafe { libc::fcntl(fd, libc::F_SETFD, libc::FD_CLOEXEC) };
        }
        // SAFETY: after fork the child calls only async-signal-safe functions (signal, close,
        // read, kill, _exit) and allocates nothing, as required in a multi-threaded parent.
        let pid = unsafe { libc::fork() };
        if pid == 0 {
            // SAFETY: see above; every call is async-signal-safe and `byte` lives on this stack.
            unsafe {
                for signal in [libc::SIGINT, libc::SIGQUIT, libc::SIGHUP, libc::SIGTSTP, libc::SIGPIPE] {
                    libc::signal(signal, libc::SIG_IGN);
                }
                // Hold none of tutor's descriptors: a pipe kept open here could keep a reader
                // (a test, a terminal) waiting.
                for fd in 0..1024 {
                    if fd != read_end {
                        libc::close(fd);
                    }
                }
                let mut byte = 0u8;
                let got = loop {
                    let n = libc::read(read_end, (&mut byte as *mut u8).cast(), 1);
                    // Reading errno allocates nothing.
                    if n < 0 && std::io::Error::last_os_error().raw_os_error() == Some(libc::EINTR) {
                        continue;
                    }
                    break n;
                };
                if got <= 0 {
                    libc::kill(-pgid, libc::SIGKILL);
                }
                libc::_exit(0);
            }
        }
        // SAFETY: closing our copy of the read end, which nothing else in tutor uses.
        unsafe { libc::close(read_end) };
        if pid < 0 {
            // SAFETY: the write end is ours and no longer needed.
            unsafe { libc::close(write_end) };
            return None;
        }
        Some(Watchdog { done: write_end, pid })
    }

    #[cfg(not(unix))]
    fn start(_pgid: i32) -> Option<Watchdog> {
        None
    }
}

#[cfg(unix)]
impl Drop for Watchdog {
    fn drop(&mut self) {
        // SAFETY: `done` is the pipe's write end this struct owns, and `pid` its own child.
        unsafe {
            libc::write(self.done, b"x".as_ptr().cast(), 1);
            libc::close(self.done);
            libc::waitpid(self.pid, std::ptr::null_mut(), 0);
        }
    }
}

/// The process group running now (0: none), for the interrupt handler.
#[cfg(unix)]
static RUNNING_GROUP: std::sync::atomic::AtomicI32 = std::sync::atomic::AtomicI32::new(0);

/// While alive, Ctrl-C, SIGTERM or SIGHUP to tutor also end the running group (it has its own
/// group, so the terminal's Ctrl-C does not reach it), then end tutor as the signal would have.
struct InterruptGuard;

impl InterruptGuard {
    fn watch(pgid: i32) -> InterruptGuard {
        install_interrupt_handlers();
        #[cfg(unix)]
        RUNNING_GROUP.store(pgid, std::sync::atomic::Ordering::SeqCst);
        let _ = pgid;
        InterruptGuard
    }
}

/// Installs tutor's handlers for SIGINT, SIGTERM and SIGHUP (once): they end the running group,
/// give the terminal back (see [`crate::tty`]) and end tutor as the signal would have. Groups
/// install them when they start; `tutor watch` installs them before it changes the terminal.
pub fn install_interrupt_handlers() {
    #[cfg(unix)]
    {
        static INSTALL: std::sync::Once = std::sync::Once::new();
        INSTALL.call_once(|| {
            for signal in [libc::SIGINT, libc::SIGTERM, libc::SIGHUP] {
                // SAFETY: `on_signal` only calls async-signal-safe functions (kill, tcsetattr,
                // write, signal, raise).
                unsafe {
                    libc::signal(signal, on_signal as extern "C" fn(libc::c_int) as libc::sighandler_t);
                }
            }
        });
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
    crate::tty::restore();
    // SAFETY: kill, signal and raise are async-signal-safe.
    unsafe {
        if group > 0 {
            libc::kill(-group, libc::SIGKILL);
        }
        libc::signal(signal, libc::SIG_DFL);
        libc::raise(signal);
    }
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    const MEMORY: u64 = 4 << 30;

    fn sh(script: &str) -> Command {
        let mut c = Command::new("sh");
        c.args(["-c", script]);
        c
    }

    #[test]
    fn captures_output_and_the_exit_code() {
        let (ending, output) = run(sh("echo out; echo oops >&2; exit 3"), Duration::from_secs(10), MEMORY).unwrap();
        assert_eq!(ending, Ending::Exited(3));
        assert_eq!(output.stdout, "out\n");
        assert_eq!(output.stderr, "oops\n");
    }

    #[test]
    fn kills_the_whole_group_on_time_out_without_waiting_for_held_pipes() {
        let started = Instant::now();
        let (ending, _) = run(sh("sleep 30 & sleep 30; echo never"), Duration::from_millis(300), MEMORY).unwrap();
        assert_eq!(ending, Ending::TimedOut);
        assert!(started.elapsed() < Duration::from_secs(5), "the background child kept the pipes open");
    }

    #[test]
    fn a_child_that_left_the_group_does_not_hold_the_run() {
        // setsid puts `sleep` out of reach of the group kill, and it keeps stdout open.
        let started = Instant::now();
        let (ending, _) = run(sh("setsid sleep 5 & exit 0"), Duration::from_secs(10), MEMORY).unwrap();
        assert_eq!(ending, Ending::Exited(0));
        assert!(started.elapsed() < Duration::from_secs(3), "waited {:?} for a pipe", started.elapsed());
    }

    #[test]
    fn endless_output_is_capped() {
        let (_, output) = run(sh("yes spam | head -c 1000000"), Duration::from_secs(10), MEMORY).unwrap();
        assert!(output.truncated);
        assert_eq!(output.stdout.len(), OUTPUT_CAP);
    }

    #[test]
    fn memory_is_limited() {
        // `ulimit -v` prints the address-space limit in KiB.
        let (_, output) = run(sh("ulimit -v"), Duration::from_secs(10), MEMORY).unwrap();
        assert_eq!(output.stdout.trim(), (MEMORY / 1024).to_string());
    }

    #[test]
    fn the_group_is_killed_when_dropped_even_after_success() {
        let mut command = sh("sleep 30 & echo $!; wait");
        command.stdout(std::process::Stdio::piped());
        let mut group = Group::spawn(&mut command, MEMORY).unwrap();
        let mut line = String::new();
        let mut stdout = group.child_mut().stdout.take().unwrap();
        let mut byte = [0u8; 1];
        while stdout.read(&mut byte).unwrap() == 1 && byte[0] != b'\n' {
            line.push(byte[0] as char);
        }
        let sleeper: i32 = line.trim().parse().unwrap();
        assert!(std::path::Path::new(&format!("/proc/{sleeper}")).exists() || !cfg!(target_os = "linux"));
        drop(group);
        std::thread::sleep(Duration::from_millis(100));
        let state = std::fs::read_to_string(format!("/proc/{sleeper}/stat")).unwrap_or_default();
        assert!(state.is_empty() || state.contains(") Z "), "the background child survived: {state}");
    }

    #[test]
    fn appended_output_stays_within_the_cap() {
        let mut all = Captured { stdout: "a".repeat(OUTPUT_CAP - 2), ..Captured::default() };
        all.append(Captured { stdout: "ééé".into(), ..Captured::default() });
        assert!(all.stdout.len() <= OUTPUT_CAP && all.truncated);
    }
}
