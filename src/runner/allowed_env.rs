//! The environment cargo and rustc run with: built from an allow list, never tutor's own. A
//! learner's file is compiled by rustc, and what rustc can read a compile can show
//! (`include_str!("/proc/self/environ")`, `env!`); a CI secret in tutor's environment must not
//! be among it. So every tool tutor starts for a build (cargo, rustc on its own, `rustc
//! --print sysroot`, doctor's probes) starts from an empty environment and gets back only what
//! a toolchain needs: where it lives and how it is chosen, cargo's and rustc's settings (their
//! tokens left out), the path, the home, the locale and the terminal's kind.

use std::collections::BTreeMap;
use std::process::Command;

/// Variables given as they are.
const NAMES: [&str; 14] = [
    "PATH",
    "HOME",
    "USER",
    "LOGNAME",
    "TMPDIR",
    "LANG",
    "LANGUAGE",
    "TERM",
    "TZ",
    // A toolchain installed outside the system's library folders may need these to start.
    "LD_LIBRARY_PATH",
    "DYLD_LIBRARY_PATH",
    // A proxy in the way of the registry: cargo fetches the kit's dependencies through it.
    "HTTPS_PROXY",
    "HTTP_PROXY",
    "NO_PROXY",
];

/// Families given as they are: rustup's and cargo's homes and settings, rustc's (`RUSTC`,
/// `RUSTFLAGS`, `RUST_LOG` …), the locale's categories, lower-case proxy names, and the
/// certificates a proxy may need.
const PREFIXES: [&str; 9] =
    ["CARGO_", "RUSTUP_", "RUSTC", "RUSTFLAGS", "RUSTDOCFLAGS", "RUST_", "LC_", "SSL_CERT_", "__CARGO_"];

/// Lower-case spellings of the proxy variables (curl reads these).
const LOWER_CASE: [&str; 4] = ["http_proxy", "https_proxy", "no_proxy", "all_proxy"];

/// Words that mark a secret even in an allowed family (`CARGO_REGISTRY_TOKEN`,
/// `CARGO_REGISTRIES_<NAME>_CREDENTIAL_PROVIDER` …): a build needs none of them.
const SECRET_WORDS: [&str; 4] = ["TOKEN", "CREDENTIAL", "SECRET", "PASSWORD"];

/// Whether a variable of tutor's environment is given to cargo and rustc.
pub fn allowed(name: &str) -> bool {
    let listed = NAMES.contains(&name)
        || LOWER_CASE.contains(&name)
        || PREFIXES.iter().any(|prefix| name.starts_with(prefix))
        || name == "CARGO";
    let upper = name.to_ascii_uppercase();
    listed && !SECRET_WORDS.iter().any(|word| upper.contains(word))
}

/// The allowed part of tutor's environment (variables that are not Unicode left out).
pub fn environment() -> BTreeMap<String, String> {
    std::env::vars_os()
        .filter_map(|(name, value)| Some((name.into_string().ok()?, value.into_string().ok()?)))
        .filter(|(name, _)| allowed(name))
        .collect()
}

/// Makes `command` start from the allowed environment alone (what is set on it afterwards is
/// added on top).
pub fn give_to(command: &mut Command) -> &mut Command {
    command.env_clear().envs(environment())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_toolchain_gets_what_it_needs_and_nothing_else() {
        for name in ["PATH", "HOME", "CARGO_HOME", "RUSTUP_HOME", "RUSTUP_TOOLCHAIN", "RUSTFLAGS", "LC_ALL", "TERM"] {
            assert!(allowed(name), "{name}");
        }
        for name in [
            "AWS_SECRET_ACCESS_KEY",
            "GITHUB_TOKEN",
            "CARGO_REGISTRY_TOKEN",
            "CARGO_REGISTRIES_MINE_TOKEN",
            "TUTOR_LANG",
            "SSH_AUTH_SOCK",
            "LD_PRELOAD",
            "CI_JOB_TOKEN",
        ] {
            assert!(!allowed(name), "{name}");
        }
        let mut command = Command::new("true");
        give_to(&mut command);
        let given: Vec<String> = command.get_envs().filter_map(|(n, v)| v.and(n.to_str())).map(String::from).collect();
        assert!(given.iter().all(|name| allowed(name)), "{given:?}");
    }
}
