//! How a graded program reaches the grader, and how its failures reach a case.

use tutor_subject::serve::Envelope;
use tutor_subject::wire::decode_all;

/// The graded program, seen from the grader: requests go in as frames, replies come back.
/// tutor's runner implements it with a confined program in another process; a course's
/// in-process tests need no channel at all.
pub trait Channel {
    /// Sends one request frame and returns the reply frame, with the generation (a count of
    /// programs started) of the program that answered. `owner` is the generation whose state the
    /// request refers to (a layer it built, say): if that program is gone, the call raises
    /// [`Fault::Ended`] instead. Every other failure is raised as a [`Fault`] too.
    fn call(&self, owner: Option<u64>, request: &[u8]) -> (Vec<u8>, u64);

    /// Sends a request whose answer is only `()` (a setter, say) without waiting for its reply,
    /// which saves a round trip to another process: the reply is read, and a failure it carries
    /// raised, by the next [`call`](Channel::call) or [`settle`](Channel::settle). By default, a
    /// call.
    fn defer(&self, owner: Option<u64>, request: &[u8]) {
        let (reply, _) = self.call(owner, request);
        settle_deferred(self, &reply);
    }

    /// Reads the replies of deferred requests not read yet, raising the first failure one
    /// carries. The case runner settles at the end of every case, so that a failure is its own
    /// case's.
    fn settle(&self) {}

    /// From now on, until called again with `None`, each call must be answered within `limit`
    /// (besides the run's own time limit): one that is not ends the program (the next call starts
    /// a fresh one) and raises [`Fault::TimedOut`] with `limit`. For a case whose point is what a
    /// call costs. Channels that cannot stop a call ignore it.
    fn limit_calls(&self, _limit: Option<std::time::Duration>) {}

    /// Ends the running program because its last reply made no sense (the learner's code wrote
    /// into the channel, say): the next call starts a fresh one.
    fn discard(&self);
}

/// Sends `request` over `channel` (about state of program `owner`, if any) and opens the reply:
/// the course's answer, read with its `decode`; a panic of the learner's code, raised as
/// [`Fault::Panicked`]; a refused request, raised as [`Fault::Unreadable`]. A reply that does not
/// decode ends the program, whose replies can no longer be trusted, and raises
/// [`Fault::Unreadable`]; the next call starts a fresh one.
pub fn call_decoded<T, E: std::fmt::Display>(
    channel: &dyn Channel,
    owner: Option<u64>,
    request: &[u8],
    decode: impl FnOnce(&[u8]) -> Result<T, E>,
) -> (T, u64) {
    call_described(channel, owner, request, decode, None)
}

/// [`call_decoded`], where a panic of the learner's code says which call it was in: `describe`
/// writes the call with its arguments' shapes (see [`crate::shown`]), only when it panicked.
pub fn call_described<T, E: std::fmt::Display>(
    channel: &dyn Channel,
    owner: Option<u64>,
    request: &[u8],
    decode: impl FnOnce(&[u8]) -> Result<T, E>,
    describe: Option<&dyn Fn() -> String>,
) -> (T, u64) {
    let (bytes, generation) = channel.call(owner, request);
    (open_reply(channel, &bytes, decode, describe), generation)
}

/// Opens the reply to a deferred request ([`Channel::defer`]), raising what [`call_decoded`]
/// would.
pub fn settle_deferred<C: Channel + ?Sized>(channel: &C, reply: &[u8]) {
    open_reply(channel, reply, decode_all::<()>, None);
}

/// The course's answer in `bytes`, read with `decode`, or the fault they carry; see
/// [`call_decoded`].
fn open_reply<C: Channel + ?Sized, T, E: std::fmt::Display>(
    channel: &C,
    bytes: &[u8],
    decode: impl FnOnce(&[u8]) -> Result<T, E>,
    describe: Option<&dyn Fn() -> String>,
) -> T {
    let unreadable = |why: String| -> ! {
        channel.discard();
        Fault::Unreadable(why).raise()
    };
    match Envelope::decode(bytes) {
        Ok(Envelope::Answered(payload)) => match decode(&payload) {
            Ok(reply) => reply,
            Err(e) => unreadable(e.to_string()),
        },
        Ok(Envelope::Panicked { message, location }) => {
            Fault::Panicked { message, location, call: describe.map(|describe| describe()) }.raise()
        }
        Ok(Envelope::Refused(why)) => Fault::Unreadable(why).raise(),
        Err(e) => unreadable(e.to_string()),
    }
}

/// How a graded program failed a call, beyond returning `Err`. A subject raises it with
/// [`Fault::raise`] from inside a call, and the case running at the time fails with it.
#[derive(Debug, Clone, PartialEq)]
pub enum Fault {
    /// The learner's code panicked (the graded program itself carries on), in `call` (the call
    /// with its arguments' shapes, when the caller described it).
    Panicked { message: String, location: Option<String>, call: Option<String> },
    /// The graded program ended during the call: `exit`, abort, a stack overflow, memory …
    Ended(Ending),
    /// The time limit ran out; `during_this_case` is false for the cases left after it.
    TimedOut { limit_secs: f64, during_this_case: bool },
    /// The graded program answered something that is not a reply (it wrote into tutor's pipe).
    Unreadable(String),
}

/// How a graded program ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ending {
    /// It exited with this code.
    Exited(i32),
    /// A signal ended it.
    Signalled(i32),
}

impl Fault {
    /// Unwinds out of the learner's call to the case runner, without running the panic hook
    /// (this is not a bug in tutor, and must not be reported as one).
    pub fn raise(self) -> ! {
        std::panic::resume_unwind(Box::new(self))
    }
}
