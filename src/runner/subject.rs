//! The graded program, seen from tutor: a [`Channel`] to a program in another process. What the
//! frames mean is the course's business (its grading code speaks its own requests over it).
//!
//! Each call is a request on a socket and a reply within the run's time limit. The program runs
//! confined, in its own process group, from an empty folder, with an empty environment. When it
//! dies during a call, that call's case fails with how it ended and a fresh program is started for
//! the next case; when the time limit runs out, the group is killed and the cases left fail as not
//! run. Nothing the program sends is a verdict: replies are the learner's return values, and the
//! grader decides what they mean.

use std::cell::RefCell;
use std::io::BufReader;
use std::os::unix::net::UnixStream;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::mpsc::Receiver;
use std::time::{Duration, Instant};

use tutor_grade::{Channel, Ending as FaultEnding, Fault};
use tutor_subject::frame::{read_frame_within, write_frame, MAX_FRAME};
use tutor_subject::protocol::PROTOCOL_ENV;

use super::confine::Confinement;
use super::process::{capped_reader, collect, Cancel, Captured, Ending, Group};
use super::until_deadline::{is_timeout, UntilDeadline};

/// Address space the graded program may use: far more than the checks need, far less than a
/// runaway allocation would take from the machine.
pub const MEMORY_LIMIT: u64 = 4 << 30;

/// The contract every call's reply is held to, whatever the course: at most this many bytes
/// ([`reply_limit`]), or [`REPLY_PER_REQUEST_BYTE`] times the request's size when that is more.
/// The largest right answer of every course's cases is 240 KB (measured over both courses'
/// solutions: a weight read back); a reply over the contract is a wrong answer, refused by its
/// length before any of it is read, so that a program answering 64 MB to every call costs
/// tutor no memory.
const REPLY_FLOOR: usize = 4 << 20;

/// See [`REPLY_FLOOR`]: a call that sends an array may be answered by a larger one (a layer
/// that widens its input), up to this many times the request's size.
const REPLY_PER_REQUEST_BYTE: usize = 64;

/// The most bytes the reply to a request of `request_len` bytes may have.
fn reply_limit(request_len: usize) -> usize {
    REPLY_FLOOR.max(request_len.saturating_mul(REPLY_PER_REQUEST_BYTE)).min(MAX_FRAME)
}

/// The descriptor the program finds its end of the socket on (read and write).
const PROTOCOL_FD: i32 = 3;

/// A graded program started on demand, restarted after a crash, bounded by one deadline.
pub struct RemoteSubject {
    executable: PathBuf,
    /// The file names of the shared libraries tutor builds and links it with (the kit's, its
    /// given library).
    libraries: Vec<String>,
    work_dir: PathBuf,
    limit: Duration,
    deadline: Instant,
    cancel: Cancel,
    state: RefCell<State>,
    /// How long each call may take, besides the run's deadline ([`Channel::limit_calls`]).
    call_limit: std::cell::Cell<Option<Duration>>,
    /// The time spent starting the graded program and waiting for its replies: its share of the
    /// check (the rest is tutor's own; `bench/every_exercise.sh` reads it, see [`Self::waited`]).
    waited: std::cell::Cell<Duration>,
}

#[derive(Default)]
struct State {
    running: Option<Running>,
    /// Counts started programs: a layer belongs to the program that built it.
    generation: u64,
    output: Captured,
    timed_out: bool,
    last_ending: Option<Ending>,
    start_error: Option<String>,
    /// Replies to deferred requests ([`Channel::defer`]) the running program owes, in order.
    unread: usize,
    /// When the last request sent must be answered by, under the limit on each call.
    call_deadline: Option<Instant>,
}

struct Running {
    group: Group,
    /// Whether it has answered a request yet (a program whose libraries do not load never does).
    answered: bool,
    /// tutor's end of the socket, written a request at a time.
    requests: UntilDeadline,
    /// The same socket, read a frame at a time.
    replies: BufReader<UntilDeadline>,
    stdout: Option<Receiver<(String, bool)>>,
    stderr: Option<Receiver<(String, bool)>>,
}

impl RemoteSubject {
    /// A subject for the program at `executable`, linked with tutor's shared `libraries` (their
    /// file names), with `limit` for the whole run from now on; once `cancel` is cancelled, its
    /// program is killed and no case starts another.
    pub fn new(executable: &Path, libraries: &[String], limit: Duration, cancel: Cancel) -> RemoteSubject {
        // The file-system root holds nothing of the course (and the program may not read the
        // course anyway); unlike a fresh folder, nothing is left behind if tutor is interrupted.
        let work_dir = PathBuf::from("/");
        RemoteSubject {
            executable: executable.to_path_buf(),
            libraries: libraries.to_vec(),
            work_dir,
            limit,
            deadline: Instant::now() + limit,
            cancel,
            state: RefCell::new(State::default()),
            call_limit: std::cell::Cell::new(None),
            waited: std::cell::Cell::new(Duration::ZERO),
        }
    }

