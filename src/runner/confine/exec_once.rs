//! The graded program may `execve` once: its own start.
//!
//! Landlock must let the kernel run the program's dynamic loader (it opens the loader for
//! execution), and the loader, run as a program, runs any program it can read (`ld.so
//! /usr/bin/…`); no Landlock right tells "run as an interpreter" from "run as a program", and
//! no plain filter tells the program's own start from a later `execve`. So `execve` goes to a
//! supervisor in tutor (seccomp user notification, Linux 5.8 for the hang-up that ends it): a
//! thread per started program that lets the first call through — the start, made by the forked
//! child in tutor's own code — and answers every later one with EPERM.
//!
//! Letting a call continue is unsafe as a check of its arguments (another thread may change
//! them), and is not used as one: the one call let through comes from the single-threaded
//! child before the program exists; everything after is refused whatever its arguments.

use std::io;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd, RawFd};

/// Whether the kernel has seccomp user notification with continuing calls and the hang-up that
/// tells the supervisor its program is gone (Linux 5.8), for this processor.
pub(super) fn available() -> bool {
    static AVAILABLE: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *AVAILABLE.get_or_init(probe)
}

/// [`available`], asked of the kernel: the action exists, and a listener can be made here (a
/// container whose runtime holds a listener on tutor's own filters leaves none to make: EBUSY).
fn probe() -> bool {
    if AUDIT_ARCH.is_none() || !kernel_at_least(5, 8) {
        return false;
    }
    super::seccomp::action_available(libc::SECCOMP_RET_USER_NOTIF) && listener_can_be_made()
}

/// Tries [`FILTER`] with a listener in a forked child, which then exits: a filter, once
/// installed, cannot be removed, so never in tutor itself. Once per tutor process.
fn listener_can_be_made() -> bool {
    // SAFETY: the child makes raw system calls only (no allocation, no lock: the parent may have
    // other threads) and leaves with _exit(2), running nothing of the parent's.
    let child = unsafe { libc::fork() };
    if child == 0 {
        let (yes, unused) = (1 as libc::c_ulong, 0 as libc::c_ulong);
        // SAFETY: prctl with integer arguments, then the installation `hand_over` makes; in the
        // child only.
        let made =
            unsafe { libc::prctl(libc::PR_SET_NO_NEW_PRIVS, yes, unused, unused, unused) == 0 && install() >= 0 };
        // SAFETY: ends the child at once.
        unsafe { libc::_exit(if made { 0 } else { 1 }) };
    }
    if child < 0 {
        return false;
    }
    let mut status = 0;
    loop {
        // SAFETY: waitpid(2) writes the child's status into a live local.
        let waited = unsafe { libc::waitpid(child, &mut status, 0) };
        if waited == child {
            return libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0;
        }
        if waited < 0 && io::Error::last_os_error().raw_os_error() != Some(libc::EINTR) {
            return false;
        }
    }
}

/// Installs [`FILTER`] on the calling thread with a listener: its descriptor, or -1.
///
/// # Safety
/// Only where a permanent filter on `execve` is meant: a forked child.
unsafe fn install() -> libc::c_long {
    let program = libc::sock_fprog { len: FILTER.len() as u16, filter: FILTER.as_ptr().cast_mut() };
    // SAFETY: seccomp(2) reads `program`, which points at the static filter; the kernel copies it.
    unsafe {
        libc::syscall(
            libc::SYS_seccomp,
            libc::SECCOMP_SET_MODE_FILTER as libc::c_ulong,
            libc::SECCOMP_FILTER_FLAG_NEW_LISTENER,
            &program as *const libc::sock_fprog,
        )
    }
}

/// Whether `uname -r` is `major.minor` or later.
fn kernel_at_least(major: u32, minor: u32) -> bool {
    // SAFETY: uname(2) fills the zeroed struct, which lives on this stack frame.
    let mut name: libc::utsname = unsafe { std::mem::zeroed() };
    // SAFETY: as above.
    if unsafe { libc::uname(&mut name) } != 0 {
        return false;
    }
    let release: String = name.release.iter().take_while(|&&c| c != 0).map(|&c| c as u8 as char).collect();
    let mut numbers = release.split(|c: char| !c.is_ascii_digit()).map(|n| n.parse::<u32>().unwrap_or(0));
    let found = (numbers.next().unwrap_or(0), numbers.next().unwrap_or(0));
    found >= (major, minor)
}

/// This processor's value in `seccomp_data.arch` (linux/audit.h).
const AUDIT_ARCH: Option<u32> = if cfg!(target_arch = "x86_64") {
    Some(0xC000_003E)
} else if cfg!(target_arch = "aarch64") {
    Some(0xC000_00B7)
} else {
    None
};

