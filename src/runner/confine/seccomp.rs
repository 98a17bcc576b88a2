//! Seccomp filters for the subject, compiled with seccompiler in the parent.
//!
//! The policy is an allow list ([`allowed`]), modelled on Docker's default profile and trimmed
//! for a single-process compute program: a kernel interface added after this list was written is
//! refused until someone lists it. A seccompiler filter has one action for every match, so the
//! refusals that answer with another error number than the allow list's EPERM (opening for
//! writing and sockets: EACCES; calls that must look absent: ENOSYS) are filters of their own;
//! the kernel runs them all and the refusal wins.

use std::collections::BTreeMap;
use std::io;
use std::sync::OnceLock;

use seccompiler::{
    BackendError, BpfProgram, SeccompAction, SeccompCmpArgLen, SeccompCmpOp, SeccompCondition, SeccompFilter,
    SeccompRule, TargetArch,
};

/// A compiled filter, ready to be installed between fork and exec.
pub(super) struct Program {
    code: Vec<libc::sock_filter>,
    /// `code.len()`, checked in the parent to fit the kernel's `u16`.
    len: u16,
}

impl Program {
    fn new(code: Vec<libc::sock_filter>) -> Result<Program, seccompiler::Error> {
        let too_large = || seccompiler::Error::Backend(BackendError::FilterTooLarge(code.len()));
        let len = u16::try_from(code.len()).map_err(|_| too_large())?;
        match len {
            0 => Err(seccompiler::Error::EmptyFilter),
            len => Ok(Program { code, len }),
        }
    }

    /// Installs the filter on the calling thread. Meant for the forked child: it neither
    /// allocates nor takes locks. No-new-privileges must already be set.
    pub(super) fn install(&self) -> io::Result<()> {
        let program = libc::sock_fprog { len: self.len, filter: self.code.as_ptr().cast_mut() };
        // SAFETY: `program` points at `self.code`, `len` instructions long, alive for the call;
        // the kernel only copies it. The arguments are widened to the `unsigned long` that
        // prctl(2) reads.
        let result = unsafe {
            libc::prctl(
                libc::PR_SET_SECCOMP,
                libc::SECCOMP_MODE_FILTER as libc::c_ulong,
                &program as *const libc::sock_fprog,
            )
        };
        match result {
            0 => Ok(()),
            _ => Err(io::Error::last_os_error()),
        }
    }
}

/// The processor this build runs on, if seccompiler has filters for it.
fn arch() -> Option<TargetArch> {
    TargetArch::try_from(std::env::consts::ARCH).ok()
}

/// Whether the kernel takes seccomp filters that return an error number, and seccompiler can
/// build them for this processor.
pub(super) fn available() -> bool {
    arch().is_some() && action_available(libc::SECCOMP_RET_ERRNO)
}

/// Whether the kernel knows the filter action `action` (`SECCOMP_RET_…`).
pub(super) fn action_available(action: u32) -> bool {
    // SAFETY: SECCOMP_GET_ACTION_AVAIL (Linux 4.14) reads one u32 through the pointer, which
    // points at a live local; it changes nothing.
    let result = unsafe {
        libc::syscall(
            libc::SYS_seccomp,
            libc::SECCOMP_GET_ACTION_AVAIL as libc::c_ulong,
            0 as libc::c_ulong,
            &action as *const u32,
        )
    };
    result == 0
}

/// The filters, in the order they are to be installed, compiled once per tutor process (every
/// start of a graded program installs the same ones).
pub(super) fn programs() -> Result<&'static [Program], String> {
    static PROGRAMS: OnceLock<Result<Vec<Program>, String>> = OnceLock::new();
    PROGRAMS.get_or_init(|| compile().map_err(|e| e.to_string())).as_deref().map_err(Clone::clone)
}

