//! The graded program's request loop, below every course: take the protocol descriptors, read a
//! request frame, let the course's kit answer it, write the reply frame, until the requests end.
//!
//! The course's kit decodes the request, calls the learner's code and encodes what it returned.
//! Every reply travels in an [`Envelope`]: the kit's answer, or a panic of the learner's code
//! (caught here, so the loop goes on), or a request the kit refused. An abort, a stack overflow
//! or an `exit` ends the process; tutor notices and starts a fresh one. Nothing here decides a
//! verdict.

use std::io::{BufReader, BufWriter};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::process::ExitCode;
use std::sync::atomic::{AtomicU32, Ordering};

use crate::frame::{read_frame, write_frame, Reader, WireError, Writer};
use crate::panics;
use crate::protocol::{protocol_files, USAGE, USAGE_EXIT};
use crate::text::KIT_ANSWER_MARKER;

/// The TODO the running graded program grades (0: none, as in tutor's own process). Set once,
/// before any learner code runs; it never changes afterwards.
static TODO_UNDER_TEST: AtomicU32 = AtomicU32::new(0);

/// The TODO this graded program grades (0 outside a graded program): a kit's given piece that
/// answers it refuses to run (see [`crate::text::KIT_ANSWER_MARKER`]).
pub fn todo_under_test() -> u32 {
    TODO_UNDER_TEST.load(Ordering::SeqCst)
}

/// Sets `cell` to `value` if it was never set; a zero `value` sets nothing.
fn set_once(cell: &AtomicU32, value: u32) -> bool {
    value != 0 && cell.compare_exchange(0, value, Ordering::SeqCst, Ordering::SeqCst).is_ok()
}

/// What the graded program sent back for one request.
#[derive(Debug, Clone, PartialEq)]
pub enum Envelope {
    /// The course's reply (its own encoding): what the learner's code returned.
    Answered(Vec<u8>),
    /// The learner's code panicked (a `todo!` included); the program carries on.
    Panicked { message: String, location: Option<String> },
    /// The request made no sense to the kit (a layer that does not exist …).
    Refused(String),
}

impl Envelope {
    /// The envelope as frame bytes.
    pub fn encode(&self) -> Vec<u8> {
        let mut w = Writer::default();
        match self {
            Envelope::Answered(payload) => {
                w.u8(0);
                w.0.extend_from_slice(payload);
            }
            Envelope::Panicked { message, location } => {
                w.u8(1);
                w.text(message);
                w.text(location.as_deref().unwrap_or(""));
            }
            Envelope::Refused(why) => {
                w.u8(2);
                w.text(why);
            }
        }
        w.0
    }

    /// Reads an envelope from frame bytes.
    pub fn decode(bytes: &[u8]) -> Result<Envelope, WireError> {
        let mut r = Reader(bytes);
        let envelope = match r.u8()? {
            0 => return Ok(Envelope::Answered(r.0.to_vec())),
            1 => {
                let message = r.text()?;
                let location = r.text()?;
                Envelope::Panicked { message, location: (!location.is_empty()).then_some(location) }
            }
            2 => Envelope::Refused(r.text()?),
            tag => return Err(WireError(format!("unknown envelope {tag}"))),
        };
        r.end()?;
        Ok(envelope)
    }
}

/// A graded program's answers: a request frame in, the reply out (what the learner's code
/// returned, encoded), or why the request makes no sense. A course's declared protocol writes it
/// (see [`course_protocol!`](crate::course_protocol)); tutor reaches it over the socket in a
/// graded program, and tests reach the very same code through an in-process channel.
pub trait Server {
    /// Answers one request.
    fn answer(&mut self, request: &[u8]) -> Result<Vec<u8>, WireError>;
}

/// Answers one request as an [`Envelope`]: the server's reply, its refusal, or the panic of the
/// learner's code it ran (caught here, so the caller carries on).
pub fn respond(server: &mut dyn Server, request: &[u8]) -> Envelope {
    panics::take_location();
    match catch_unwind(AssertUnwindSafe(|| server.answer(request))) {
        Ok(Ok(reply)) => Envelope::Answered(reply),
        Ok(Err(why)) => Envelope::Refused(why.to_string()),
        Err(payload) => Envelope::Panicked {
            message: shortened(panics::message(payload.as_ref())),
            location: panics::take_location(),
        },
    }
}

/// Answers tutor's requests with `server` until they end. `todo` is the TODO this program grades,
/// set once: the graded program's `main` calls this first, and a second call can only come from
/// learner code trying to take the loop over (or to reset the refusals), so it ends the program
/// instead.
pub fn serve(todo: u32, mut server: impl Server) -> ExitCode {
    // The loop itself is not generic: compiled once here, not in every graded program.
    serve_dyn(todo, &mut server)
}

fn serve_dyn(todo: u32, server: &mut dyn Server) -> ExitCode {
    if !set_once(&TODO_UNDER_TEST, todo) {
        std::process::abort();
    }
    let Some((input, output)) = protocol_files() else {
        eprintln!("{USAGE}");
        return ExitCode::from(USAGE_EXIT);
    };
    // Remembers where a panic happened instead of printing it: the reply carries it.
    panics::install_quiet_hook();
    #[cfg(unix)]
    let input = crate::patient::Patient::new(std::os::unix::net::UnixStream::from(std::os::fd::OwnedFd::from(input)));
    let mut input = BufReader::new(input);
    let mut output = BufWriter::new(output);
    loop {
        let request = match read_frame(&mut input) {
            Ok(Some(bytes)) => bytes,
            Ok(None) | Err(_) => return ExitCode::SUCCESS,
        };
        let envelope = respond(server, &request);
        if write_frame(&mut output, &envelope.encode()).is_err() {
            return ExitCode::SUCCESS;
        }
    }
}