/// Starts the supervisor of one program and returns the child's end of the socket it waits on:
/// the child sends it the listener ([`hand_over`]). The supervisor ends when the program is gone,
/// or at once when the child never sends (its spawn failed, so the parent's copy of the child's
/// end is dropped with the command).
pub(super) fn supervise() -> io::Result<OwnedFd> {
    let mut ends = [0 as RawFd; 2];
    // SAFETY: socketpair(2) writes two descriptors into `ends`, a live local.
    let made =
        unsafe { libc::socketpair(libc::AF_UNIX, libc::SOCK_SEQPACKET | libc::SOCK_CLOEXEC, 0, ends.as_mut_ptr()) };
    if made != 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: both descriptors were just created and are owned by nobody else.
    let (ours, theirs) = unsafe { (OwnedFd::from_raw_fd(ends[0]), OwnedFd::from_raw_fd(ends[1])) };
    std::thread::Builder::new().name("tutor-exec-once".into()).spawn(move || serve(ours))?;
    Ok(theirs)
}

/// The supervisor: receives the listener, lets the first `execve` continue, refuses the rest.
fn serve(socket: OwnedFd) {
    let Some(listener) = receive_descriptor(&socket) else { return };
    drop(socket);
    let mut started = false;
    loop {
        let mut wait = libc::pollfd { fd: listener.as_raw_fd(), events: libc::POLLIN, revents: 0 };
        // SAFETY: poll(2) reads and writes the one `pollfd` it is given, a live local.
        if unsafe { libc::poll(&mut wait, 1, -1) } < 0 {
            match io::Error::last_os_error().raw_os_error() {
                Some(libc::EINTR) => continue,
                _ => return,
            }
        }
        // A hang-up: every task of the program is gone.
        if wait.revents & libc::POLLIN == 0 {
            return;
        }
        // SAFETY: an all-zero `seccomp_notif` is valid (integers only), as the ioctl requires.
        let mut call: libc::seccomp_notif = unsafe { std::mem::zeroed() };
        // SAFETY: SECCOMP_IOCTL_NOTIF_RECV writes one `seccomp_notif` into `call`, a live local.
        if unsafe { libc::ioctl(listener.as_raw_fd(), libc::SECCOMP_IOCTL_NOTIF_RECV, &mut call) } != 0 {
            // The caller died before its call was read (ENOENT), or a signal came: wait again.
            continue;
        }
        let response = match started {
            false => libc::seccomp_notif_resp {
                id: call.id,
                val: 0,
                error: 0,
                flags: libc::SECCOMP_USER_NOTIF_FLAG_CONTINUE as u32,
            },
            true => libc::seccomp_notif_resp { id: call.id, val: 0, error: -libc::EPERM, flags: 0 },
        };
        started = true;
        // SAFETY: SECCOMP_IOCTL_NOTIF_SEND reads one `seccomp_notif_resp`, a live local. It fails
        // only when the caller is gone, which needs no answer.
        unsafe { libc::ioctl(listener.as_raw_fd(), libc::SECCOMP_IOCTL_NOTIF_SEND, &response) };
    }
}

/// Reads one descriptor sent with SCM_RIGHTS; `None` when the other end closed without one.
fn receive_descriptor(socket: &OwnedFd) -> Option<OwnedFd> {
    let mut byte = [0u8; 1];
    let mut data = libc::iovec { iov_base: byte.as_mut_ptr().cast(), iov_len: 1 };
    let mut control = ControlBuffer([0; CONTROL_LEN]);
    let mut message = message(&mut data, &mut control, CONTROL_LEN);
    loop {
        // SAFETY: recvmsg(2) writes into `byte` and `control` through `message`, all live locals
        // of the lengths given.
        let received = unsafe { libc::recvmsg(socket.as_raw_fd(), &mut message, libc::MSG_CMSG_CLOEXEC) };
        match received {
            n if n > 0 => break,
            n if n < 0 && io::Error::last_os_error().raw_os_error() == Some(libc::EINTR) => continue,
            _ => return None,
        }
    }
    // SAFETY: CMSG_FIRSTHDR reads `message`, whose control buffer recvmsg filled.
    let header = unsafe { libc::CMSG_FIRSTHDR(&message) };
    // SAFETY: `header`, when not null, points into `control`, at a header the kernel wrote.
    if header.is_null()
        || unsafe { ((*header).cmsg_level, (*header).cmsg_type) } != (libc::SOL_SOCKET, libc::SCM_RIGHTS)
    {
        return None;
    }
    // SAFETY: an SCM_RIGHTS message carries at least one descriptor after its header, possibly
    // unaligned; the kernel installed it in this process for us alone.
    let fd = unsafe { std::ptr::read_unaligned(libc::CMSG_DATA(header).cast::<RawFd>()) };
    // SAFETY: as above: a descriptor nobody else owns.
    Some(unsafe { OwnedFd::from_raw_fd(fd) })
}

