//! Seccomp filters for the subject, compiled with seccompiler in the parent.
//!
//! The policy is a deny list on top of "allow": the subject is ordinary Rust code that needs
//! most of the system-call table (memory, threads, time, reading files); what it must not do is
//! short to list. A seccompiler filter has one action for every match, so each error number
//! gets its own filter; the kernel runs them all and the refusal wins.

use std::collections::BTreeMap;
use std::io;

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
    if arch().is_none() {
        return false;
    }
    let action: u32 = libc::SECCOMP_RET_ERRNO;
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

/// The filters, in the order they are to be installed.
pub(super) fn programs() -> Result<Vec<Program>, seccompiler::Error> {
    let unknown = || BackendError::InvalidTargetArch(std::env::consts::ARCH.to_string());
    let arch = arch().ok_or_else(unknown)?;
    let mut programs = Vec::new();
    #[cfg(target_arch = "x86_64")]
    programs.push(Program::new(x32_guard())?);
    for (errno, rules) in
        [(libc::EPERM, refused_eperm()?), (libc::EACCES, refused_eacces()?), (libc::ENOSYS, missing())]
    {
        let filter = SeccompFilter::new(rules, SeccompAction::Allow, SeccompAction::Errno(errno as u32), arch)?;
        let code = BpfProgram::try_from(filter)?;
        let code = code.into_iter().map(|i| libc::sock_filter { code: i.code, jt: i.jt, jf: i.jf, k: i.k }).collect();
        programs.push(Program::new(code)?);
    }
    Ok(programs)
}

type Rules = BTreeMap<i64, Vec<SeccompRule>>;

/// seccompiler's key for a call number.
#[allow(clippy::useless_conversion)] // `c_long` is `i64` on the 64-bit targets, not all Linux ones
fn nr(call: libc::c_long) -> i64 {
    i64::from(call)
}

/// Always refused, whatever the arguments.
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

/// EPERM: new processes and other programs, changes to the file system, tracing, and ways
/// around the rest.
fn refused_eperm() -> Result<Rules, BackendError> {
    let mut rules = always(&[
        libc::SYS_ptrace,
        libc::SYS_process_vm_readv,
        libc::SYS_process_vm_writev,
        libc::SYS_unlinkat,
        libc::SYS_renameat2,
        libc::SYS_mkdirat,
        libc::SYS_linkat,
        libc::SYS_symlinkat,
        libc::SYS_truncate,
        libc::SYS_ftruncate,
        libc::SYS_fchmod,
        libc::SYS_fchmodat,
        libc::SYS_fchown,
        libc::SYS_fchownat,
        libc::SYS_mknodat,
        libc::SYS_utimensat,
        // Beyond the obvious: io_uring performs opens and sockets without these filters seeing
        // them; namespaces and mounts would change what the paths above mean.
        libc::SYS_io_uring_setup,
        libc::SYS_io_uring_enter,
        libc::SYS_io_uring_register,
        libc::SYS_unshare,
        libc::SYS_setns,
        libc::SYS_mount,
        libc::SYS_umount2,
        libc::SYS_pivot_root,
        libc::SYS_chroot,
        // The program's own start is an execve; these two would let it become another
        // program: one read from anywhere it may read, or carried inside itself (`.incbin`)
        // and written to a file in memory, which no Landlock rule names.
        libc::SYS_execveat,
        libc::SYS_memfd_create,
    ]);
    // The older calls that x86-64 keeps; newer ports have only the *at forms and clone.
    #[cfg(target_arch = "x86_64")]
    rules.extend(always(&[
        libc::SYS_fork,
        libc::SYS_vfork,
        libc::SYS_unlink,
        libc::SYS_rename,
        libc::SYS_renameat,
        libc::SYS_mkdir,
        libc::SYS_rmdir,
        libc::SYS_link,
        libc::SYS_symlink,
        libc::SYS_chmod,
        libc::SYS_fchmodat2,
        libc::SYS_chown,
        libc::SYS_lchown,
        libc::SYS_mknod,
        libc::SYS_utime,
        libc::SYS_utimes,
        libc::SYS_futimesat,
    ]));
    // A thread shares its parent's memory and shares its fate, a process does not: clone is
    // allowed only with CLONE_THREAD (glibc's fork() and posix_spawn() are clone without it).
    let process =
        SeccompCondition::new(0, SeccompCmpArgLen::Qword, SeccompCmpOp::MaskedEq(libc::CLONE_THREAD as u64), 0)?;
    rules.insert(nr(libc::SYS_clone), vec![SeccompRule::new(vec![process])?]);
    Ok(rules)
}

/// EACCES: opening for writing (as a read-only file system would answer), and sockets.
fn refused_eacces() -> Result<Rules, BackendError> {
    let writing = [libc::O_WRONLY, libc::O_RDWR, libc::O_CREAT, libc::O_TRUNC, libc::O_APPEND];
    let mut rules = always(&[libc::SYS_socket]);
    rules.insert(nr(libc::SYS_openat), any_bit(2, &writing)?);
    #[cfg(target_arch = "x86_64")]
    {
        rules.insert(nr(libc::SYS_open), any_bit(1, &writing)?);
        rules.extend(always(&[libc::SYS_creat]));
    }
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
