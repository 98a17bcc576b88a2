//! The graded program links the course's kit and the standard library as shared libraries, found
//! through its run paths (`-C prefer-dynamic -C rpath`, src/runner/cargo.rs), and is confined to
//! reading just those files (src/runner/confine/elf.rs). What that must not change: a course
//! folder moved elsewhere still checks, and a library that will not load is tutor's problem,
//! never a failure of the learner's code.

use crate::common;

use std::path::PathBuf;

use common::Course;

/// The kit's shared library as rustc wrote it, beside the graded programs.
fn kit_library(course: &Course) -> PathBuf {
    course.root.join(".tutor/harness/target/debug/deps/librmsnorm_kit.so")
}

#[test]
fn the_graded_program_loads_the_kit_and_the_standard_library_from_its_run_paths() {
    let course = Course::new("shared-libraries");
    course.write_exercise("02-norm", &Course::solution("02-norm"));
    course.tutor(&["check", "02"]).expect(0).shows("02-norm passes every check");
    assert!(kit_library(&course).is_file(), "the kit is built as a shared library");
    let deps = course.root.join(".tutor/harness/target/debug/deps");
    let program = std::fs::read_dir(&deps)
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| {
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            name.starts_with("ex_rmsnorm_02_norm-") && p.extension().is_none()
        })
        .expect("the graded program");
    let bytes = std::fs::read(&program).unwrap();
    let elf = goblin::elf::Elf::parse(&bytes).unwrap();
    assert!(elf.libraries.contains(&"librmsnorm_kit.so"), "{:?}", elf.libraries);
    assert!(elf.libraries.iter().any(|l| l.starts_with("libstd-")), "{:?}", elf.libraries);
    assert!(elf.runpaths.iter().any(|p| p.contains("$ORIGIN")), "{:?}", elf.runpaths);
}

#[test]
fn a_course_folder_moved_deeper_still_checks() {
    let course = Course::new("moved");
    course.write_exercise("02-norm", &Course::solution("02-norm"));
    course.tutor(&["check", "02"]).expect(0);
    // Moved one folder deeper: every run path relative to the program now climbs one folder
    // short, unless the program is built again where it now is.
    let moved = Course { root: course.root.with_extension("moved").join("deeper") };
    std::fs::create_dir_all(moved.root.parent().unwrap()).unwrap();
    std::fs::rename(&course.root, &moved.root).unwrap();
    std::mem::forget(course);
    moved.tutor(&["check", "02"]).expect(0).shows("02-norm passes every check");
    moved.write_exercise("02-norm", &format!("{}\n// edited\n", Course::solution("02-norm")));
    moved.tutor(&["check", "02"]).expect(0).shows("02-norm passes every check");
    let _ = std::fs::remove_dir_all(moved.root.parent().unwrap());
}

#[test]
fn a_library_that_will_not_load_is_a_tool_problem_and_progress_is_untouched() {
    let course = Course::new("broken-library");
    course.write_exercise("02-norm", &Course::solution("02-norm"));
    course.tutor(&["check", "02"]).expect(0);
    let state = course.state();
    // The same size and time, other bytes: nothing tells a rebuild is due, and the loader
    // refuses the file.
    let library = kit_library(&course);
    let original = std::fs::read(&library).unwrap();
    let modified = std::fs::metadata(&library).unwrap().modified().unwrap();
    std::fs::write(&library, vec![0u8; original.len()]).unwrap();
    std::fs::File::options().write(true).open(&library).unwrap().set_modified(modified).unwrap();
    course
        .tutor(&["check", "02"])
        .expect(2)
        .shows("the graded program could not start (not an error in your code)")
        .shows("error while loading shared libraries")
        .shows("Removing the folder .tutor/harness/target")
        .hides("cases pass")
        .hides("your code ended the graded program");
    assert_eq!(course.state(), state, "progress is untouched");

    // As the message says: without the build folder, the next check builds it again.
    std::fs::remove_dir_all(course.root.join(".tutor/harness/target")).unwrap();
    course.tutor(&["check", "02"]).expect(0).shows("02-norm passes every check");
}

#[test]
fn a_file_that_defines_a_symbol_of_the_kit_or_the_standard_library_is_not_run() {
    // The loader binds a shared library to the program's definitions first: a file that
    // defines the kit's refusal of its own answer as a function that refuses nothing, or the
    // standard library's `panic_fmt` that the kit calls to refuse, would pass with the kit's
    // answer. Such a program is refused before it runs.
    let course = Course::new("interposed");
    let bytes = std::fs::read(kit_library(&course)).unwrap();
    let kit = goblin::elf::Elf::parse(&bytes).unwrap();
    let symbol = |defined: bool, part: &str| {
        let symbols = kit.dynsyms.iter().filter(|s| (s.st_shndx != 0) == defined);
        let name = symbols.filter_map(|s| kit.dynstrtab.get_at(s.st_name)).find(|name| name.contains(part));
        name.unwrap_or_else(|| panic!("the kit's dynamic symbols name {part}")).to_string()
    };
    let answer = "return reference::rms_normalize(x, self.eps);\n        let last = Axis";
    for symbol in [symbol(true, "refuse_if_answer"), symbol(false, "panic_fmt")] {
        let file = format!(
            "{}\n#[export_name = \"{symbol}\"]\npub fn replaced(_: &str, _: &[u32], _: &[u32]) {{}}\n",
            Course::solution("02-norm").replace("let last = Axis", answer)
        );
        course.write_exercise("02-norm", &file);
        course
            .tutor(&["check", "02"])
            .expect(1)
            .shows(&format!("defines `{symbol}`, which the kit or the standard library has too"))
            .hides("cases pass");
    }
    // The kit's calls to its own functions are bound inside it besides (-Bsymbolic).
    let flags = kit.dynamic.as_ref().map(|d| d.info.flags).unwrap_or_default();
    assert_ne!(flags & goblin::elf::dynamic::DF_SYMBOLIC, 0, "the kit is linked -Bsymbolic");
}
