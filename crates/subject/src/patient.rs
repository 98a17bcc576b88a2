//! Reading the next request without going to sleep on it at once. tutor usually sends the next
//! request within microseconds of the last reply; a program asleep on the socket by then is woken
//! from another CPU, which costs tens of microseconds a call (more in a virtual machine), over the
//! few hundred calls of a check. So a read first polls the socket for a moment, giving the CPU
//! to anything else that is waiting for it between polls, and only then blocks.

use std::io::{self, Read};
use std::os::unix::net::UnixStream;
use std::time::{Duration, Instant};

/// How long a read polls before it blocks: longer than tutor takes between most calls.
pub const POLL_FOR: Duration = Duration::from_micros(250);

/// A socket whose reads poll for [`POLL_FOR`] before they block.
pub struct Patient {
    stream: UnixStream,
}

impl Patient {
    /// Reads from `stream` (left blocking between reads).
    pub fn new(stream: UnixStream) -> Patient {
        Patient { stream }
    }

    /// What is already waiting, or arrives within [`POLL_FOR`]; `None` if nothing does (or the
    /// socket cannot be switched to non-blocking, when the caller just blocks).
    fn poll(&mut self, buf: &mut [u8]) -> io::Result<Option<usize>> {
        if self.stream.set_nonblocking(true).is_err() {
            return Ok(None);
        }
        let read = poll_until(Instant::now() + POLL_FOR, || self.stream.read(buf));
        self.stream.set_nonblocking(false)?;
        read
    }
}

/// Tries `read` (a read that does not block) until it reads or fails, or `until` passes
/// (`None`), giving the CPU to anything else waiting for it between tries. Both ends of tutor's
/// socket read this way: tutor's own (`runner::until_deadline`) and the graded program's.
pub fn poll_until(until: Instant, mut read: impl FnMut() -> io::Result<usize>) -> io::Result<Option<usize>> {
    loop {
        match read() {
            Ok(n) => return Ok(Some(n)),
            Err(e) if matches!(e.kind(), io::ErrorKind::WouldBlock | io::ErrorKind::Interrupted) => {}
            Err(e) => return Err(e),
        }
        if Instant::now() >= until {
            return Ok(None);
        }
        std::thread::yield_now();
    }
}

impl Read for Patient {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        match self.poll(buf)? {
            Some(n) => Ok(n),
            None => self.stream.read(buf),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    #[test]
    fn bytes_already_waiting_are_read_at_once() {
        let (mut tutor, program) = UnixStream::pair().unwrap();
        tutor.write_all(b"request").unwrap();
        let mut patient = Patient::new(program);
        let mut buf = [0u8; 16];
        assert_eq!(patient.read(&mut buf).unwrap(), 7);
        assert_eq!(&buf[..7], b"request");
    }

    #[test]
    fn bytes_that_come_after_the_poll_are_still_read_and_the_socket_blocks_again() {
        let (mut tutor, program) = UnixStream::pair().unwrap();
        let writer = std::thread::spawn(move || {
            std::thread::sleep(POLL_FOR * 40);
            tutor.write_all(b"late").unwrap();
            tutor
        });
        let mut patient = Patient::new(program);
        let mut buf = [0u8; 16];
        assert_eq!(patient.read(&mut buf).unwrap(), 4);
        assert_eq!(&buf[..4], b"late");
        drop(writer.join().unwrap());
        assert_eq!(patient.read(&mut buf).unwrap(), 0);
    }

    #[test]
    fn the_end_of_the_stream_is_an_end_not_an_error() {
        let (tutor, program) = UnixStream::pair().unwrap();
        drop(tutor);
        let mut patient = Patient::new(program);
        assert_eq!(patient.read(&mut [0u8; 4]).unwrap(), 0);
    }
}
