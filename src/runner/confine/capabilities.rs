//! Dropping every capability in the forked child, before the exec of the graded program.
//!
//! Run as root (a container, a CI runner), a process holds every capability, and an exec keeps
//! them: a root program's permitted set is refilled from the bounding set. So the child first
//! locks the securebits that stop uid 0 from meaning "all capabilities" (`SECBIT_NOROOT`, and no
//! fix-ups on uid changes), then empties the bounding set (what any later exec could grant),
//! clears the ambient set, and finally sets its effective, permitted and inheritable sets to
//! zero. What exec then computes from these is zero, whatever the uid.
//!
//! Without root, the child has no capability to drop, and changing the securebits or the
//! bounding set needs `CAP_SETPCAP`, which it lacks; those two steps are then skipped (with
//! no-new-privileges set, no file capability or set-user-ID bit can add any at exec).
//!
//! Raw system calls only, with no allocation: this runs between fork and exec.

use std::io;

/// From linux/capability.h: the version whose sets are two 32-bit words.
const LINUX_CAPABILITY_VERSION_3: u32 = 0x2008_0522;
/// An unused argument of prctl(2), which reads `unsigned long`s and rejects stray high bits.
const ZERO: libc::c_ulong = 0;
/// From linux/capability.h.
const CAP_SETPCAP: u32 = 8;

/// `struct __user_cap_header_struct`.
#[repr(C)]
struct Header {
    version: u32,
    pid: libc::c_int,
}

/// `struct __user_cap_data_struct`: one 32-bit word of each set.
#[repr(C)]
#[derive(Clone, Copy, Default)]
struct Data {
    effective: u32,
    permitted: u32,
    inheritable: u32,
}

/// The securebits set before the drop, each with its lock so the program cannot undo it: uid 0
/// gains nothing at exec, and changing uids neither keeps nor restores capabilities.
const SECUREBITS: libc::c_int = libc::SECBIT_NOROOT
    | libc::SECBIT_NOROOT_LOCKED
    | libc::SECBIT_NO_SETUID_FIXUP
    | libc::SECBIT_NO_SETUID_FIXUP_LOCKED
    | libc::SECBIT_KEEP_CAPS_LOCKED
    | libc::SECBIT_NO_CAP_AMBIENT_RAISE
    | libc::SECBIT_NO_CAP_AMBIENT_RAISE_LOCKED;

/// Drops every capability of the calling process, as described in the module's comment.
pub(super) fn drop_all() -> io::Result<()> {
    let mut header = Header { version: LINUX_CAPABILITY_VERSION_3, pid: 0 };
    let mut sets = [Data::default(); 2];
    // SAFETY: capget(2) writes two `Data` words into `sets` and may rewrite `header.version`;
    // both live on this stack frame for the call.
    if unsafe { libc::syscall(libc::SYS_capget, &mut header as *mut Header, sets.as_mut_ptr()) } != 0 {
        return Err(io::Error::last_os_error());
    }
    let may_set_bits = sets[0].effective & (1 << CAP_SETPCAP) != 0;
    if may_set_bits {
        // SAFETY: prctl with integer arguments (widened to the `unsigned long` it reads) touches
        // no memory of ours.
        if unsafe { libc::prctl(libc::PR_SET_SECUREBITS, SECUREBITS as libc::c_ulong, ZERO, ZERO, ZERO) } != 0 {
            return Err(io::Error::last_os_error());
        }
        drop_bounding_set()?;
    }
    // SAFETY: as above. Kernels before 4.3 have no ambient set and answer EINVAL: nothing to clear.
    let cleared =
        unsafe { libc::prctl(libc::PR_CAP_AMBIENT, libc::PR_CAP_AMBIENT_CLEAR_ALL as libc::c_ulong, ZERO, ZERO, ZERO) };
    if cleared != 0 && io::Error::last_os_error().raw_os_error() != Some(libc::EINVAL) {
        return Err(io::Error::last_os_error());
    }
    let mut header = Header { version: LINUX_CAPABILITY_VERSION_3, pid: 0 };
    let none = [Data::default(); 2];
    // SAFETY: capset(2) reads the header and two `Data` words, all on this stack frame. Lowering
    // every set is always allowed.
    if unsafe { libc::syscall(libc::SYS_capset, &mut header as *mut Header, none.as_ptr()) } != 0 {
        return Err(io::Error::last_os_error());
    }
    Ok(())
}

/// Removes every capability the kernel knows from the bounding set, from 0 up to the first
/// number it calls invalid (`/proc/sys/kernel/cap_last_cap` + 1, read without a file).
fn drop_bounding_set() -> io::Result<()> {
    for capability in 0..64 as libc::c_ulong {
        // SAFETY: prctl with integer arguments touches no memory of ours.
        if unsafe { libc::prctl(libc::PR_CAPBSET_DROP, capability, ZERO, ZERO, ZERO) } != 0 {
            let error = io::Error::last_os_error();
            return match error.raw_os_error() {
                Some(libc::EINVAL) if capability > 0 => Ok(()),
                _ => Err(error),
            };
        }
    }
    Ok(())
}
