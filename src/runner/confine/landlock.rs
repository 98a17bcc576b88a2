//! The Landlock rulesets for the subject and for the build, made in the parent with the landlock
//! crate.
//!
//! The crate's `RulesetCreated` gives up its descriptor (`Option<OwnedFd>`), so the rules are
//! added with the crate and only `landlock_restrict_self` is called by hand, in the child (its
//! own `restrict_self` is not fit for a forked child: it builds error values and status
//! structures as it goes).

use std::os::fd::OwnedFd;
use std::path::{Path, PathBuf};

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

/// Folders the subject may read beneath: the system's libraries and the kernel's views of
/// devices. Not `/etc` as a whole (as root, `/etc/shadow` is the program's own to read), not
/// `/dev` as a whole (`/dev/pts/N` holds other terminals' pending input), not the home folder,
/// `/tmp` or the course workspace, and of `/proc` only the subject's own folder
/// ([`grant_own_proc`]): another process's `environ` would give tutor's environment, which the
/// subject's own is emptied of.
const READABLE: [&str; 5] = ["/usr", "/lib", "/lib32", "/lib64", "/sys"];

/// The files of `/etc` the dynamic loader and the C library read, for the subject and the build.
const LOADER_SETTINGS: [&str; 5] =
    ["/etc/ld.so.cache", "/etc/ld.so.preload", "/etc/ld.so.conf", "/etc/ld.so.conf.d", "/etc/localtime"];

/// What else of `/etc` a build reads: the C library's user, group and name-service settings
/// (cargo and rustup look up the home folder). A path through `/etc/alternatives` (`cc`) needs no
/// right: Landlock checks the file a path ends at, not the links it passes. Not the rest of
/// `/etc` (`shadow`, `ssh/`, …): a compile error would print what `include_str!` read.
const BUILD_SETTINGS: [&str; 5] =
    ["/etc/passwd", "/etc/group", "/etc/nsswitch.conf", "/etc/host.conf", "/etc/gai.conf"];

/// The devices a program may read; `/dev/null` is the only one a build may also write.
const DEVICES: [&str; 5] = ["/dev/null", "/dev/zero", "/dev/full", "/dev/random", "/dev/urandom"];

/// The system folders a build may read beneath, each with whether it may also run programs
/// from there (the compilers, linkers and loaders). As for the subject, not the home folder,
/// `/tmp` or the course workspace; of `/etc` and `/dev` only the files above.
const BUILD_SYSTEM: [(&str, bool); 8] = [
    ("/usr", true),
    ("/lib", true),
    ("/lib32", true),
    ("/lib64", true),
    ("/bin", true),
    ("/sbin", true),
    ("/proc", false),
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
    for path in READABLE.iter().chain(&LOADER_SETTINGS).chain(&DEVICES) {
        // Missing ones (no /lib32 here, say) are simply not granted.
        if let Some(rule) = rule(Path::new(path), read) {
            ruleset = ruleset.add_rule(rule)?;
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
/// - reading beneath the system folders, the harness, and the toolchain's folders, and the
///   files of `/etc` and `/dev` a build needs ([`LOADER_SETTINGS`], [`BUILD_SETTINGS`],
///   [`DEVICES`]);
/// - of `CARGO_HOME`, reading the registry's sources and index, git checkouts and cargo's
///   settings, and running rustup's proxies in `bin/`: not the rest of `bin/` (an installed
///   tutor holds every solution), not the credentials, not `env` ([`Toolchain::build_reads`]);
/// - running programs beneath the system's program folders, the toolchain's folders, and the
///   harness's `target/` (dependencies' build scripts are built and run there);
/// - every right beneath the harness's `target/`, and writing to `/dev/null`;
/// - with `downloads`, every right beneath `CARGO_HOME` and reading `/etc` (certificates and
///   name resolution for the download), as cargo may have to fetch and unpack crates: this
///   build never compiles the learner's file.
///
/// `target/` must exist: a rule names an open folder.
pub(super) fn build_ruleset(harness: &Path, toolchain: &Toolchain, downloads: bool) -> Result<OwnedFd> {
    let all = AccessFs::from_all(TARGET);
    let read = AccessFs::ReadFile | AccessFs::ReadDir;
    let run = read | AccessFs::Execute;
    let mut rules: Vec<(PathBuf, BitFlags<AccessFs>)> = Vec::new();
    for (folder, programs) in BUILD_SYSTEM {
        rules.push((folder.into(), if programs { run } else { read }));
    }
    let settings = LOADER_SETTINGS.iter().chain(&BUILD_SETTINGS).chain(&DEVICES);
    rules.extend(settings.map(|file| (PathBuf::from(file), read)));
    for folder in toolchain.rustup_home.iter().chain(&toolchain.elsewhere) {
        rules.push((folder.clone(), run));
    }
    match (&toolchain.cargo_home, downloads) {
        (Some(cargo_home), true) => rules.extend([(cargo_home.clone(), all), ("/etc".into(), read)]),
        (Some(_), false) => {
            let reads = toolchain.build_reads();
            rules.extend(reads.into_iter().map(|(path, program)| (path, if program { run } else { read })));
        }
        (None, _) => {}
    }
    // Where tools send what they do not want kept; it keeps nothing.
    rules.push(("/dev/null".into(), AccessFs::ReadFile | AccessFs::WriteFile | AccessFs::Truncate));

    let mut ruleset = Ruleset::default().handle_access(all)?.create()?;
    // The harness and its target are the build's own and must be there.
    let target = harness.join("target");
    for (folder, access) in [(harness, read), (&target, all)] {
        let fd = PathFd::new(folder).with_context(|| format!("opening {}", folder.display()))?;
        ruleset = ruleset.add_rule(PathBeneath::new(fd, access))?;
    }
    for (path, access) in rules {
        // What this system lacks (no /lib32, no rustup) is simply not granted.
        if let Some(rule) = rule(&path, access) {
            ruleset = ruleset.add_rule(rule)?;
        }
    }
    Option::<OwnedFd>::from(ruleset).context("the kernel gave no Landlock ruleset")
}

/// A rule granting `access` beneath `path`, or on `path` alone when it is not a folder (of
/// `access`, only the rights that apply to a file); `None` when `path` cannot be opened.
fn rule(path: &Path, access: BitFlags<AccessFs>) -> Option<PathBeneath<PathFd>> {
    let fd = PathFd::new(path).ok()?;
    let access = match path.is_dir() {
        true => access,
        false => access & AccessFs::from_file(TARGET),
    };
    Some(PathBeneath::new(fd, access))
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