/// The allow list first, then the refusals that answer with another error number: the kernel
/// runs every filter, the most restrictive action wins, and among refusals the filter installed
/// last gives the error number (so a socket gets EACCES, not the allow list's EPERM).
fn compile() -> Result<Vec<Program>, seccompiler::Error> {
    let unknown = || BackendError::InvalidTargetArch(std::env::consts::ARCH.to_string());
    let arch = arch().ok_or_else(unknown)?;
    let mut programs = Vec::new();
    #[cfg(target_arch = "x86_64")]
    programs.push(Program::new(x32_guard())?);
    let allow_list =
        SeccompFilter::new(allowed()?, SeccompAction::Errno(libc::EPERM as u32), SeccompAction::Allow, arch)?;
    programs.push(compiled(allow_list)?);
    for (errno, rules) in [(libc::EACCES, refused_eacces()?), (libc::ENOSYS, missing())] {
        let filter = SeccompFilter::new(rules, SeccompAction::Allow, SeccompAction::Errno(errno as u32), arch)?;
        programs.push(compiled(filter)?);
    }
    Ok(programs)
}

fn compiled(filter: SeccompFilter) -> Result<Program, seccompiler::Error> {
    let code = BpfProgram::try_from(filter)?;
    let code = code.into_iter().map(|i| libc::sock_filter { code: i.code, jt: i.jt, jf: i.jf, k: i.k }).collect();
    Program::new(code)
}

type Rules = BTreeMap<i64, Vec<SeccompRule>>;

/// seccompiler's key for a call number.
#[allow(clippy::useless_conversion)] // `c_long` is `i64` on the 64-bit targets, not all Linux ones
fn nr(call: libc::c_long) -> i64 {
    i64::from(call)
}

/// Matching whatever the arguments.
fn always(calls: &[libc::c_long]) -> Rules {
    calls.iter().map(|&call| (nr(call), Vec::new())).collect()
}

/// Matches when any of `bits` is set in argument `arg` (an `int`).
fn any_bit(arg: u8, bits: &[libc::c_int]) -> Result<Vec<SeccompRule>, BackendError> {
    bits.iter()
        .map(|&bit| {
            let bit = bit as u64;
            SeccompRule::new(vec![SeccompCondition::new(
                arg,
                SeccompCmpArgLen::Dword,
                SeccompCmpOp::MaskedEq(bit),
                bit,
            )?])
        })
        .collect()
}