/// A message of the one byte `data` points at, with `control_len` bytes of `control` for the
/// descriptor; both must outlive its use. No allocation: the child builds one too.
fn message(data: &mut libc::iovec, control: &mut ControlBuffer, control_len: usize) -> libc::msghdr {
    // SAFETY: an all-zero `msghdr` is valid (null pointers, zero lengths); the fields used are
    // set below.
    let mut message: libc::msghdr = unsafe { std::mem::zeroed() };
    message.msg_iov = data;
    message.msg_iovlen = 1;
    message.msg_control = control.0.as_mut_ptr().cast();
    message.msg_controllen = control_len.min(CONTROL_LEN) as _;
    message
}

/// Room for one SCM_RIGHTS message of one descriptor (`CMSG_SPACE(sizeof(int))`, 24 bytes on
/// 64-bit Linux), rounded up, aligned as a `cmsghdr`.
const CONTROL_LEN: usize = 32;
#[repr(C, align(8))]
struct ControlBuffer([u8; CONTROL_LEN]);

/// The filter: `execve` of this processor's calls goes to the supervisor, all else passes.
const FILTER: [libc::sock_filter; 6] = {
    // From linux/bpf_common.h and linux/seccomp.h; offsets in struct seccomp_data.
    const LD_W_ABS: u16 = 0x20;
    const JEQ_K: u16 = 0x15;
    const RET_K: u16 = 0x06;
    const NR: u32 = 0;
    const ARCH: u32 = 4;
    let arch = match AUDIT_ARCH {
        Some(arch) => arch,
        None => 0,
    };
    [
        libc::sock_filter { code: LD_W_ABS, jt: 0, jf: 0, k: ARCH },
        libc::sock_filter { code: JEQ_K, jt: 0, jf: 3, k: arch },
        libc::sock_filter { code: LD_W_ABS, jt: 0, jf: 0, k: NR },
        libc::sock_filter { code: JEQ_K, jt: 0, jf: 1, k: libc::SYS_execve as u32 },
        libc::sock_filter { code: RET_K, jt: 0, jf: 0, k: libc::SECCOMP_RET_USER_NOTIF },
        libc::sock_filter { code: RET_K, jt: 0, jf: 0, k: libc::SECCOMP_RET_ALLOW },
    ]
};

/// In the child, between fork and exec, after the other filters: installs [`FILTER`] with a
/// listener and sends the listener to the supervisor through `socket`. Raw system calls only;
/// the buffers live on this stack frame.
pub(super) fn hand_over(socket: RawFd) -> io::Result<()> {
    // SAFETY: `hand_over` runs in the forked child, for which the filter is meant.
    let listener = unsafe { install() };
    if listener < 0 {
        return Err(io::Error::last_os_error());
    }
    let listener = listener as RawFd;
    let mut byte = [0u8; 1];
    let mut data = libc::iovec { iov_base: byte.as_mut_ptr().cast(), iov_len: 1 };
    let mut control = ControlBuffer([0; CONTROL_LEN]);
    // SAFETY: CMSG_SPACE computes a size only.
    let room = unsafe { libc::CMSG_SPACE(std::mem::size_of::<RawFd>() as u32) } as usize;
    let message = message(&mut data, &mut control, room);
    // SAFETY: CMSG_FIRSTHDR points into `control`, which has room for one header and one
    // descriptor (CONTROL_LEN ≥ CMSG_SPACE(4)); the writes stay inside it.
    let sent = unsafe {
        let header = libc::CMSG_FIRSTHDR(&message);
        (*header).cmsg_level = libc::SOL_SOCKET;
        (*header).cmsg_type = libc::SCM_RIGHTS;
        (*header).cmsg_len = libc::CMSG_LEN(std::mem::size_of::<RawFd>() as u32) as _;
        std::ptr::write_unaligned(libc::CMSG_DATA(header).cast::<RawFd>(), listener);
        libc::sendmsg(socket, &message, 0)
    };
    let error = io::Error::last_os_error();
    // SAFETY: closes the listener opened above (the supervisor has its own copy), and nothing
    // else.
    unsafe { libc::close(listener) };
    match sent {
        1 => Ok(()),
        _ => Err(error),
    }
}