    /// The time spent so far starting the graded program and waiting for its replies.
    pub fn waited(&self) -> Duration {
        self.waited.get()
    }

    /// Ends the last program and returns everything the programs printed, whether the time
    /// limit ran out, and why a program could not be started (tutor's problem, not the learner's).
    pub fn finish(self) -> (Captured, bool, Option<String>) {
        let mut state = self.state.replace(State::default());
        if let Some(running) = state.running.take() {
            let output = stop(running);
            state.output.append(output);
        }
        (state.output, state.timed_out, state.start_error)
    }

    /// Sends `request` and returns the reply, or raises the [`Fault`] that ends the current case.
    /// Replies to deferred requests come first: they are read, and a failure one carries is
    /// raised, once the reply to this one is read too, so that no reply is left behind.
    fn call_program(&self, owner: Option<u64>, request: &[u8]) -> (Vec<u8>, u64) {
        let mut state = self.state.borrow_mut();
        let generation = self.ready(&mut state, owner);
        let (_, wait_until) = self.send(&mut state, request);
        let deferred = self.receive_owed(&mut state, wait_until);
        let reply = self.receive(&mut state, wait_until, reply_limit(request.len()));
        drop(state);
        self.open_deferred(&deferred);
        (reply, generation)
    }

    /// Sends `request`, whose reply is read later ([`Channel::defer`]).
    fn defer_request(&self, owner: Option<u64>, request: &[u8]) {
        let mut state = self.state.borrow_mut();
        self.ready(&mut state, owner);
        let (sent, wait_until) = self.send(&mut state, request);
        state.unread += 1;
        if !sent {
            // It could not be sent: what the program said last, or how it ended, shows now.
            let deferred = self.receive_owed(&mut state, wait_until);
            drop(state);
            self.open_deferred(&deferred);
        }
    }

    /// Reads the replies to deferred requests; see [`Channel::settle`].
    fn settle_program(&self) {
        let mut state = self.state.borrow_mut();
        let deferred = self.receive_owed(&mut state, self.deadline);
        drop(state);
        self.open_deferred(&deferred);
    }

    /// Reads the replies the running program owes for deferred requests.
    fn receive_owed(&self, state: &mut State, wait_until: Instant) -> Vec<Vec<u8>> {
        let owed = std::mem::take(&mut state.unread);
        // A deferred request's answer is `()`: the floor is far above any.
        (0..owed).map(|_| self.receive(state, wait_until, REPLY_FLOOR)).collect()
    }

    /// Raises the first failure that replies to deferred requests carry.
    fn open_deferred(&self, replies: &[Vec<u8>]) {
        for reply in replies {
            tutor_grade::fault::settle_deferred(self, reply);
        }
    }

    /// Makes sure a program is running that holds `owner`'s state (if any), and returns its
    /// generation, or raises why a call cannot be made: the time is up, the program that built
    /// the value is gone, no program would start.
    fn ready(&self, state: &mut State, owner: Option<u64>) -> u64 {
        // A cancelled check is thrown away: the cases left end at once, like cases not run.
        if state.timed_out || self.cancel.is_cancelled() {
            Fault::TimedOut { limit_secs: self.limit.as_secs_f64(), during_this_case: false }.raise();
        }
        if let Some(owner) = owner {
            if owner != state.generation || state.running.is_none() {
                // The program that built this layer is gone.
                let ending = state.last_ending.unwrap_or(Ending::Exited(-1));
                Fault::Ended(fault_ending(ending)).raise();
            }
        }
        if state.running.is_none() {
            let started = Instant::now();
            let running = self.start();
            self.waited.set(self.waited.get() + started.elapsed());
            match running {
                Ok(running) => {
                    state.running = Some(running);
                    state.generation += 1;
                }
                Err(e) => {
                    let why = format!("{e}");
                    state.start_error = Some(why.clone());
                    Fault::Unreadable(format!("tutor could not start the graded program: {why}")).raise();
                }
            }
        }
        state.generation
    }

