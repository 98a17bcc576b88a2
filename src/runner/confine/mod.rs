//! Confinement of the graded ("subject") program: what it may do between its exec and its exit.
//!
//! The learner's code is untrusted. On Linux it is run with:
//! - `PR_SET_NO_NEW_PRIVS`, so that nothing it executes gains privileges;
//! - no capability, even when tutor runs as root (`capabilities.rs`): every set emptied, the
//!   bounding set included, and the securebits that keep uid 0 from regaining them locked;
//! - a Landlock domain (`landlock.rs`): reads only beneath the system's library folders (`/usr`,
//!   `/lib*`, `/sys`), the loader's files of `/etc`, five harmless devices of `/dev`, its own
//!   `/proc/<pid>` (not other processes': their environment and command lines), and the shared
//!   libraries its run paths name (the kit, the standard library: `elf.rs`), execution only of
//!   the subject itself and its dynamic loader, no file-system writes at all, no TCP, and no
//!   signals to processes outside it;
//! - seccomp filters (`seccomp.rs`): an allow list modelled on Docker's default profile, so no
//!   new processes (threads still work), no becoming another program (`execveat`,
//!   `memfd_create`), no opening for writing, no file-system changes, no sockets, no tracing,
//!   perf, BPF, keys, modules or real-time scheduling, and nothing a newer kernel adds;
//! - one `execve`, its own start (`exec_once.rs`): a supervisor thread refuses every later one,
//!   so the loader cannot be made to run another program.
//!
//! The two layers overlap on purpose: seccomp works on kernels without Landlock, and Landlock
//! checks paths, which seccomp cannot.
//!
//! Everything is built in the parent by [`Confinement::prepare`]; the child, between fork and
//! exec, only makes raw system calls ([`Confinement::apply_to`]), because a forked child of a
//! multi-threaded parent must not allocate or take locks. A kernel without some feature gets
//! what it has: nothing here fails a spawn for lack of support ([`support`] says what is there).
//! On other systems the module compiles and confines nothing.
//!
//! The build of the learner's file is confined too ([`Confinement::for_build`]): compiling can
//! read any file the compiler can open (`include_str!`, `#[path]`, and `.incbin` in
//! `global_asm!`, which no dep-info lists), so cargo, rustc, the linker and build scripts get a
//! Landlock domain of their own. They may read only the system folders, the harness and the
//! toolchain (of `CARGO_HOME` only the registry, git checkouts, settings and rustup's proxies), and
//! write only beneath the harness's `target/`. No seccomp there: cargo must start rustc, and rustc
//! the linker; and no capability drop: root's access may be what reads a course folder another
//! user owns.

#[cfg(target_os = "linux")]
mod capabilities;
#[cfg(target_os = "linux")]
mod elf;
#[cfg(target_os = "linux")]
mod exec_once;
#[cfg(target_os = "linux")]
mod landlock;
#[cfg(target_os = "linux")]
mod seccomp;
#[cfg(all(test, target_os = "linux"))]
mod tests;
#[cfg(target_os = "linux")]
mod toolchain;

use std::path::Path;
use std::process::Command;

/// The gap of a kernel whose Landlock (ABI 1) refuses every link and rename from one folder to
/// another, which cargo makes all the time: its builds are not confined.
const BUILDS_NEED_ABI_2: &str = "landlock for builds (ABI 2: linking and renaming across folders)";

/// What this kernel lets tutor confine a graded program with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Support {
    /// The Landlock ABI version the kernel offers, `None` without Landlock (not built in, or
    /// not enabled at boot).
    pub landlock_abi: Option<u32>,
    /// Whether seccomp filters can be installed (kernel support and a filter for this
    /// processor).
    pub seccomp: bool,
    /// Whether a supervisor can let the graded program `execve` once only, its own start
    /// (seccomp user notification, Linux 5.8): without it, the dynamic loader can run another
    /// program (under the same confinement).
    pub exec_once: bool,
}

/// Probes the running kernel: a few system calls and, once per tutor process, a forked child
/// that tries a seccomp listener (`exec_once`); no side effects.
pub fn support() -> Support {
    #[cfg(target_os = "linux")]
    {
        let seccomp = seccomp::available();
        Support { landlock_abi: landlock::abi(), seccomp, exec_once: seccomp && exec_once::available() }
    }
    #[cfg(not(target_os = "linux"))]
    {
        Support { landlock_abi: None, seccomp: false, exec_once: false }
    }
}

impl Support {
    /// The protections this kernel cannot give, for `tutor doctor` to say once; empty when
    /// confinement is complete.
    pub fn missing(&self) -> Vec<&'static str> {
        let mut missing = Vec::new();
        match self.landlock_abi {
            None => missing.push("landlock (file system, network and signal confinement)"),
            Some(abi) => {
                if abi < 2 {
                    missing.push(BUILDS_NEED_ABI_2);
                }
                if abi < 4 {
                    missing.push("landlock network rules (ABI 4)");
                }
                if abi < 6 {
                    missing.push("landlock signal scoping (ABI 6)");
                }
            }
        }
        if !self.seccomp {
            missing.push("seccomp (no new processes, no writes, no sockets)");
        } else if !self.exec_once {
            missing.push("seccomp user notification (Linux 5.8: one exec only, no program run through the loader)");
        }
        missing
    }
}