/// The allow list: what a single-process compute program needs — the dynamic loader, Rust's
/// standard library (threads, panics, stack-overflow detection), the kit's reads and writes on
/// the descriptors it was given, time and randomness. Modelled on Docker's default profile
/// (moby's `profiles/seccomp/default.json`), trimmed of whatever such a program has no use for:
/// new processes, other programs (`execve` stays, for the program's own start: Landlock lets it
/// run only itself and its loader), sockets, file-system changes, extended attributes, System V
/// and POSIX message queues, shared memory and semaphores, asynchronous I/O and io_uring, file
/// watches, name-to-handle lookups, scheduling classes and CPU pinning, memory locking, and of
/// course everything Docker refuses as well (tracing, `process_vm_*`, perf, bpf, keys, modules,
/// kexec, reboot, clocks, `syslog`, `userfaultfd`, namespaces, mounts). Every other call gets
/// EPERM, as Docker answers; the program is not killed, so its panic names the refusal.
fn allowed() -> Result<Rules, BackendError> {
    let mut rules = always(&[
        // Memory.
        libc::SYS_brk,
        libc::SYS_mmap,
        libc::SYS_munmap,
        libc::SYS_mremap,
        libc::SYS_mprotect,
        libc::SYS_madvise,
        libc::SYS_mincore,
        libc::SYS_msync,
        libc::SYS_membarrier,
        // Threads and their synchronisation (clone is below, for threads only).
        libc::SYS_futex,
        libc::SYS_set_robust_list,
        libc::SYS_get_robust_list,
        libc::SYS_set_tid_address,
        libc::SYS_rseq,
        libc::SYS_gettid,
        libc::SYS_sched_yield,
        libc::SYS_sched_getaffinity,
        libc::SYS_sched_getparam,
        libc::SYS_sched_getscheduler,
        libc::SYS_sched_get_priority_max,
        libc::SYS_sched_get_priority_min,
        libc::SYS_prctl,
        // Signals: panics, aborts, stack-overflow handling; Landlock scopes whom they reach.
        libc::SYS_rt_sigaction,
        libc::SYS_rt_sigprocmask,
        libc::SYS_rt_sigreturn,
        libc::SYS_rt_sigpending,
        libc::SYS_rt_sigsuspend,
        libc::SYS_rt_sigtimedwait,
        libc::SYS_sigaltstack,
        libc::SYS_restart_syscall,
        libc::SYS_kill,
        libc::SYS_tgkill,
        libc::SYS_tkill,
        // Time.
        libc::SYS_clock_gettime,
        libc::SYS_clock_getres,
        libc::SYS_clock_nanosleep,
        libc::SYS_nanosleep,
        libc::SYS_gettimeofday,
        libc::SYS_times,
        libc::SYS_getitimer,
        libc::SYS_setitimer,
        // Descriptors: reading what Landlock lets it read, writing to the pipes and the socket it
        // was given (opening for writing is refused by the EACCES filter).
        libc::SYS_read,
        libc::SYS_readv,
        libc::SYS_pread64,
        libc::SYS_preadv,
        libc::SYS_preadv2,
        libc::SYS_write,
        libc::SYS_writev,
        libc::SYS_pwrite64,
        libc::SYS_pwritev,
        libc::SYS_recvfrom,
        libc::SYS_recvmsg,
        libc::SYS_sendto,
        libc::SYS_sendmsg,
        libc::SYS_shutdown,
        libc::SYS_getsockopt,
        libc::SYS_setsockopt,
        libc::SYS_getsockname,
        libc::SYS_getpeername,
        libc::SYS_openat,
        libc::SYS_close,
        libc::SYS_close_range,
        libc::SYS_lseek,
        libc::SYS_fstat,
        libc::SYS_newfstatat,
        libc::SYS_statx,
        libc::SYS_statfs,
        libc::SYS_fstatfs,
        libc::SYS_fcntl,
        libc::SYS_dup,
        libc::SYS_dup3,
        libc::SYS_getdents64,
        libc::SYS_readlinkat,
        libc::SYS_faccessat,
        libc::SYS_faccessat2,
        libc::SYS_getcwd,
        libc::SYS_chdir,
        libc::SYS_fchdir,
        libc::SYS_fadvise64,
        libc::SYS_pipe2,
        libc::SYS_ppoll,
        libc::SYS_pselect6,
        libc::SYS_fsync,
        libc::SYS_fdatasync,
        // Who and where it is.
        libc::SYS_getpid,
        libc::SYS_getppid,
        libc::SYS_getuid,
        libc::SYS_geteuid,
        libc::SYS_getgid,
        libc::SYS_getegid,
        libc::SYS_getgroups,
        libc::SYS_getresuid,
        libc::SYS_getresgid,
        libc::SYS_getpgid,
        libc::SYS_getsid,
        libc::SYS_prlimit64,
        libc::SYS_getrusage,
        libc::SYS_sysinfo,
        libc::SYS_uname,
        libc::SYS_getcpu,
        libc::SYS_capget,
        libc::SYS_umask,
        libc::SYS_getrandom,
        // Its own start (the only programs Landlock lets it run are itself and its loader), and
        // its end.
        libc::SYS_execve,
        libc::SYS_exit,
        libc::SYS_exit_group,
    ]);
    // The older calls that x86-64 keeps beside the newer forms above; the loader and the C
    // library still use some of them there.
    #[cfg(target_arch = "x86_64")]
    rules.extend(always(&[
        libc::SYS_arch_prctl,
        libc::SYS_open,
        libc::SYS_stat,
        libc::SYS_lstat,
        libc::SYS_access,
        libc::SYS_readlink,
        libc::SYS_getdents,
        libc::SYS_dup2,
        libc::SYS_pipe,
        libc::SYS_poll,
        libc::SYS_select,
        libc::SYS_time,
        libc::SYS_alarm,
        libc::SYS_pause,
        libc::SYS_getpgrp,
        libc::SYS_getrlimit,
        libc::SYS_setrlimit,
    ]));
    // A thread shares its parent's memory and shares its fate, a process does not: clone is
    // allowed only with CLONE_THREAD (glibc's fork() and posix_spawn() are clone without it).
    let thread = SeccompCondition::new(
        0,
        SeccompCmpArgLen::Qword,
        SeccompCmpOp::MaskedEq(libc::CLONE_THREAD as u64),
        libc::CLONE_THREAD as u64,
    )?;
    rules.insert(nr(libc::SYS_clone), vec![SeccompRule::new(vec![thread])?]);
    // ioctl only for what the standard library and the C library ask of a descriptor (is it a
    // terminal, how wide, how much is waiting, blocking, close-on-exec): never TIOCSTI, which
    // types into a terminal, should a kernel without Landlock let one be opened.
    let requests = [libc::TCGETS, libc::TIOCGWINSZ, libc::FIONREAD, libc::FIONBIO, libc::FIOCLEX, libc::FIONCLEX];
    let ioctl = requests
        .iter()
        .map(|&request| {
            #[allow(clippy::unnecessary_cast)] // `c_ulong` with glibc, `c_int` with musl
            let request = SeccompCondition::new(1, SeccompCmpArgLen::Dword, SeccompCmpOp::Eq, request as u64)?;
            SeccompRule::new(vec![request])
        })
        .collect::<Result<Vec<_>, _>>()?;
    rules.insert(nr(libc::SYS_ioctl), ioctl);
    Ok(rules)
}

