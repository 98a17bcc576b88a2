//! Where the Rust toolchain that builds the harness lives, so that the build's Landlock rules
//! can name it: rustup's two homes, and any toolchain folder outside them.
//!
//! Found from the environment and the file system alone (a few `stat`s, one short folder
//! listing): asking `rustc --print sysroot` costs a process, 40 to 100 ms through rustup's
//! proxy, which a warm check cannot afford. Only a toolchain laid out in no known way is asked.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// The folders a build runs its tools from and reads its sources in.
#[derive(Debug, Default, PartialEq, Eq)]
pub(super) struct Toolchain {
    /// `CARGO_HOME` (default `~/.cargo`): rustup's proxies in `bin/`, the registry's index, the
    /// downloaded crates and their unpacked sources, cargo's own settings.
    pub cargo_home: Option<PathBuf>,
    /// `RUSTUP_HOME` (default `~/.rustup`): the toolchains rustup installed.
    pub rustup_home: Option<PathBuf>,
    /// Toolchains outside both homes: linked into rustup (`rustup toolchain link`), named by a
    /// path, or installed on their own (`/opt/rust`, a distribution's `/usr`). Each is a sysroot
    /// (`bin/`, `lib/rustlib/`) or, failing that, the folder that holds the program; and
    /// rustup's proxy itself (a file) when it is outside `CARGO_HOME`.
    pub elsewhere: Vec<PathBuf>,
}

/// What of `CARGO_HOME` (besides rustup's proxies) a build reads: see [`Toolchain::build_reads`].
const CARGO_HOME_READS: [&str; 7] =
    ["registry", "git", "config.toml", "config", ".package-cache", ".package-cache-mutate", ".global-cache"];

/// The toolchain `cargo` on this process's `PATH` would build with, as cargo will see it (it
/// runs from `cargo_cwd`, against which relative homes are resolved).
pub(super) fn find(cargo_cwd: &Path) -> Toolchain {
    let env = |name: &str| std::env::var_os(name).filter(|value| !value.is_empty());
    let home = std::env::home_dir();
    let cargo_home = home_folder(env("CARGO_HOME"), home.as_deref(), ".cargo", cargo_cwd);
    let rustup_home = home_folder(env("RUSTUP_HOME"), home.as_deref(), ".rustup", cargo_cwd);
    let mut toolchain = Toolchain { cargo_home, rustup_home, elsewhere: Vec::new() };

    if let Some(rustup_home) = &toolchain.rustup_home {
        // A linked toolchain is a symbolic link in `toolchains/`; Landlock follows a path to its
        // file, so the link's target needs a rule of its own.
        if let Ok(entries) = std::fs::read_dir(rustup_home.join("toolchains")) {
            for entry in entries.flatten() {
                if entry.file_type().is_ok_and(|kind| kind.is_symlink()) {
                    if let Ok(target) = entry.path().canonicalize() {
                        toolchain.add_elsewhere(target);
                    }
                }
            }
        }
    }
    // `RUSTUP_TOOLCHAIN` may name a toolchain by its folder.
    if let Some(named) = env("RUSTUP_TOOLCHAIN").map(PathBuf::from).filter(|p| p.is_absolute()) {
        if let Ok(folder) = named.canonicalize() {
            toolchain.add_elsewhere(folder);
        }
    }
    let path = env("PATH");
    let rustc = env("RUSTC").unwrap_or_else(|| OsString::from("rustc"));
    for program in [OsString::from("cargo"), rustc.clone()] {
        let Some(found) = on_path(&program, path.as_deref(), cargo_cwd) else { continue };
        let Ok(real) = found.canonicalize() else { continue };
        if toolchain.covers(&real) {
            continue;
        }
        // rustup's proxy runs a toolchain from `RUSTUP_HOME`, already listed; the proxy itself
        // is usually in `CARGO_HOME/bin`, but may be elsewhere (`/usr/bin` from a
        // distribution's package, proxies kept while `CARGO_HOME` points somewhere new): that
        // one file, not its folder (which may be the old `CARGO_HOME/bin`, with an installed
        // tutor in it).
        let proxy = real.file_stem().is_some_and(|stem| stem == "rustup" || stem == "rustup-init");
        if proxy {
            toolchain.add_elsewhere(real);
            continue;
        }
        match sysroot_of(&real) {
            Some(sysroot) => toolchain.add_elsewhere(sysroot),
            None => {
                // Laid out in no known way: the folder of the program itself, and what rustc
                // says its sysroot is (one process, only for such a toolchain).
                if let Some(folder) = real.parent() {
                    toolchain.add_elsewhere(folder.to_path_buf());
                }
                if let Some(sysroot) = asked_sysroot(&rustc, cargo_cwd) {
                    toolchain.add_elsewhere(sysroot);
                }
            }
        }
    }
    toolchain
}