/// A confinement prepared in the parent, before the fork: a Landlock ruleset (an open file
/// descriptor) and compiled seccomp programs.
pub struct Confinement {
    #[cfg(target_os = "linux")]
    prepared: std::sync::Arc<Prepared>,
    gaps: Vec<&'static str>,
}

/// What the child needs, shared with the `pre_exec` closure (which must be `'static`).
#[cfg(target_os = "linux")]
struct Prepared {
    /// The Landlock ruleset, all rules added; `None` without Landlock. It is close-on-exec, so
    /// the subject never holds it.
    ruleset: Option<std::os::fd::OwnedFd>,
    /// Whether the child adds its own `/proc/<pid>` to the ruleset before entering it (the
    /// subject's: see [`landlock::grant_own_proc`]). The ruleset is then used once.
    own_proc: bool,
    /// Whether every capability is dropped before the exec ([`capabilities::drop_all`]): for
    /// the graded program, not for a build, which may need root's access to a course folder
    /// that another user owns.
    unprivileged: bool,
    /// Seccomp programs, installed in this order.
    filters: &'static [seccomp::Program],
    /// Whether `execve` is allowed once only, the program's own start ([`exec_once`]): for the
    /// graded program, when the kernel can.
    exec_once: bool,
}

#[cfg(target_os = "linux")]
impl Prepared {
    /// Builds what `support` allows, adding to `gaps` whatever fails to build.
    fn new(executable: &Path, support: Support, gaps: &mut Vec<&'static str>) -> Prepared {
        let ruleset = match support.landlock_abi {
            Some(_) => match landlock::ruleset(executable) {
                Ok(fd) => Some(fd),
                Err(_) => {
                    gaps.push("landlock ruleset (could not be built)");
                    None
                }
            },
            None => None,
        };
        let filters = match support.seccomp {
            true => seccomp::programs().unwrap_or_else(|_| {
                gaps.push("seccomp filter (could not be compiled)");
                &[]
            }),
            false => &[],
        };
        let exec_once = !filters.is_empty() && support.exec_once;
        Prepared { ruleset, own_proc: true, unprivileged: true, filters, exec_once }
    }
}

impl Confinement {
    /// Builds the confinement for running `executable` once: the child adds its own `/proc/<pid>`
    /// to the ruleset, so a program started again needs a confinement of its own. Never fails:
    /// whatever cannot be built (no kernel support, an unreadable executable) is left out and
    /// listed by [`gaps`](Confinement::gaps).
    pub fn prepare(executable: &Path) -> Confinement {
        let support = support();
        let mut gaps = support.missing();
        #[cfg(target_os = "linux")]
        let prepared = std::sync::Arc::new(Prepared::new(executable, support, &mut gaps));
        #[cfg(not(target_os = "linux"))]
        let _ = (executable, &mut gaps);
        Confinement {
            #[cfg(target_os = "linux")]
            prepared,
            gaps,
        }
    }

    /// Builds the confinement for a cargo build of the learner's file in the harness at
    /// `harness`: reads beneath the system folders, the harness and the toolchain
    /// (`CARGO_HOME`, `RUSTUP_HOME`, a sysroot elsewhere), writes beneath `harness/target`
    /// only. `harness/target` must exist: the rules name open folders.
    ///
    /// Never fails, as [`prepare`](Confinement::prepare) never does: without Landlock (or
    /// with Landlock ABI 1, which forbids the renames across folders cargo makes) the build is
    /// not confined, and [`gaps`](Confinement::gaps) says so.
    pub fn for_build(harness: &Path) -> Confinement {
        Confinement::building(harness, false)
    }

    /// As [`for_build`](Confinement::for_build), for the build of the harness's dependencies
    /// alone (never the learner's file): writes beneath `CARGO_HOME` are allowed too, as cargo
    /// may have to download and unpack crates.
    pub fn for_dependencies(harness: &Path) -> Confinement {
        Confinement::building(harness, true)
    }

    fn building(harness: &Path, downloads: bool) -> Confinement {
        let support = support();
        let mut gaps = Vec::new();
        #[cfg(target_os = "linux")]
        let ruleset = match support.landlock_abi {
            None => {
                gaps.push("landlock (file system confinement of the build)");
                None
            }
            Some(abi) if abi < 2 => {
                gaps.push(BUILDS_NEED_ABI_2);
                None
            }
            Some(_) => {
                // cargo runs from the temporary folder (`cargo_run::cargo_command`): relative
                // homes are relative to it.
                let toolchain = toolchain::find(&std::env::temp_dir());
                match landlock::build_ruleset(harness, &toolchain, downloads) {
                    Ok(fd) => Some(fd),
                    Err(_) => {
                        gaps.push("landlock ruleset for the build (could not be built)");
                        None
                    }
                }
            }
        };
        #[cfg(not(target_os = "linux"))]
        let _ = (harness, downloads, support, &mut gaps);
        Confinement {
            #[cfg(target_os = "linux")]
            prepared: std::sync::Arc::new(Prepared {
                ruleset,
                own_proc: false,
                unprivileged: false,
                filters: &[],
                exec_once: false,
            }),
            gaps,
        }
    }

