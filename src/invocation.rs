//! How the learner started tutor, so that every command tutor suggests is one they can type:
//! `tutor hint 02-norm` where tutor is installed, `cargo run -- hint 02-norm` in a clone of the
//! repository, where no `tutor` is on PATH.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// The way tutor was started.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Launcher {
    /// An installed `tutor` (or one on PATH).
    Installed,
    /// `cargo run` in a clone of tutor's repository.
    CargoRun,
}

impl Launcher {
    /// What the learner types before a subcommand: every command tutor suggests starts with it
    /// (the templates of `crate::text` write it `{tutor}`, and `text::fill` puts it in).
    pub fn prefix(self) -> &'static str {
        match self {
            Launcher::Installed => "tutor",
            Launcher::CargoRun => "cargo run --",
        }
    }
}

/// Course text (lessons, hints, explanations) with its commands written the way the learner
/// started tutor: each `` `tutor `` becomes `` `cargo run -- `` in a clone.
pub fn course_text(text: &str) -> String {
    match launcher() {
        Launcher::Installed => text.to_string(),
        launcher => text.replace("`tutor ", &format!("`{} ", launcher.prefix())),
    }
}

/// The way this process was started, found once.
pub fn launcher() -> Launcher {
    static FOUND: OnceLock<Launcher> = OnceLock::new();
    *FOUND.get_or_init(|| {
        let env = |name: &str| std::env::var_os(name).map(PathBuf::from);
        detect(&env, std::env::current_exe().ok().as_deref(), std::env::current_dir().ok().as_deref())
    })
}

/// `cargo run` started us in a clone of the repository when cargo says so (it sets
/// `CARGO_MANIFEST_DIR` and `CARGO_PKG_NAME` for the program it runs), or when the executable is
/// the clone's own build (`<clone>/target/debug/tutor`); in both cases only while the learner's
/// current folder is inside that clone, where `cargo run` works. A test harness that runs the
/// built binary in some other folder passes those variables on too, and gets `tutor`.
fn detect(env: &dyn Fn(&str) -> Option<PathBuf>, exe: Option<&Path>, here: Option<&Path>) -> Launcher {
    let Some(here) = here else { return Launcher::Installed };
    // Inside the clone, but not inside its build output, where tests keep courses of their own.
    let inside = |clone: &PathBuf| here.starts_with(clone) && !here.starts_with(clone.join("target"));
    let by_cargo = env("CARGO_MANIFEST_DIR")
        .filter(|_| env("CARGO_PKG_NAME").is_some_and(|name| name == Path::new("tutor")))
        .filter(inside);
    let by_build = exe.and_then(clone_of_build).filter(inside);
    if by_cargo.is_some() || by_build.is_some() {
        Launcher::CargoRun
    } else {
        Launcher::Installed
    }
}

/// The clone whose `target/{debug,release}` holds `exe`, if its `Cargo.toml` is tutor's.
fn clone_of_build(exe: &Path) -> Option<PathBuf> {
    let profile = exe.parent()?;
    let target = profile.parent()?;
    let is_build = matches!(profile.file_name()?.to_str()?, "debug" | "release") && target.file_name()? == "target";
    let clone = target.parent()?;
    (is_build && is_tutor_manifest(&clone.join("Cargo.toml"))).then(|| clone.to_path_buf())
}

/// Whether a `Cargo.toml` declares the `tutor` package.
fn is_tutor_manifest(path: &Path) -> bool {
    let Some(text) = crate::fsutil::regular::read_text(path, crate::fsutil::regular::Links::Follow) else {
        return false;
    };
    let Ok(manifest) = text.parse::<toml::Table>() else { return false };
    manifest.get("package").and_then(|p| p.get("name")).and_then(|n| n.as_str()) == Some("tutor")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env_of(pairs: &'static [(&'static str, &'static str)]) -> impl Fn(&str) -> Option<PathBuf> {
        move |name| pairs.iter().find(|(k, _)| *k == name).map(|(_, v)| PathBuf::from(v))
    }

    #[test]
    fn cargo_run_inside_the_clone_suggests_cargo_run() {
        let cargo = env_of(&[("CARGO_MANIFEST_DIR", "/home/me/tutor"), ("CARGO_PKG_NAME", "tutor")]);
        let inside = Path::new("/home/me/tutor/exercises");
        assert_eq!(detect(&cargo, None, Some(inside)), Launcher::CargoRun);
        // The same variables, inherited by a run somewhere else (a test's temporary course).
        assert_eq!(detect(&cargo, None, Some(Path::new("/tmp/course"))), Launcher::Installed);
        // Another package's `cargo run`.
        let other = env_of(&[("CARGO_MANIFEST_DIR", "/home/me/tutor"), ("CARGO_PKG_NAME", "other")]);
        assert_eq!(detect(&other, None, Some(inside)), Launcher::Installed);
        assert_eq!(detect(&env_of(&[]), None, Some(inside)), Launcher::Installed);
    }

    #[test]
    fn the_clones_own_build_is_recognised_by_its_manifest() {
        let clone = Path::new(env!("CARGO_MANIFEST_DIR"));
        let exe = clone.join("target/debug/tutor");
        assert_eq!(clone_of_build(&exe).as_deref(), Some(clone));
        assert_eq!(detect(&env_of(&[]), Some(&exe), Some(clone)), Launcher::CargoRun);
        assert_eq!(detect(&env_of(&[]), Some(&exe), Some(Path::new("/tmp"))), Launcher::Installed);
        // A course a test keeps in the build output is not the clone's own course.
        assert_eq!(detect(&env_of(&[]), Some(&exe), Some(&clone.join("target/tmp/course"))), Launcher::Installed);
        assert_eq!(clone_of_build(Path::new("/usr/local/bin/tutor")), None);
        assert_eq!(Launcher::CargoRun.prefix(), "cargo run --");
    }
}