/// EACCES: opening for writing (as a read-only file system would answer), sockets, and memory
/// both writable and executable (W^X), as mprotect(2) answers access it cannot grant.
fn refused_eacces() -> Result<Rules, BackendError> {
    let writing = [libc::O_WRONLY, libc::O_RDWR, libc::O_CREAT, libc::O_TRUNC, libc::O_APPEND];
    let mut rules = always(&[libc::SYS_socket]);
    rules.insert(nr(libc::SYS_openat), any_bit(2, &writing)?);
    rules.extend(write_xor_execute()?);
    #[cfg(target_arch = "x86_64")]
    {
        rules.insert(nr(libc::SYS_open), any_bit(1, &writing)?);
        rules.extend(always(&[libc::SYS_creat]));
    }
    Ok(rules)
}

/// W^X, defence in depth under "one exercise, one program" (no code to patch is in the program
/// in the first place): no mapping that is writable and executable at once, and no `mprotect`
/// that makes memory executable at all, so that code can neither be written in place (made
/// writable, patched, made executable again) nor written fresh and run. The loader maps code
/// executable with mmap(2) and only ever takes rights away with mprotect(2) (RELRO, guard pages).
fn write_xor_execute() -> Result<Rules, BackendError> {
    let both = (libc::PROT_WRITE | libc::PROT_EXEC) as u64;
    let writable_and_executable = |arg| {
        SeccompRule::new(vec![SeccompCondition::new(arg, SeccompCmpArgLen::Dword, SeccompCmpOp::MaskedEq(both), both)?])
    };
    let mut rules = Rules::new();
    rules.insert(nr(libc::SYS_mmap), vec![writable_and_executable(2)?]);
    rules.insert(nr(libc::SYS_mprotect), any_bit(2, &[libc::PROT_EXEC])?);
    Ok(rules)
}

/// ENOSYS: calls whose arguments sit in memory, out of a filter's reach. Pretending they do
/// not exist makes glibc fall back to clone (threads) and openat (checked above).
fn missing() -> Rules {
    always(&[libc::SYS_clone3, libc::SYS_openat2])
}

