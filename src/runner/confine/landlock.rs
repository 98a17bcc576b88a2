//! The Landlock rulesets for the subject and for the build, made in the parent with the landlock
//! crate.
//!
//! The crate's `RulesetCreated` gives up its descriptor (`Option<OwnedFd>`), so the rules are
//! added with the crate and only `landlock_restrict_self` is called by hand, in the child (its
//! own `restrict_self` is not fit for a forked child: it builds error values and status
//! structures as it goes).

use std::os::fd::OwnedFd;
use std::path::Path;

use ::landlock::{
    Access, AccessFs, AccessNet, BitFlags, PathBeneath, PathFd, Ruleset, RulesetAttr, RulesetCreatedAttr, Scope, ABI,
};
use anyhow::{Context, Result};

use super::elf;
use super::toolchain::Toolchain;

/// The ABI whose rights are asked for, the newest one tested here. An older kernel gets the
/// subset it knows (the crate's best-effort mode); a newer one is never asked for rights this
/// code has not been tested with, as the crate advises.
const TARGET: ABI = ABI::V6;

/// Folders the subject may read beneath: the system's libraries and settings and the kernel's
/// views of devices. Not the home folder, `/tmp` or the course workspace, and of `/proc` only
/// the subject's own folder ([`grant_own_proc`]): another process's `environ` would give tutor's
/// environment, which the subject's own is emptied of.
const READABLE: [&str; 7] = ["/usr", "/lib", "/lib32", "/lib64", "/etc", "/dev", "/sys"];

/// The system folders a build may read beneath, each with whether it may also run programs
/// from there (the compilers, linkers and loaders). As for the subject, not the home folder,
/// `/tmp` or the course workspace.
const BUILD_SYSTEM: [(&str, bool); 10] = [
    ("/usr", true),
    ("/lib", true),
    ("/lib32", true),
    ("/lib64", true),
    ("/bin", true),
    ("/sbin", true),
    ("/etc", false),
    ("/proc", false),
    ("/dev", false),
    ("/sys", false),
];

/// The Landlock ABI version of the running kernel, `None` without Landlock.
pub(super) fn abi() -> Option<u32> {
    // From linux/landlock.h: with it, landlock_create_ruleset only reports the ABI version.
    const LANDLOCK_CREATE_RULESET_VERSION: libc::c_uint = 1;
    // SAFETY: with a null attribute and size 0, this flag makes the call read nothing and
    // create nothing; it returns the version or -1 (ENOSYS, EOPNOTSUPP).
    let version = unsafe {
        libc::syscall(
            libc::SYS_landlock_create_ruleset,
            std::ptr::null::<libc::c_void>(),
            0 as libc::size_t,
            LANDLOCK_CREATE_RULESET_VERSION,
        )
    };
    u32::try_from(version).ok().filter(|&version| version > 0)
}

/// A ruleset that handles every file-system and network right and the scopes, and grants only
/// reading beneath [`READABLE`] and reading and executing `executable` and its dynamic loader.
/// Writes are handled and never granted, so they are all refused.
pub(super) fn ruleset(executable: &Path) -> Result<OwnedFd> {
    let mut ruleset = Ruleset::default()
        .handle_access(AccessFs::from_all(TARGET))?
        .handle_access(AccessNet::from_all(TARGET))?
        .scope(Scope::from_all(TARGET))?
        .create()?;
    let read = AccessFs::ReadFile | AccessFs::ReadDir;
    for folder in READABLE {
        // Missing folders (no /lib32 here, say) are simply not granted.
        if let Ok(fd) = PathFd::new(folder) {
            ruleset = ruleset.add_rule(PathBeneath::new(fd, read))?;
        }
    }
    // The kernel opens the dynamic loader for execution too (`open_exec`), so it needs the
    // Execute right; the libraries it then maps are only read.
    let run = AccessFs::ReadFile | AccessFs::Execute;
    let subject = PathFd::new(executable).with_context(|| format!("opening {}", executable.display()))?;
    ruleset = ruleset.add_rule(PathBeneath::new(subject, run))?;
    let loads = elf::loads(executable);
    if let Some(loader) = loads.interpreter {
        if let Ok(fd) = PathFd::new(&loader) {
            ruleset = ruleset.add_rule(PathBeneath::new(fd, run))?;
        }
    }
    // The kit and the standard library it shares with the program, found through the program's
    // run paths: those files alone, never their folders (the harness's build output, the
    // toolchain).
    for library in loads.libraries {
        if let Ok(fd) = PathFd::new(&library) {
            ruleset = ruleset.add_rule(PathBeneath::new(fd, AccessFs::ReadFile))?;
        }
    }
    Option::<OwnedFd>::from(ruleset).context("the kernel gave no Landlock ruleset")
}

