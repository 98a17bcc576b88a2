//! Linking a replayed build with the toolchain's own lld, without the C compiler driver.
//!
//! rustc links a graded program by running `cc`, which runs `collect2`, which runs the
//! toolchain's `ld.lld` wrapper, which runs `rust-lld`: four programs started for one link, and
//! lld on every core of the machine for a few objects. Of a warm re-check's 60 ms of rustc here,
//! that is about 6 ms (measured: `bench/every_exercise.sh`). rustc can run `rust-lld` itself
//! (`-C linker-flavor=ld.lld`), but then nothing adds what the driver adds around rustc's
//! arguments: the C runtime's start and end objects, the dynamic loader's path, its search
//! folders. Those are the driver's answer to `-###` for the very command rustc gives it, so they
//! are read from it once per compiler and driver, and kept (`.tutor/builds/link.json`).
//!
//! Nothing is trusted unproven: a small program is built both ways and must run, unwind a
//! panic, and load the same loader and libraries, or every build keeps linking through `cc`.
//! A replay whose direct link fails is run again through `cc` (`super::build`), and if that one
//! links, the direct link is given up for good.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use serde::{Deserialize, Serialize};

use super::replay::{is_assignment, Invocation};
use crate::fsutil::below::write_below;
use crate::fsutil::regular::{read_text, Links};

/// What a probe prints when it started, ran, and caught a panic by unwinding.
const PROBE_SAYS: &str = "unwound\n";

/// A program that needs what a graded program needs of its link: the loader, the standard
/// library as a shared library, unwinding through its frames, its output.
const PROBE: &str = "fn main() {\n\
    std::panic::set_hook(Box::new(|_| {}));\n\
    let caught = std::panic::catch_unwind(|| if std::env::args().count() < 64 { panic!(\"probe\") });\n\
    print!(\"{}\", if caught.is_err() { \"unwound\\n\" } else { \"not unwound\\n\" });\n\
}\n";

/// The direct link as derived for one compiler and driver, or why there is none.
#[derive(Debug, Serialize, Deserialize)]
struct Kept {
    key: String,
    arguments: Option<Vec<String>>,
    why_not: Option<String>,
}

fn kept_at(private_dir: &Path) -> PathBuf {
    private_dir.join("builds").join("link.json")
}

/// The arguments that make rustc link `invocation`'s program with `rust-lld` itself, derived
/// and proven once for its compiler and the C compiler driver (then kept); `None` where the
/// direct link is not for this system or did not prove itself. `temp` is a folder the probes
/// may use.
pub fn arguments(private_dir: &Path, invocation: &Invocation, temp: &Path) -> Option<Vec<String>> {
    let key = key(invocation)?;
    let file = kept_at(private_dir);
    if let Some(kept) = read_text(&file, Links::Refuse).and_then(|t| serde_json::from_str::<Kept>(&t).ok()) {
        if kept.key == key {
            return kept.arguments;
        }
    }
    let derived = derive(invocation, &temp.join("link-probe"));
    let kept = match derived {
        Ok(arguments) => Kept { key, arguments: Some(arguments), why_not: None },
        Err(why) => Kept { key, arguments: None, why_not: Some(why) },
    };
    keep(private_dir, &kept);
    kept.arguments
}

/// Gives up the direct link for `invocation`'s compiler: a replay linked through `cc` where the
/// direct link failed.
pub fn give_up(private_dir: &Path, invocation: &Invocation, why: &str) {
    if let Some(key) = key(invocation) {
        keep(private_dir, &Kept { key, arguments: None, why_not: Some(why.to_string()) });
    }
}

fn keep(private_dir: &Path, kept: &Kept) {
    if let Ok(text) = serde_json::to_string_pretty(kept) {
        let _ = write_below(private_dir, &kept_at(private_dir), &text);
    }
}

/// `args` as rustc takes them with a linker of the `ld` kind: the driver's `-Wl,a,b` link
/// arguments as `a` and `b`. `None` when a link argument is for the driver alone.
pub fn adapted(args: &[String]) -> Option<Vec<String>> {
    let mut out = Vec::with_capacity(args.len());
    let mut words = args.iter();
    while let Some(arg) = words.next() {
        let value = match arg.as_str() {
            "-C" => match words.next() {
                Some(next) => next.clone(),
                None => return Some(out),
            },
            other => match other.strip_prefix("-C") {
                Some(value) => value.to_string(),
                None => {
                    out.push(arg.clone());
                    continue;
                }
            },
        };
        match value.strip_prefix("link-arg=") {
            Some(link_arg) => {
                let parts = link_arg.strip_prefix("-Wl,")?;
                out.extend(parts.split(',').map(|part| format!("-Clink-arg={part}")));
            }
            None if value.starts_with("link-args=") || value.starts_with("linker") => return None,
            None => out.push(format!("-C{value}")),
        }
    }
    Some(out)
}