impl Toolchain {
    /// Whether `path` lies beneath a folder already listed.
    fn covers(&self, path: &Path) -> bool {
        let mut listed = self.cargo_home.iter().chain(&self.rustup_home).chain(&self.elsewhere);
        listed.any(|folder| path.starts_with(folder))
    }

    /// What a build of the learner's file may read of `CARGO_HOME`, each with whether it may run
    /// it: the registry (index, downloaded crates, their unpacked sources), git checkouts,
    /// cargo's settings and cache locks, and in `bin/` rustup's proxies alone (the files that are
    /// `bin/rustup`, linked or copied by name), or without rustup there, `cargo`, `rustc` and
    /// `rustdoc`. Not the rest of `bin/` (an installed tutor carries every solution), not
    /// `credentials.toml`, not `env`. Empty without `CARGO_HOME`.
    pub fn build_reads(&self) -> Vec<(PathBuf, bool)> {
        use std::os::unix::fs::MetadataExt;
        let Some(home) = &self.cargo_home else { return Vec::new() };
        let mut reads: Vec<(PathBuf, bool)> = CARGO_HOME_READS.iter().map(|name| (home.join(name), false)).collect();
        let bin = home.join("bin");
        let same_file = |a: &std::fs::Metadata, b: &std::fs::Metadata| a.dev() == b.dev() && a.ino() == b.ino();
        match std::fs::metadata(bin.join("rustup")) {
            Ok(rustup) => {
                let entries = std::fs::read_dir(&bin).into_iter().flatten().flatten();
                let proxies = entries
                    .map(|entry| entry.path())
                    .filter(|path| std::fs::metadata(path).is_ok_and(|meta| same_file(&meta, &rustup)));
                reads.extend(proxies.map(|path| (path, true)));
            }
            Err(_) => reads.extend(["cargo", "rustc", "rustdoc"].iter().map(|name| (bin.join(name), true))),
        }
        reads
    }

    fn add_elsewhere(&mut self, folder: PathBuf) {
        if !self.covers(&folder) {
            self.elsewhere.push(folder);
        }
    }
}

/// `CARGO_HOME` or `RUSTUP_HOME` as rustup and cargo resolve it: the variable (relative to the
/// working folder if relative), else `default` in the home folder; `None` if it does not exist.
fn home_folder(variable: Option<OsString>, home: Option<&Path>, default: &str, cwd: &Path) -> Option<PathBuf> {
    let folder = match variable {
        Some(value) => cwd.join(value),
        None => home?.join(default),
    };
    // Resolved once here, so that `covers` compares resolved paths.
    folder.canonicalize().ok().filter(|folder| folder.is_dir())
}

/// The file `program` names, as `execvp` finds it: itself if it holds a slash, else the first
/// executable file of that name in `path`'s folders (an empty entry means the working folder).
fn on_path(program: &OsString, path: Option<&std::ffi::OsStr>, cwd: &Path) -> Option<PathBuf> {
    use std::os::unix::ffi::OsStrExt;
    use std::os::unix::fs::PermissionsExt;
    if program.as_bytes().contains(&b'/') {
        return Some(cwd.join(program));
    }
    std::env::split_paths(path?).map(|folder| cwd.join(folder).join(program)).find(|candidate| {
        std::fs::metadata(candidate).is_ok_and(|meta| meta.is_file() && meta.permissions().mode() & 0o111 != 0)
    })
}

