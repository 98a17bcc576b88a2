//! The direct link's arguments, as read from the build and from the driver's answers.

use super::*;

fn strings(words: &[&str]) -> Vec<String> {
    words.iter().map(|w| w.to_string()).collect()
}

#[test]
fn the_drivers_link_arguments_are_given_to_lld_itself_and_its_own_options_refuse_it() {
    let args =
        strings(&["--crate-type", "bin", "-Cprefer-dynamic", "-C", "opt-level=0", "-Clink-arg=-Wl,-Bsymbolic,-z,now"]);
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
    assert!(adapted(&strings(&["--target", "aarch64-unknown-linux-gnu"])).is_none(), "another target");
    // Through the driver, the link arguments as they were given.
    assert_eq!(link_arguments(&args), strings(&["-Clink-arg=-Wl,-Bsymbolic,-z,now"]));
    assert_eq!(link_arguments(&strings(&["-C", "link-arg=-Wl,-x"])), strings(&["-Clink-arg=-Wl,-x"]));
    assert!(is_link_failure("linking with `cc` failed: exit status: 1"));
    assert!(is_link_failure("linker `/t/rust-lld` not found"));
    assert!(!is_link_failure("mismatched types"));
}

/// A driver at `dir/fake-cc` that answers `-###` on stderr with `prefix`, the objects it was
/// given (quoted) and `suffix`; `None` for one that does not answer; and the link command rustc
/// would print for it.
fn fake_driver(dir: &Path, answer: Option<(&str, &str)>) -> String {
    std::fs::create_dir_all(dir).unwrap();
    let body = match answer {
        Some((prefix, suffix)) => {
            std::fs::write(dir.join("prefix"), prefix).unwrap();
            std::fs::write(dir.join("suffix"), suffix).unwrap();
            "cat prefix >&2\nfor a in \"$@\"; do case \"$a\" in *.o) printf ' \"%s\"' \"$a\" >&2;; esac; done\n\
             printf ' ' >&2; cat suffix >&2\n"
        }
        None => "echo 'unknown option -###' >&2\nexit 1\n",
    };
    let driver = dir.join("fake-cc");
    std::fs::write(&driver, format!("#!/bin/sh\ncd \"$(dirname \"$0\")\"\n{body}")).unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&driver, std::fs::Permissions::from_mode(0o755)).unwrap();
    format!(
        "LC_ALL=\"C\" \"{}\" \"-m64\" \"/t/symbols.o\" \"/t/a.rcgu.o\" \"-L\" \"/sys/lib\" \"-B/tc/gcc-ld\" \
         \"-fuse-ld=lld\" \"-o\" \"/t/probe\" \"-Wl,-Bsymbolic\"\n",
        driver.display()
    )
}

#[test]
fn what_the_driver_adds_is_read_from_its_answer_less_rustcs_part() {
    let dir = std::env::temp_dir().join(format!("tutor-direct-link-{}", std::process::id()));
    // gcc: collect2, with its plugin and rustc's folders, around the objects.
    let gcc = " \"/usr/libexec/collect2\" \"-plugin\" \"/p.so\" \"-plugin-opt=-x\" \"--build-id\" \"-m\" \
               \"elf_x86_64\" \"-dynamic-linker\" \"/lib64/ld.so\" \"-pie\" \"-fuse-ld=lld\" \"-o\" \"out\" \
               \"/crt/Scrt1.o\" \"/crt/crti.o\" \"-L/sys/lib\" \"-L/tc/gcc-ld\" \"-L/gcc\"";
    let printed = fake_driver(&dir, Some((gcc, "\"-Bsymbolic\" \"/crt/crtendS.o\" \"/crt/crtn.o\"\n")));
    let expected = [
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
        "/crt/crtn.o",
    ];
    assert_eq!(driver_additions(&printed, &dir).unwrap(), strings(&expected));
    // clang: the linker itself, its search folders as separate words.
    let clang = " \"/usr/bin/ld.lld\" \"-pie\" \"-dynamic-linker\" \"/lib64/ld.so\" \"-o\" \"out\" \
                 \"/crt/Scrt1.o\" \"-L\" \"/sys/lib\" \"-L\" \"/clang\"";
    let printed = fake_driver(&dir, Some((clang, "\"/crt/crtn.o\"\n")));
    let expected = ["-pie", "-dynamic-linker", "/lib64/ld.so", "/crt/Scrt1.o", "-L", "/clang", "/crt/crtn.o"];
    assert_eq!(driver_additions(&printed, &dir).unwrap(), strings(&expected));
    // A driver that does not answer `-###`, and no command at all.
    let printed = fake_driver(&dir, None);
    assert!(matches!(driver_additions(&printed, &dir), Err(NoLink::Never(_))));
    assert!(matches!(driver_additions("no command here", &dir), Err(NoLink::Never(_))));
    std::fs::remove_dir_all(&dir).unwrap();
}