/// What the direct link depends on: the compiler, the driver (`cc` on the path) and tutor's own
/// way of deriving it.
fn key(invocation: &Invocation) -> Option<String> {
    let stamp = |path: &Path| -> Option<String> {
        let metadata = std::fs::metadata(path).ok()?;
        let modified = metadata.modified().ok()?.duration_since(std::time::UNIX_EPOCH).ok()?;
        Some(format!("{} {} {}", path.display(), metadata.len(), modified.as_nanos()))
    };
    let driver = std::env::var_os("PATH")
        .and_then(|paths| std::env::split_paths(&paths).map(|dir| dir.join("cc")).find(|cc| cc.is_file()))?;
    Some(format!("{} | {} | {}", stamp(&invocation.program)?, stamp(&driver)?, env!("TUTOR_COMMIT")))
}

/// Derives the direct link's arguments in the scratch folder `dir` and proves them.
fn derive(invocation: &Invocation, dir: &Path) -> Result<Vec<String>, String> {
    if !cfg!(all(target_os = "linux", target_env = "gnu")) {
        return Err("not a GNU/Linux system".into());
    }
    let flags = adapted(&invocation.args).ok_or("the build gives the driver arguments of its own")?;
    let sysroot = invocation.program.parent().and_then(Path::parent).ok_or("no toolchain folder")?;
    let lld = sysroot.join("lib/rustlib").join(env!("TUTOR_TARGET")).join("bin/rust-lld");
    if !lld.is_file() {
        return Err(format!("no {}", lld.display()));
    }
    let _ = std::fs::remove_dir_all(dir);
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    std::fs::write(dir.join("probe.rs"), PROBE).map_err(|e| e.to_string())?;
    let link_flags: Vec<&String> = flags.iter().filter(|f| f.starts_with("-Clink-arg=")).collect();
    let compile = |out: &str, more: &[String]| -> Result<String, String> {
        let mut command = Command::new(&invocation.program);
        super::allowed_env::give_to(&mut command);
        invocation.environment.apply_to(&mut command);
        command.current_dir(dir).env("TMPDIR", dir).stdin(Stdio::null());
        command.args([
            "probe.rs",
            "--crate-type",
            "bin",
            "--edition",
            "2021",
            "-Cprefer-dynamic",
            "-Crpath",
            "-o",
            out,
        ]);
        command.args(&link_flags).args(more);
        let output = command.output().map_err(|e| format!("rustc: {e}"))?;
        if !output.status.success() {
            return Err(format!("the probe did not build: {}", String::from_utf8_lossy(&output.stderr)));
        }
        Ok(String::from_utf8_lossy(&output.stdout).into_owned())
    };
    let printed = compile("through-cc", &["--print".into(), "link-args".into()])?;
    let arguments = around_rustcs(&printed, dir)?;
    let mut direct = vec!["-Clinker-flavor=ld.lld".to_string(), format!("-Clinker={}", lld.display())];
    direct.extend(arguments.iter().map(|a| format!("-Clink-arg={a}")));
    // A few objects: one thread links them sooner than two that must be started.
    direct.push("-Clink-arg=--threads=1".into());
    compile("direct", &direct)?;
    for probe in ["through-cc", "direct"] {
        let output = Command::new(dir.join(probe)).env_clear().stdin(Stdio::null()).output();
        let said = output.map(|o| String::from_utf8_lossy(&o.stdout).into_owned()).unwrap_or_default();
        if said != PROBE_SAYS {
            return Err(format!("the probe linked {probe} said {said:?}"));
        }
    }
    if super::confine::linked_shape(&dir.join("through-cc")) != super::confine::linked_shape(&dir.join("direct")) {
        return Err("the probes load different loaders or libraries".into());
    }
    let _ = std::fs::remove_dir_all(dir);
    Ok(direct)
}