/// A ruleset for a cargo build of the harness at `harness`: it handles every file-system right
/// (not the network: a first build downloads crates) and grants
/// - reading beneath the system folders, the harness, and the toolchain's folders;
/// - running programs beneath the system's program folders, the toolchain's folders, and the
///   harness's `target/` (dependencies' build scripts are built and run there);
/// - every right beneath the harness's `target/`, and writing to `/dev/null`;
/// - with `downloads`, every right beneath `CARGO_HOME` too (the registry's index, downloaded
///   crates and their unpacked sources, cargo's lock on them).
///
/// `target/` must exist: a rule names an open folder.
pub(super) fn build_ruleset(harness: &Path, toolchain: &Toolchain, downloads: bool) -> Result<OwnedFd> {
    let all = AccessFs::from_all(TARGET);
    let read = AccessFs::ReadFile | AccessFs::ReadDir;
    let run = read | AccessFs::Execute;
    let mut rules: Vec<(&Path, BitFlags<AccessFs>, bool)> = Vec::new();
    for (folder, programs) in BUILD_SYSTEM {
        rules.push((Path::new(folder), if programs { run } else { read }, false));
    }
    rules.push((harness, read, true));
    let target = harness.join("target");
    rules.push((&target, all, true));
    let toolchain_folders = toolchain.rustup_home.iter().chain(&toolchain.elsewhere);
    for folder in toolchain_folders {
        rules.push((folder, run, false));
    }
    if let Some(cargo_home) = &toolchain.cargo_home {
        rules.push((cargo_home, if downloads { all } else { run }, false));
    }
    // Where tools send what they do not want kept; it keeps nothing.
    rules.push((Path::new("/dev/null"), AccessFs::ReadFile | AccessFs::WriteFile | AccessFs::Truncate, false));

    let mut ruleset = Ruleset::default().handle_access(all)?.create()?;
    for (path, access, required) in rules {
        match PathFd::new(path) {
            Ok(fd) => ruleset = ruleset.add_rule(PathBeneath::new(fd, access))?,
            // A folder this system lacks (no /lib32, no rustup) is simply not granted; the
            // harness and its target are the build's own and must be there.
            Err(e) if required => return Err(e).with_context(|| format!("opening {}", path.display())),
            Err(_) => {}
        }
    }
    Option::<OwnedFd>::from(ruleset).context("the kernel gave no Landlock ruleset")
}

/// In the child, between fork and exec: adds reading beneath its own `/proc/<pid>` (which exec
/// keeps) to `ruleset`. The standard library reads `/proc/self/maps` to tell a stack overflow
/// from other crashes; no other process's folder is granted. Raw system calls only, as in
/// [`super::enter`]; the ruleset, changed here, must not serve another child.
pub(super) fn grant_own_proc(ruleset: &OwnedFd) -> std::io::Result<()> {
    use std::os::fd::AsRawFd;
    // From linux/landlock.h: `struct landlock_path_beneath_attr` is packed.
    #[repr(C, packed)]
    struct PathBeneathAttr {
        allowed_access: u64,
        parent_fd: i32,
    }
    const LANDLOCK_RULE_PATH_BENEATH: libc::c_int = 1;
    const READ_FILE_AND_DIR: u64 = (1 << 2) | (1 << 3);
    // SAFETY: open(2) with a constant, NUL-terminated path; it touches no memory of ours.
    let own = unsafe { libc::open(c"/proc/self".as_ptr(), libc::O_PATH | libc::O_DIRECTORY | libc::O_CLOEXEC) };
    if own < 0 {
        return Err(std::io::Error::last_os_error());
    }
    let attr = PathBeneathAttr { allowed_access: READ_FILE_AND_DIR, parent_fd: own };
    // SAFETY: landlock_add_rule reads `attr`, which lives on this stack frame until it returns;
    // `ruleset` is an open ruleset descriptor.
    let added = unsafe {
        libc::syscall(
            libc::SYS_landlock_add_rule,
            ruleset.as_raw_fd(),
            LANDLOCK_RULE_PATH_BENEATH,
            &attr as *const PathBeneathAttr,
            0 as libc::c_uint,
        )
    };
    let error = std::io::Error::last_os_error();
    // SAFETY: closes the descriptor opened above, and nothing else.
    unsafe { libc::close(own) };
    if added != 0 {
        return Err(error);
    }
    Ok(())
}