    /// Writes `request` to the running program; returns whether it went, and how long to wait for
    /// replies: the call's limit or the run's deadline, or a moment when the program is gone or
    /// not reading (what it sent last, or how it ended, shows next).
    fn send(&self, state: &mut State, request: &[u8]) -> (bool, Instant) {
        let Some(running) = state.running.as_mut() else { unreachable!("made ready first") };
        let sent = running.send(request, self.deadline).is_ok();
        state.call_deadline = self.call_limit.get().map(|limit| Instant::now() + limit).filter(|&d| d < self.deadline);
        match (sent, state.call_deadline) {
            (true, Some(call_deadline)) => (true, call_deadline),
            (true, None) => (true, self.deadline),
            (false, _) => (false, self.deadline.min(Instant::now() + Duration::from_secs(1))),
        }
    }

    /// Reads the next reply of the running program, or raises why there is none.
    fn receive(&self, state: &mut State, wait_until: Instant, limit: usize) -> Vec<u8> {
        // Read on this thread, bounded by the run's deadline: a reader thread handing frames over
        // cost a thread switch on every call (measured: about a tenth of a millisecond of a call's
        // 0.15, over the 170-odd calls of a check).
        let Some(running) = state.running.as_mut() else {
            let ending = state.last_ending.unwrap_or(Ending::Exited(-1));
            Fault::Ended(fault_ending(ending)).raise()
        };
        let started = Instant::now();
        let received = running.receive(wait_until, limit);
        self.waited.set(self.waited.get() + started.elapsed());
        match received {
            Ok(Some(bytes)) => {
                running.answered = true;
                bytes
            }
            // A frame over the limit (the call's contract): the program is not ending, its reply
            // is unreadable, and a wrong answer.
            Err(e) if e.kind() == std::io::ErrorKind::InvalidData => {
                self.end_program(state, Duration::ZERO);
                Fault::Unreadable(e.to_string()).raise()
            }
            // The wait that ran out was bounded by the run's deadline: the run's time is up.
            Err(e) if is_timeout(&e) && wait_until == self.deadline => {
                state.timed_out = true;
                self.end_program(state, Duration::ZERO);
                Fault::TimedOut { limit_secs: self.limit.as_secs_f64(), during_this_case: true }.raise()
            }
            // Bounded by the limit on each call: this call's time is up, not the run's.
            Err(e) if is_timeout(&e) && Some(wait_until) == state.call_deadline => {
                let limit = self.call_limit.get().unwrap_or_default();
                self.end_program(state, Duration::ZERO);
                Fault::TimedOut { limit_secs: limit.as_secs_f64(), during_this_case: true }.raise()
            }
            Ok(None) | Err(_) => {
                let answered = running.answered;
                let printed_before = state.output.stderr.len();
                // It closed its socket: it is usually ending by itself. A moment lets its own exit
                // code or signal be the one reported.
                let ending = self.end_program(state, Duration::from_millis(500));
                let printed = &state.output.stderr[printed_before..];
                let why = (!answered).then(|| loader_failure(ending, printed, &self.libraries)).flatten();
                if let Some(why) = why {
                    state.start_error = Some(why.clone());
                    Fault::Unreadable(format!("tutor could not start the graded program: {why}")).raise();
                }
                Fault::Ended(fault_ending(ending)).raise()
            }
        }
    }

    /// Stops the running program once it has ended by itself or `grace` has passed, keeps its
    /// output, and returns how it ended. A program that is not ending (its reply made no sense,
    /// its time is up) gets no grace: the time waited would be taken from the cases left.
    fn end_program(&self, state: &mut State, grace: Duration) -> Ending {
        // Whatever it owed goes with it.
        state.unread = 0;
        let Some(mut running) = state.running.take() else {
            return state.last_ending.unwrap_or(Ending::Exited(-1));
        };
        let ending = running.group.wait_until(Instant::now() + grace).unwrap_or(Ending::TimedOut);
        let output = stop(running);
        state.output.append(output);
        state.last_ending = Some(ending);
        ending
    }

    fn start(&self) -> std::io::Result<Running> {
        // Each program gets a confinement of its own: the child adds its `/proc/<pid>` to it.
        let confinement = Confinement::prepare(&self.executable);
        let (ours, theirs) = UnixStream::pair()?;
        let mut command = Command::new(&self.executable);
        command
            .env_clear()
            .env(PROTOCOL_ENV, format!("{PROTOCOL_FD},{}", PROTOCOL_FD + 1))
            .env("RUST_BACKTRACE", "0")
            .current_dir(&self.work_dir)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        // First, while its Landlock ruleset descriptor is still where it was opened: moving the
        // socket onto descriptors 3 and 4 may close whatever sat there.
        confinement.apply_to(&mut command);
        pass_socket(&mut command, &theirs);
        let mut group = Group::spawn_cancellable(&mut command, MEMORY_LIMIT, Some(&self.cancel))?;
        drop(theirs);
        let stdout = group.child_mut().stdout.take().map(capped_reader);
        let stderr = group.child_mut().stderr.take().map(capped_reader);
        let far = Instant::now();
        let replies = BufReader::new(UntilDeadline { socket: ours.try_clone()?, until: far });
        let requests = UntilDeadline { socket: ours, until: far };
        Ok(Running { group, requests, replies, answered: false, stdout, stderr })
    }
}