/// On x86-64 the same architecture value also covers the x32 ABI, whose call numbers have bit
/// 30 set and so match none of the numbers above. seccompiler cannot express a range, so this
/// six-instruction filter is written by hand: x32 calls get ENOSYS, all else passes through.
#[cfg(target_arch = "x86_64")]
fn x32_guard() -> Vec<libc::sock_filter> {
    // From linux/bpf_common.h, linux/audit.h and asm/unistd.h.
    const LD_W_ABS: u16 = 0x20; // BPF_LD (0) | BPF_W (0) | BPF_ABS (0x20)
    const JEQ_K: u16 = 0x15; // BPF_JMP (5) | BPF_JEQ (0x10) | BPF_K (0)
    const JGE_K: u16 = 0x35; // BPF_JMP (5) | BPF_JGE (0x30) | BPF_K (0)
    const RET_K: u16 = 0x06; // BPF_RET (6) | BPF_K (0)
    const AUDIT_ARCH_X86_64: u32 = 0xC000_003E;
    const X32_SYSCALL_BIT: u32 = 0x4000_0000;
    // Offsets in struct seccomp_data.
    const NR: u32 = 0;
    const ARCH: u32 = 4;
    let op = |code, jt, jf, k| libc::sock_filter { code, jt, jf, k };
    vec![
        op(LD_W_ABS, 0, 0, ARCH),
        op(JEQ_K, 0, 3, AUDIT_ARCH_X86_64),
        op(LD_W_ABS, 0, 0, NR),
        op(JGE_K, 0, 1, X32_SYSCALL_BIT),
        op(RET_K, 0, 0, libc::SECCOMP_RET_ERRNO | libc::ENOSYS as u32),
        op(RET_K, 0, 0, libc::SECCOMP_RET_ALLOW),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The calls issue 19 names, which the allow list must never grow to hold.
    const NEVER: [libc::c_long; 25] = [
        libc::SYS_perf_event_open,
        libc::SYS_bpf,
        libc::SYS_sched_setscheduler,
        libc::SYS_sched_setattr,
        libc::SYS_sched_setparam,
        libc::SYS_reboot,
        libc::SYS_kexec_load,
        libc::SYS_kexec_file_load,
        libc::SYS_init_module,
        libc::SYS_finit_module,
        libc::SYS_delete_module,
        libc::SYS_keyctl,
        libc::SYS_add_key,
        libc::SYS_request_key,
        libc::SYS_syslog,
        libc::SYS_settimeofday,
        libc::SYS_clock_settime,
        libc::SYS_ptrace,
        libc::SYS_process_vm_readv,
        libc::SYS_process_vm_writev,
        libc::SYS_userfaultfd,
        libc::SYS_io_uring_setup,
        libc::SYS_io_uring_enter,
        libc::SYS_io_uring_register,
        libc::SYS_execveat,
    ];

    #[test]
    fn the_allow_list_holds_none_of_the_refused_calls() {
        let allowed = allowed().expect("the allow list builds");
        for call in NEVER {
            assert!(!allowed.contains_key(&nr(call)), "call {call} is on the allow list");
        }
        // Nor the ones refused with another error number, whose filters would then not be
        // the only ones to decide.
        for call in [libc::SYS_socket, libc::SYS_clone3, libc::SYS_openat2, libc::SYS_memfd_create] {
            assert!(!allowed.contains_key(&nr(call)), "call {call} is on the allow list");
        }
        // clone and ioctl only with conditions (threads; a few harmless requests), never
        // whatever their arguments.
        for call in [libc::SYS_clone, libc::SYS_ioctl] {
            assert!(allowed.get(&nr(call)).is_some_and(|rules| !rules.is_empty()), "{call}");
        }
    }

    #[test]
    fn the_filters_compile_once() {
        let first = programs().expect("the filters compile");
        let again = programs().expect("the filters compile");
        assert!(std::ptr::eq(first, again), "compiled twice");
        assert!(first.iter().all(|program| program.len > 0));
    }
}