    /// The protections this confinement lacks (kernel support missing, or a part that could
    /// not be built); empty when it is complete.
    pub fn gaps(&self) -> &[&'static str] {
        &self.gaps
    }

    /// Adds the step that confines the child to `command`, run between fork and exec. The
    /// confinement is shared with `command`, so `self` may be dropped before the spawn.
    ///
    /// If a prepared part cannot be applied in the child (which only an unusual kernel state
    /// can cause, as support was probed), the spawn fails rather than run the program
    /// unconfined.
    pub fn apply_to(&self, command: &mut Command) {
        #[cfg(target_os = "linux")]
        {
            use std::os::fd::AsRawFd;
            use std::os::unix::process::CommandExt;
            let prepared = std::sync::Arc::clone(&self.prepared);
            // Supervised only when named by a path: a name searched for in PATH may take several
            // execve calls, and only the first is let through. Without a supervisor (none could
            // be started), the program may exec again, as on a kernel without one.
            let by_path = command.get_program().as_encoded_bytes().contains(&b'/');
            let supervisor = (prepared.exec_once && by_path).then(exec_once::supervise).and_then(Result::ok);
            // SAFETY: the closure runs in the forked child before exec. It only reads memory
            // prepared in the parent (copied by the fork, never freed in the child since the
            // closure is not dropped there) and makes system calls (prctl(2), capset(2),
            // landlock_restrict_self(2), seccomp(2), sendmsg(2)) that neither allocate nor take
            // locks.
            unsafe {
                command.pre_exec(move || enter(&prepared, supervisor.as_ref().map(AsRawFd::as_raw_fd)));
            }
        }
        #[cfg(not(target_os = "linux"))]
        {
            let _ = command;
        }
    }
}

/// What a linked program loads and how: its kind of ELF file, its loader, the libraries it
/// needs. Two links of one program that agree on these start alike. `None` for no ELF program,
/// and on other systems.
pub fn linked_shape(executable: &Path) -> Option<(u16, Option<std::path::PathBuf>, Vec<String>)> {
    #[cfg(target_os = "linux")]
    {
        elf::shape(executable)
    }
    #[cfg(not(target_os = "linux"))]
    {
        let _ = executable;
        None
    }
}

/// The symbols a built graded program defines in place of the kit's or the standard library's
/// (see `elf::exported_symbols`): a program that has any is not run. Empty on other systems.
pub fn replaced_library_symbols(executable: &Path) -> Vec<String> {
    #[cfg(target_os = "linux")]
    {
        elf::exported_symbols(executable)
    }
    #[cfg(not(target_os = "linux"))]
    {
        let _ = executable;
        Vec::new()
    }
}

/// The temporary folder of a build of the harness at `harness` (its `TMPDIR`): inside
/// `target/`, the one place the build may write, so that the linker driver's and build
/// scripts' temporary files are allowed and go away with `cargo clean`.
pub fn build_temp_dir(harness: &Path) -> std::path::PathBuf {
    harness.join("target").join("tmp")
}

/// In the child: no new privileges, no capabilities (for the graded program), then Landlock,
/// then seccomp. Seccomp comes last: its
/// filters are written for the program, not for this set-up (they happen to allow these calls,
/// but need not).
#[cfg(target_os = "linux")]
fn enter(prepared: &Prepared, supervisor: Option<std::os::fd::RawFd>) -> std::io::Result<()> {
    use std::os::fd::AsRawFd;
    // Landlock and unprivileged seccomp both require no_new_privs; it also keeps a set-user-ID
    // program from gaining rights, should one ever be executed.
    let (yes, unused) = (1 as libc::c_ulong, 0 as libc::c_ulong);
    // SAFETY: prctl with integer arguments (widened to the `unsigned long` it reads, as it
    // rejects stray high bits) touches no memory of ours.
    if unsafe { libc::prctl(libc::PR_SET_NO_NEW_PRIVS, yes, unused, unused, unused) } != 0 {
        return Err(std::io::Error::last_os_error());
    }
    if prepared.unprivileged {
        capabilities::drop_all()?;
    }
    if let Some(ruleset) = &prepared.ruleset {
        if prepared.own_proc {
            landlock::grant_own_proc(ruleset)?;
        }
        // SAFETY: landlock_restrict_self takes a ruleset descriptor (kept open by `prepared`)
        // and flags; it touches no memory of ours.
        if unsafe { libc::syscall(libc::SYS_landlock_restrict_self, ruleset.as_raw_fd(), 0) } != 0 {
            return Err(std::io::Error::last_os_error());
        }
    }
    // First: the other filters refuse seccomp(2) itself.
    if let Some(socket) = supervisor {
        exec_once::hand_over(socket)?;
    }
    for program in prepared.filters {
        program.install()?;
    }
    Ok(())
}