impl Drop for RemoteSubject {
    fn drop(&mut self) {
        if let Some(running) = self.state.get_mut().running.take() {
            stop(running);
        }
    }
}

impl Running {
    /// Writes one request, giving up at `deadline` (a program that stops reading fills the socket).
    fn send(&mut self, request: &[u8], deadline: Instant) -> std::io::Result<()> {
        self.requests.until = deadline;
        write_frame(&mut self.requests, request)
    }

    /// Reads one reply of at most `limit` bytes (`None`: the program closed its end), giving
    /// up at `deadline`.
    fn receive(&mut self, deadline: Instant, limit: usize) -> std::io::Result<Option<Vec<u8>>> {
        self.replies.get_mut().until = deadline;
        read_frame_within(&mut self.replies, limit)
    }
}

/// Kills the program's group and collects what it printed.
fn stop(mut running: Running) -> Captured {
    let _ = running.requests.socket.shutdown(std::net::Shutdown::Both);
    running.group.kill();
    // Kept as printed: the renderers show it escaped (`render::shown`).
    collect(running.stdout.take(), running.stderr.take())
}

/// What the dynamic loader said, when a program that had not yet answered ended because a shared
/// library tutor links it with (one of `libraries`, or the standard library) would not
/// load (the loader exits with 127 and says so): tutor's problem, and the check ends as such
/// (exit 2). A library the learner's file asked for (`#[link]`) is the learner's: the program
/// ended, as any other. Code that imitates the loader on purpose gets the same, never a pass.
fn loader_failure(ending: Ending, stderr: &str, libraries: &[String]) -> Option<String> {
    const LOADER_SAYS: &str = "error while loading shared libraries: ";
    if ending != Ending::Exited(127) {
        return None;
    }
    let said = stderr.lines().find_map(|line| Some(&line[line.find(LOADER_SAYS)?..]))?.trim();
    let library = said[LOADER_SAYS.len()..].split(':').next()?.trim();
    let name = library.rsplit('/').next().unwrap_or(library);
    (libraries.iter().any(|l| l == name) || name.starts_with("libstd-")).then(|| said.to_string())
}

fn fault_ending(ending: Ending) -> FaultEnding {
    match ending {
        Ending::Exited(code) => FaultEnding::Exited(code),
        Ending::Signalled(signal) => FaultEnding::Signalled(signal),
        Ending::TimedOut => FaultEnding::Signalled(libc::SIGKILL),
    }
}

/// Puts `socket` on descriptors [`PROTOCOL_FD`] and the one after it in the child.
fn pass_socket(command: &mut Command, socket: &UnixStream) {
    use std::os::fd::AsRawFd;
    use std::os::unix::process::CommandExt;
    let fd = socket.as_raw_fd();
    // SAFETY: runs between fork and exec and only calls fcntl(2) and dup2(2), which are
    // async-signal-safe; `fd` stays open in the parent until after the spawn.
    unsafe {
        command.pre_exec(move || {
            // Move it out of the way first: the socket itself may sit on 3 or 4.
            let high = libc::fcntl(fd, libc::F_DUPFD_CLOEXEC, 10);
            if high < 0 {
                return Err(std::io::Error::last_os_error());
            }
            for target in [PROTOCOL_FD, PROTOCOL_FD + 1] {
                if libc::dup2(high, target) < 0 {
                    return Err(std::io::Error::last_os_error());
                }
            }
            // Nothing else tutor inherited (a shell's `9>>file`, say) may reach the program:
            // Landlock does not govern descriptors already open. Marked close-on-exec rather
            // than closed, so that the standard library's own exec-error pipe still works.
            let first = PROTOCOL_FD + 2;
            #[cfg(target_os = "linux")]
            let marked = libc::syscall(
                libc::SYS_close_range,
                first as libc::c_uint,
                libc::c_uint::MAX,
                libc::CLOSE_RANGE_CLOEXEC,
            ) == 0;
            #[cfg(not(target_os = "linux"))]
            let marked = false;
            if !marked {
                for fd in first..4096 {
                    libc::fcntl(fd, libc::F_SETFD, libc::FD_CLOEXEC);
                }
            }
            Ok(())
        });
    }
}