/// The TODO graded by the call being answered now (0 between calls, and for calls that grade
/// none): with [`todo_under_test`], what [`refuse_if_answer`] decides by.
static SERVING: AtomicU32 = AtomicU32::new(0);

/// Marks the call being answered as grading a TODO, until dropped (a panic included).
#[must_use = "the mark lasts as long as the guard"]
pub struct Serving(());

impl Serving {
    /// Marks the call being answered as grading `todo` (0: none).
    pub fn start(todo: u32) -> Serving {
        SERVING.store(todo, Ordering::SeqCst);
        Serving(())
    }
}

impl Drop for Serving {
    fn drop(&mut self) {
        SERVING.store(0, Ordering::SeqCst);
    }
}

/// Refuses to run a kit's given piece `function` when it is the answer to the TODO under test
/// (`always`), or when it could compute that answer and the call grading that TODO is being
/// answered now (`while_graded`: the weight gradient of `backward` is the normalised row, say).
/// Its panic starts with [`KIT_ANSWER_MARKER`], and the grader says what it means. Outside a
/// graded program (tutor's own process, tests) nothing is refused.
pub fn refuse_if_answer(function: &str, always: &[u32], while_graded: &[u32]) {
    let todo = todo_under_test();
    let graded_now = SERVING.load(Ordering::SeqCst) == todo;
    if let Some(refusal) = refusal(todo, function, always, if graded_now { while_graded } else { &[] }) {
        panic!("{refusal}");
    }
}

/// The panic message when `function` runs while `todo` is graded, or `None`.
fn refusal(todo: u32, function: &str, always: &[u32], now: &[u32]) -> Option<String> {
    (todo != 0 && (always.contains(&todo) || now.contains(&todo)))
        .then(|| format!("{KIT_ANSWER_MARKER} {function} (TODO {todo})"))
}

/// The most of a panic message a reply carries: more than a learner reads in a failed case
/// (an `assert_eq!` of two long arrays says far more), far less than a frame may hold (an 80 MB
/// message made the reply unreadable, and the panic looked like tampering with tutor's socket).
const LONGEST_MESSAGE: usize = 4 << 10;

/// `message`, cut to [`LONGEST_MESSAGE`] bytes (at a character boundary) with a note of what was
/// left out.
fn shortened(mut message: String) -> String {
    if message.len() <= LONGEST_MESSAGE {
        return message;
    }
    let mut end = LONGEST_MESSAGE;
    while !message.is_char_boundary(end) {
        end -= 1;
    }
    let left_out = message.len() - end;
    message.truncate(end);
    // Shown inside either language's line: it says itself in both.
    message.push_str(&format!(" … [{left_out} more bytes · 另有 {left_out} 字节]"));
    message
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_panic_message_is_cut_at_a_character_boundary() {
        assert_eq!(shortened("short".into()), "short");
        let long = "é".repeat(LONGEST_MESSAGE);
        let cut = shortened(long.clone());
        assert!(cut.len() < LONGEST_MESSAGE + 60, "{}", cut.len());
        assert!(long.starts_with(cut.split(" … [").next().unwrap()));
        let left_out = long.len() - LONGEST_MESSAGE;
        assert!(cut.ends_with(&format!(" … [{left_out} more bytes · 另有 {left_out} 字节]")), "{cut}");
    }

    #[test]
    fn every_envelope_round_trips_and_garbage_is_an_error() {
        for envelope in [
            Envelope::Answered(vec![1, 2, 3]),
            Envelope::Answered(Vec::new()),
            Envelope::Panicked { message: "boom 💥".into(), location: Some("exercises/c/02-x.rs:3:5".into()) },
            Envelope::Panicked { message: "no location".into(), location: None },
            Envelope::Refused("no layer 9".into()),
        ] {
            assert_eq!(Envelope::decode(&envelope.encode()), Ok(envelope));
        }
        assert!(Envelope::decode(&[]).is_err());
        assert!(Envelope::decode(&[9]).is_err());
        assert!(Envelope::decode(&[2, 200, 0, 0, 0, 0, 0, 0, 0]).is_err(), "text cut short");
    }

    #[test]
    fn a_given_piece_refuses_only_the_todo_it_answers() {
        let refused = refusal(2, "reference::rms_normalize", &[2], &[]).unwrap();
        assert!(refused.starts_with(KIT_ANSWER_MARKER) && refused.contains("reference::rms_normalize"), "{refused}");
        assert_eq!(refusal(3, "f", &[2], &[]), None, "a given piece of another TODO runs");
        assert_eq!(refusal(0, "f", &[2], &[2]), None, "tutor's own process is never refused");
        assert!(refusal(2, "f", &[2, 3], &[]).is_some());
        assert_eq!(refusal(2, "f", &[4], &[]), None);
        assert!(refusal(2, "f", &[4], &[2, 3]).is_some(), "refused while the call grading TODO 2 runs");
    }

    #[test]
    fn the_serving_mark_lasts_as_long_as_its_guard() {
        {
            let _mark = Serving::start(3);
            assert_eq!(SERVING.load(Ordering::SeqCst), 3);
        }
        assert_eq!(SERVING.load(Ordering::SeqCst), 0);
    }

    #[test]
    fn the_todo_under_test_is_set_once_and_never_lowered() {
        let cell = AtomicU32::new(0);
        assert!(set_once(&cell, 2));
        assert!(!set_once(&cell, 0), "learner code cannot switch the refusals off");
        assert!(!set_once(&cell, 3));
        assert_eq!(cell.load(Ordering::SeqCst), 2);
    }
}