/// What the driver adds around rustc's arguments, from the link command rustc printed (`--print
/// link-args`): the driver's own linker command for it (`-###`), less rustc's part, the output,
/// and the compiler plugin.
fn around_rustcs(printed: &str, dir: &Path) -> Result<Vec<String>, String> {
    let line = printed.lines().find(|l| l.contains("\"-o\"")).ok_or("rustc printed no link command")?;
    let words = shlex::split(line).ok_or("the link command does not parse")?;
    let first = words.iter().position(|w| !is_assignment(w)).ok_or("no driver in the link command")?;
    let (driver, args) = words[first..].split_first().ok_or("no driver")?;
    let mut command = Command::new(driver);
    command.env_clear().envs(super::allowed_env::environment());
    for word in &words[..first] {
        if let Some((name, value)) = word.split_once('=') {
            command.env(name, value);
        }
    }
    let output = command.arg("-###").args(args).current_dir(dir).output().map_err(|e| format!("{driver}: {e}"))?;
    let said = String::from_utf8_lossy(&output.stderr);
    let objects: Vec<&String> = args.iter().filter(|a| a.ends_with(".o")).collect();
    let first_object = objects.first().ok_or("rustc's link command has no object")?;
    let link = said
        .lines()
        .filter_map(shlex::split)
        .find(|words| words.iter().any(|w| w == *first_object))
        .ok_or("the driver's answer has no link command")?;
    let start = link.iter().position(|w| w == *first_object).ok_or("no object")?;
    let ends: usize = link.iter().rev().take_while(|w| w.ends_with(".o") && !objects.contains(w)).count();
    // rustc's own search folders it gives again itself (one of them temporary).
    let rustcs_folders: Vec<&String> = args.windows(2).filter(|w| w[0] == "-L").map(|w| &w[1]).collect();
    let rustcs = |folder: &str| rustcs_folders.iter().any(|r| r.as_str() == folder);
    let mut kept = Vec::new();
    let mut before = link[1..start].iter();
    while let Some(word) = before.next() {
        match word.as_str() {
            "-plugin" | "-o" => {
                before.next();
            }
            "-L" => match before.next() {
                Some(folder) if !rustcs(folder) => kept.extend(["-L".to_string(), folder.clone()]),
                _ => {}
            },
            // collect2's own: the compiler's plugin, and the linker it is to run.
            w if w.starts_with("-plugin-opt=") || w.starts_with("-fuse-ld=") => {}
            w if w.strip_prefix("-L").is_some_and(rustcs) => {}
            _ => kept.push(word.clone()),
        }
    }
    kept.extend(link[link.len() - ends..].iter().cloned());
    if !kept.iter().any(|w| w.ends_with(".o")) {
        return Err("the driver adds no start object".into());
    }
    Ok(kept)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strings(words: &[&str]) -> Vec<String> {
        words.iter().map(|w| w.to_string()).collect()
    }

    #[test]
    fn the_drivers_link_arguments_are_given_to_lld_itself_and_its_own_options_refuse_it() {
        let args = strings(&[
            "--crate-type",
            "bin",
            "-Cprefer-dynamic",
            "-C",
            "opt-level=0",
            "-Clink-arg=-Wl,-Bsymbolic,-z,now",
        ]);
        assert_eq!(
            adapted(&args).unwrap(),
            strings(&[
                "--crate-type",
                "bin",
                "-Cprefer-dynamic",
                "-Copt-level=0",
                "-Clink-arg=-Bsymbolic",
                "-Clink-arg=-z",
                "-Clink-arg=now"
            ])
        );
        assert!(adapted(&strings(&["-Clink-arg=-fuse-ld=mold"])).is_none(), "for the driver alone");
        assert!(adapted(&strings(&["-C", "linker=clang"])).is_none(), "a linker of its own");
        assert!(adapted(&strings(&["-Clink-args=-Wl,-x"])).is_none());
    }

    #[test]
    fn what_the_driver_adds_is_read_from_its_answer_less_rustcs_part() {
        let dir = std::env::temp_dir().join(format!("tutor-direct-link-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let driver = dir.join("fake-cc");
        // A driver that answers `-###` as gcc does, around the objects it was given.
        std::fs::write(
            &driver,
            "#!/bin/sh\necho 'gcc version 12' >&2\n\
             printf ' \"/usr/libexec/collect2\" \"-plugin\" \"/p.so\" \"-plugin-opt=-x\" \"--build-id\" \"-m\" \"elf_x86_64\" \
             \"-dynamic-linker\" \"/lib64/ld.so\" \"-pie\" \"-fuse-ld=lld\" \"-o\" \"out\" \"/crt/Scrt1.o\" \"/crt/crti.o\" \
             \"-L/sys/lib\" \"-L/gcc\"' >&2\n\
             for a in \"$@\"; do case \"$a\" in *.o) printf ' \"%s\"' \"$a\" >&2;; esac; done\n\
             printf ' \"-Bsymbolic\" \"/crt/crtendS.o\" \"/crt/crtn.o\"\\n' >&2\n",
        )
        .unwrap();
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&driver, std::fs::Permissions::from_mode(0o755)).unwrap();
        let printed = format!(
            "LC_ALL=\"C\" \"{}\" \"-m64\" \"/t/symbols.o\" \"/t/a.rcgu.o\" \"-L\" \"/sys/lib\" \"-o\" \"/t/probe\" \"-Wl,-Bsymbolic\"\n",
            driver.display()
        );
        let kept = around_rustcs(&printed, &dir).unwrap();
        assert_eq!(
            kept,
            strings(&[
                "--build-id",
                "-m",
                "elf_x86_64",
                "-dynamic-linker",
                "/lib64/ld.so",
                "-pie",
                "/crt/Scrt1.o",
                "/crt/crti.o",
                "-L/gcc",
                "/crt/crtendS.o",
                "/crt/crtn.o"
            ])
        );
        assert!(around_rustcs("no command here", &dir).is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