impl Channel for RemoteSubject {
    fn call(&self, owner: Option<u64>, request: &[u8]) -> (Vec<u8>, u64) {
        self.call_program(owner, request)
    }

    fn defer(&self, owner: Option<u64>, request: &[u8]) {
        self.defer_request(owner, request);
    }

    fn settle(&self) {
        self.settle_program();
    }

    fn limit_calls(&self, limit: Option<Duration>) {
        self.call_limit.set(limit);
    }

    fn discard(&self) {
        let mut state = self.state.borrow_mut();
        self.end_program(&mut state, Duration::ZERO);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Calls `/usr/bin/yes` (a program that never reads its requests nor answers them) with a
    /// request of `size` bytes and a limit of half a second; the fault it raised, or `None` if
    /// the call was still waiting after ten seconds.
    fn call_one_that_never_reads(size: usize) -> Option<Fault> {
        let yes = Path::new("/usr/bin/yes");
        assert!(yes.exists(), "this test runs /usr/bin/yes");
        let (sender, receiver) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let subject =
                RemoteSubject::new(yes, &["libkit.so".to_string()], Duration::from_millis(500), Cancel::default());
            let raised = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| subject.call(None, &vec![0; size])));
            let fault = raised.err().and_then(|payload| payload.downcast::<Fault>().ok()).map(|fault| *fault);
            let _ = sender.send(fault);
        });
        receiver.recv_timeout(Duration::from_secs(10)).ok().flatten()
    }

    #[test]
    fn a_reply_that_never_comes_ends_the_case_at_the_deadline() {
        let fault = call_one_that_never_reads(16);
        assert!(matches!(fault, Some(Fault::TimedOut { during_this_case: true, .. })), "{fault:?}");
    }

    #[test]
    fn a_request_the_program_never_reads_ends_the_case_at_the_deadline() {
        // Far more than a socket holds: the write itself would wait for a reader forever.
        let fault = call_one_that_never_reads(16 << 20);
        assert!(matches!(fault, Some(Fault::TimedOut { during_this_case: true, .. })), "{fault:?}");
    }

    #[test]
    fn a_call_over_its_own_limit_ends_that_call_and_not_the_run() {
        let yes = Path::new("/usr/bin/yes");
        assert!(yes.exists(), "this test runs /usr/bin/yes");
        let subject = RemoteSubject::new(yes, &["libkit.so".to_string()], Duration::from_secs(60), Cancel::default());
        subject.limit_calls(Some(Duration::from_millis(200)));
        let raised = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| subject.call(None, &[0; 16])));
        let fault = raised.err().and_then(|payload| payload.downcast::<Fault>().ok()).map(|fault| *fault);
        // The call's limit, not the run's 60 s.
        assert_eq!(fault, Some(Fault::TimedOut { limit_secs: 0.2, during_this_case: true }));
        subject.limit_calls(None);
        let (_, run_timed_out, _) = subject.finish();
        assert!(!run_timed_out, "the run's own time is not up");
    }

    #[test]
    fn only_a_library_tutor_links_that_will_not_load_is_tutors_problem() {
        let kit = &["librmsnorm_kit.so".to_string(), "libgiven_rmsnorm_02_norm.so".to_string()][..];
        let said = |library: &str| {
            format!("/h/deps/ex-1: error while loading shared libraries: {library}: cannot open shared object file\n")
        };
        let ours = loader_failure(Ending::Exited(127), &said("/h/deps/librmsnorm_kit.so"), kit);
        assert_eq!(
            ours.as_deref(),
            Some("error while loading shared libraries: /h/deps/librmsnorm_kit.so: cannot open shared object file")
        );
        assert!(loader_failure(Ending::Exited(127), &said("libstd-d1237ef7159db0a2.so"), kit).is_some());
        assert!(loader_failure(Ending::Exited(127), &said("libgiven_rmsnorm_02_norm.so"), kit).is_some());
        // One the learner's file asked for, an exit other than the loader's, or no such line.
        assert_eq!(loader_failure(Ending::Exited(127), &said("libLLVM.so.22.1"), kit), None);
        assert_eq!(loader_failure(Ending::Exited(1), &said("librmsnorm_kit.so"), kit), None);
        assert_eq!(loader_failure(Ending::Exited(127), "something else\n", kit), None);
    }
}