/// The sysroot holding the program at `real` (a resolved path): `PREFIX` for `PREFIX/bin/NAME`
/// when `PREFIX/lib/rustlib` exists.
fn sysroot_of(real: &Path) -> Option<PathBuf> {
    let bin = real.parent()?;
    let prefix = bin.parent()?;
    (bin.file_name()? == "bin" && prefix.join("lib").join("rustlib").is_dir()).then(|| prefix.to_path_buf())
}

/// `rustc --print sysroot`, for a toolchain laid out in no known way.
fn asked_sysroot(rustc: &OsString, cwd: &Path) -> Option<PathBuf> {
    let output = crate::runner::allowed_env::give_to(&mut Command::new(rustc))
        .args(["--print", "sysroot"])
        .current_dir(cwd)
        .stdin(Stdio::null())
        .stderr(Stdio::null())
        .output()
        .ok()?;
    let text = String::from_utf8(output.stdout).ok()?;
    let sysroot = PathBuf::from(text.trim());
    (output.status.success() && sysroot.is_absolute()).then(|| sysroot.canonicalize().ok()).flatten()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn homes_resolve_like_cargos() {
        let cwd = std::env::temp_dir();
        let home = cwd.clone();
        let resolved = cwd.canonicalize().ok();
        assert_eq!(home_folder(None, Some(&home), ".", &cwd), resolved);
        assert_eq!(home_folder(None, None, ".cargo", &cwd), None);
        assert_eq!(home_folder(Some("/nonexistent/cargo".into()), Some(&home), ".cargo", &cwd), None);
        assert_eq!(home_folder(Some(".".into()), None, ".cargo", &cwd), resolved);
    }

    #[test]
    fn a_standalone_toolchain_is_found_by_its_layout() {
        let root = std::env::temp_dir().join(format!("tutor-toolchain-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        let prefix = root.join("rust");
        std::fs::create_dir_all(prefix.join("bin")).unwrap();
        std::fs::create_dir_all(prefix.join("lib/rustlib")).unwrap();
        std::fs::create_dir_all(root.join("loose")).unwrap();
        std::fs::copy("/bin/true", prefix.join("bin/rustc")).unwrap();
        std::fs::write(root.join("loose/rustc"), "not executable").unwrap();
        let prefix = prefix.canonicalize().unwrap();

        assert_eq!(sysroot_of(&prefix.join("bin/rustc")), Some(prefix.clone()));
        assert_eq!(sysroot_of(&root.join("loose/rustc")), None);
        assert_eq!(sysroot_of(Path::new("/etc/hostname")), None);
        // `execvp`'s search: the first executable file, skipping one that is not executable.
        let path = std::env::join_paths([root.join("loose"), prefix.join("bin")]).unwrap();
        assert_eq!(on_path(&"rustc".into(), Some(&path), Path::new("/")), Some(prefix.join("bin/rustc")));
        assert_eq!(on_path(&"cargo".into(), Some(&path), Path::new("/")), None);
        assert_eq!(on_path(&"./x".into(), Some(&path), Path::new("/w")), Some(PathBuf::from("/w/./x")));
        std::fs::remove_dir_all(&root).unwrap();
    }

    #[test]
    fn the_toolchain_running_this_test_is_covered() {
        let toolchain = find(&std::env::temp_dir());
        let rustc = on_path(&"rustc".into(), std::env::var_os("PATH").as_deref(), Path::new("/"));
        let rustc = rustc.and_then(|p| p.canonicalize().ok()).expect("rustc is on PATH");
        let proxy = rustc.file_stem().is_some_and(|stem| stem == "rustup");
        assert!(proxy || toolchain.covers(&rustc), "{} is outside {toolchain:?}", rustc.display());
        assert!(!proxy || toolchain.rustup_home.is_some(), "rustup's proxy without RUSTUP_HOME: {toolchain:?}");
    }
}
