//! A hostile exercise file: shows the compiler's environment (`/proc/self/environ`, read by
//! rustc at compile time) in a compile error. rustc runs with an environment built from an
//! allow list, so no secret of tutor's own is there to show.
//! exercise: 02-norm
//! shows: exercises/rmsnorm/02-norm.rs does not compile
//! hides: TUTOR_LANG=

const _: () = panic!("{}", include_str!("/proc/self/environ"));
