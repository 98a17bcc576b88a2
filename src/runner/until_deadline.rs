//! A socket whose every read and write gives up at a deadline: what tutor talks to a graded
//! program through. A timeout set once per request would not do: a program that sends its reply,
//! or takes its request, a few bytes at a time restarts the wait with every few bytes.

use std::io::{Read, Write};
use std::os::unix::net::UnixStream;
use std::time::{Duration, Instant};

use tutor_subject::patient::{poll_until, POLL_FOR};

/// One end of the socket, each of whose reads and writes gives up at `until`: a program that
/// sends or takes its bytes a few at a time cannot stretch a call past it.
pub struct UntilDeadline {
    /// The socket.
    pub socket: UnixStream,
    /// When its reads and writes give up.
    pub until: Instant,
}

impl UntilDeadline {
    /// What is waiting, or arrives within [`POLL_FOR`] (and before the deadline); `None` if
    /// nothing does. A process asleep on a socket is woken from another CPU, tens of
    /// microseconds a call (more in a virtual machine), over the few hundred calls of a check;
    /// most replies come sooner than that.
    fn poll(&self, buf: &mut [u8]) -> std::io::Result<Option<usize>> {
        use std::os::fd::AsRawFd;
        let until = self.until.min(Instant::now() + POLL_FOR);
        poll_until(until, || {
            // SAFETY: `buf` is valid for writes of `buf.len()` bytes for the whole call, and the
            // descriptor is this value's open socket. MSG_DONTWAIT makes this one call
            // non-blocking without touching the socket's own mode.
            let read =
                unsafe { libc::recv(self.socket.as_raw_fd(), buf.as_mut_ptr().cast(), buf.len(), libc::MSG_DONTWAIT) };
            usize::try_from(read).map_err(|_| std::io::Error::last_os_error())
        })
    }
}

impl Read for UntilDeadline {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        if let Some(n) = self.poll(buf)? {
            return Ok(n);
        }
        self.socket.set_read_timeout(Some(time_left(self.until)?))?;
        self.socket.read(buf)
    }
}

impl Write for UntilDeadline {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        // A few kilobytes at a time: the kernel restarts a send's timeout each time the reader
        // makes room, so one large write could wait once per room made.
        const AT_ONCE: usize = 16 << 10;
        self.socket.set_write_timeout(Some(time_left(self.until)?))?;
        self.socket.write(&buf[..buf.len().min(AT_ONCE)])
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.socket.flush()
    }
}

/// The time from now to `deadline`, or a timeout error once it has passed (a socket takes no
/// zero timeout).
fn time_left(deadline: Instant) -> std::io::Result<Duration> {
    let left = deadline.saturating_duration_since(Instant::now());
    if left.is_zero() {
        return Err(std::io::ErrorKind::TimedOut.into());
    }
    Ok(left)
}

/// Whether a socket operation failed because its timeout ran out.
pub fn is_timeout(error: &std::io::Error) -> bool {
    matches!(error.kind(), std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::BufReader;
    use tutor_subject::frame::{read_frame, write_frame};

    #[test]
    fn a_request_read_a_little_at_a_time_cannot_outlast_the_deadline() {
        let (ours, theirs) = UnixStream::pair().unwrap();
        let slow_reader = std::thread::spawn(move || {
            let mut theirs = theirs;
            let mut buffer = vec![0; 64 << 10];
            // 640 kB a second: 16 MB would take 25 s.
            for _ in 0..100 {
                std::thread::sleep(Duration::from_millis(100));
                if matches!(theirs.read(&mut buffer), Ok(0) | Err(_)) {
                    return;
                }
            }
        });
        let start = Instant::now();
        let mut requests = UntilDeadline { socket: ours, until: start + Duration::from_millis(300) };
        let written = write_frame(&mut requests, &vec![0; 16 << 20]);
        assert!(written.as_ref().is_err_and(is_timeout), "{written:?}");
        assert!(start.elapsed() < Duration::from_secs(2), "the write ended after {:?}", start.elapsed());
        drop(requests);
        slow_reader.join().unwrap();
    }

    #[test]
    fn a_reply_is_read_whether_it_comes_during_the_poll_or_long_after() {
        let (ours, theirs) = UnixStream::pair().unwrap();
        let program = std::thread::spawn(move || {
            let mut theirs = theirs;
            theirs.write_all(b"soon").unwrap();
            std::thread::sleep(POLL_FOR * 40);
            theirs.write_all(b"late").unwrap();
        });
        let mut replies = UntilDeadline { socket: ours, until: Instant::now() + Duration::from_secs(30) };
        let mut read = Vec::new();
        while read.len() < 8 {
            let mut buf = [0u8; 8];
            let n = replies.read(&mut buf).unwrap();
            assert_ne!(n, 0, "the socket ended early: {read:?}");
            read.extend_from_slice(&buf[..n]);
        }
        assert_eq!(read, b"soonlate");
        program.join().unwrap();
    }

    #[test]
    fn a_reply_sent_a_byte_at_a_time_cannot_outlast_the_deadline() {
        let (ours, theirs) = UnixStream::pair().unwrap();
        let trickle = std::thread::spawn(move || {
            let mut theirs = theirs;
            // A frame of 100 bytes, announced, then sent a byte every 50 ms (5 s in all).
            let _ = theirs.write_all(&100u32.to_le_bytes());
            for _ in 0..100 {
                std::thread::sleep(Duration::from_millis(50));
                if theirs.write_all(&[0]).is_err() {
                    return;
                }
            }
        });
        let start = Instant::now();
        let mut replies = BufReader::new(UntilDeadline { socket: ours, until: start + Duration::from_millis(300) });
        let read = read_frame(&mut replies);
        assert!(read.as_ref().is_err_and(is_timeout), "{read:?}");
        assert!(start.elapsed() < Duration::from_secs(2), "the read ended after {:?}", start.elapsed());
        drop(replies);
        trickle.join().unwrap();
    }
}
