//! The harness's files: what each manifest says, what is written and what is removed.

use super::*;

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tutor-harness-{name}-{}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn each_program_is_a_package_over_its_own_given_library_and_runs_no_build_script() {
    let catalogue = Catalogue::embedded().unwrap();
    let workspace: toml::Table = toml::from_str(&manifest(&catalogue)).unwrap();
    assert!(workspace.get("package").is_none(), "a workspace of its own, no package at its root");
    let members = workspace["workspace"]["members"].as_array().unwrap();
    assert_eq!(members.len(), catalogue.exercises.len(), "one program per exercise of every course");
    let lock = lock_file(&catalogue);
    for exercise in &catalogue.exercises {
        let kit = Kit::of(&exercise.course);
        assert!(members.contains(&toml::Value::String(program_dir(exercise))), "{}", exercise.id);
        let program: toml::Table = toml::from_str(&program_manifest(exercise, kit)).unwrap();
        assert_eq!(program["package"]["name"].as_str(), Some(bin_name(exercise).as_str()));
        assert_eq!(program["package"]["build"].as_bool(), Some(false), "no build script may ever run");
        assert_eq!(program["bin"][0]["path"].as_str(), Some(format!("../../{}", bin_path(exercise)).as_str()));
        // Its given library and the registry crates: no other exercise's library, no kit with answers.
        let dependencies = program["dependencies"].as_table().unwrap();
        let paths: Vec<_> = dependencies.values().filter_map(|d| d.get("path")).collect();
        assert_eq!(paths, [&toml::Value::String(format!("../../{}", given::dir(exercise)))], "{}", exercise.id);
        assert_eq!(dependencies[GIVEN]["package"].as_str(), Some(given::package(exercise).as_str()));
        let library: toml::Table =
            toml::from_str(&given::manifest(exercise, &kit.dir, kit.package(), &kit.registry_dependency_lines()))
                .unwrap();
        assert_eq!(library["package"]["build"].as_bool(), Some(false));
        assert_eq!(library["lib"]["crate-type"][0].as_str(), Some("dylib"));
        let kit_dependency = &library["dependencies"][KIT_CORE];
        assert_eq!(kit_dependency["default-features"].as_bool(), Some(false), "no reference module in the kit");
        assert_eq!(kit_dependency["path"].as_str(), Some(format!("../../courses/{}/kit", exercise.course).as_str()));
        for package in [bin_name(exercise), given::package(exercise), kit.package().to_string()] {
            assert!(lock.contains(&format!("name = \"{package}\"")), "{package} in {lock}");
        }
    }
    assert!(lock.contains("name = \"tutor_subject\"") && lock.contains("name = \"ndarray\""), "{lock}");
    // Every optimised package in one codegen unit: no ThinLTO pass across units.
    let packages = workspace["profile"]["dev"]["package"].as_table().unwrap();
    let optimised: Vec<_> = packages.iter().filter(|(_, p)| p.get("opt-level").is_some()).collect();
    assert_eq!(optimised.len(), 1 + catalogue.courses.len() + catalogue.exercises.len(), "{packages:?}");
    for (name, package) in optimised {
        assert_eq!(package["codegen-units"].as_integer(), Some(1), "{name}");
    }
}

#[test]
fn every_kit_is_written_as_a_shared_library_and_otherwise_as_its_course_wrote_it() {
    let private = scratch("shared");
    let catalogue = Catalogue::embedded().unwrap();
    write(&private, &catalogue, &catalogue.exercises[1], "// learner text\n").unwrap();
    for course in embedded::courses() {
        let kit = Kit::of(course.id);
        let written = fs::read_to_string(private.join("harness").join(&kit.dir).join("Cargo.toml")).unwrap();
        let mut written: toml::Table = toml::from_str(&written).unwrap();
        let lib = written.get_mut("lib").and_then(|l| l.as_table_mut()).expect("a [lib] section");
        assert_eq!(lib.remove("crate-type"), Some(toml::Value::Array(vec!["dylib".into()])));
        let mut original = kit.manifest.clone();
        if original.get("lib").is_none() {
            original.insert("lib".into(), toml::Value::Table(toml::Table::new()));
        }
        assert_eq!(written, original, "{}", course.id);
    }
    let named = |manifest: &str| Kit { dir: String::new(), text: "", manifest: toml::from_str(manifest).unwrap() };
    assert_eq!(named("[package]\nname = \"my-course_kit\"\n").library_file(), "libmy_course_kit.so");
    assert_eq!(named("[package]\nname = \"k\"\n[lib]\nname = \"own\"\n").library_file(), "libown.so");
    assert_eq!(as_shared_library("not [toml"), "not [toml", "cargo reports what does not parse");
    let bare: toml::Table = toml::from_str(&as_shared_library("[package]\nname = \"k\"\n")).unwrap();
    assert_eq!(bare["lib"]["crate-type"][0].as_str(), Some("dylib"));
    fs::remove_dir_all(&private).unwrap();
}

#[test]
fn the_path_attribute_escapes_awkward_folder_names() {
    let catalogue = Catalogue::embedded().unwrap();
    let source = bin_source(&catalogue.exercises[0], Path::new("/tmp/a \"quoted\" dir\\x/01-weight.rs"));
    assert!(source.contains(r#"#[path = "/tmp/a \"quoted\" dir\\x/01-weight.rs"]"#), "{source}");
    // Its course lists what 01's cases call: the program serves that, for TODO 1.
    assert!(source.contains("serve::serve(\n        1,") && source.contains("__serve! {"), "{source}");
}

#[test]
fn strays_are_removed_and_tutors_files_kept() {
    let private = scratch("strays");
    let catalogue = Catalogue::embedded().unwrap();
    let exercise = &catalogue.exercises[1];
    let layout = write(&private, &catalogue, exercise, "// learner text\n").unwrap();
    fs::write(layout.root.join("build.rs"), "fn main() {}").unwrap();
    fs::create_dir_all(layout.root.join(".cargo")).unwrap();
    fs::write(layout.root.join(".cargo/config.toml"), "[build]\n").unwrap();
    fs::write(layout.root.join("courses/rmsnorm/kit/src/extra.rs"), "").unwrap();
    fs::create_dir_all(layout.root.join("target/debug")).unwrap();
    fs::write(layout.root.join("target/debug/keep-me"), "").unwrap();
    let layout = write(&private, &catalogue, exercise, "// learner text, changed\n").unwrap();
    assert!(!layout.root.join("build.rs").exists());
    assert!(!layout.root.join(".cargo").exists());
    assert!(!layout.root.join("courses/rmsnorm/kit/src/extra.rs").exists());
    assert!(layout.root.join("target/debug/keep-me").exists(), "cargo's output is left alone");
    assert!(layout.root.join("courses/rmsnorm/kit/src/lib.rs").exists());
    assert!(layout.root.join("crates/subject/src/lib.rs").exists());
    assert_eq!(fs::read_to_string(layout.learner_copy(exercise)).unwrap(), "// learner text, changed\n");
    fs::remove_dir_all(&private).unwrap();
}

#[cfg(unix)]
#[test]
fn a_linked_harness_is_refused_and_linked_strays_are_unlinked_not_followed() {
    let private = scratch("linked");
    let outside = scratch("linked-outside");
    fs::write(outside.join("keep-me.txt"), "not tutor's").unwrap();
    let catalogue = Catalogue::embedded().unwrap();
    let exercise = &catalogue.exercises[1];
    std::os::unix::fs::symlink(&outside, private.join("harness")).unwrap();
    let error = write(&private, &catalogue, exercise, "// text\n").err().expect("refused");
    assert!(error.downcast_ref::<crate::fsutil::LinkedFolder>().is_some(), "{error:#}");
    assert!(outside.join("keep-me.txt").exists());
    fs::remove_file(private.join("harness")).unwrap();
    let layout = write(&private, &catalogue, exercise, "// text\n").unwrap();
    // Links planted inside: to a folder, in place of a kept folder, and in place of a kept file.
    std::os::unix::fs::symlink(&outside, layout.root.join("elsewhere")).unwrap();
    fs::remove_dir_all(layout.root.join("bins")).unwrap();
    std::os::unix::fs::symlink(&outside, layout.root.join("bins")).unwrap();
    fs::remove_file(layout.root.join("Cargo.toml")).unwrap();
    std::os::unix::fs::symlink(outside.join("keep-me.txt"), layout.root.join("Cargo.toml")).unwrap();
    write(&private, &catalogue, exercise, "// text\n").unwrap();
    assert_eq!(fs::read_to_string(outside.join("keep-me.txt")).unwrap(), "not tutor's");
    assert_eq!(fs::read_dir(&outside).unwrap().count(), 1, "nothing written or removed outside");
    assert!(!layout.root.join("elsewhere").exists());
    assert!(layout.root.join("bins").is_dir() && !fs::symlink_metadata(layout.root.join("bins")).unwrap().is_symlink());
    assert!(fs::read_to_string(&layout.manifest).unwrap().contains("[workspace]"));
    fs::remove_dir_all(&private).unwrap();
    fs::remove_dir_all(&outside).unwrap();
}

#[test]
fn an_unchanged_copy_keeps_its_timestamp_and_a_changed_one_is_rewritten() {
    let private = scratch("content");
    let catalogue = Catalogue::embedded().unwrap();
    let exercise = &catalogue.exercises[1];
    let layout = write(&private, &catalogue, exercise, "a").unwrap();
    let before = fs::metadata(layout.learner_copy(exercise)).unwrap().modified().unwrap();
    std::thread::sleep(std::time::Duration::from_millis(20));
    write(&private, &catalogue, exercise, "a").unwrap();
    assert_eq!(fs::metadata(layout.learner_copy(exercise)).unwrap().modified().unwrap(), before);
    write(&private, &catalogue, exercise, "b").unwrap();
    assert!(fs::metadata(layout.learner_copy(exercise)).unwrap().modified().unwrap() > before);
    fs::remove_dir_all(&private).unwrap();
}

#[test]
fn init_builds_every_given_library_and_names_no_kit_which_would_bring_its_answers() {
    let private = scratch("libraries");
    let catalogue = Catalogue::embedded().unwrap();
    let exercise = &catalogue.exercises[1];
    let layout = write(&private, &catalogue, exercise, "// text\n").unwrap();
    let kits: Vec<String> = catalogue.courses.iter().map(|c| Kit::of(&c.id).package().to_string()).collect();
    assert_eq!(layout.library_packages.len(), catalogue.exercises.len());
    for package in layout.library_packages.iter().chain(&layout.program_libraries) {
        assert!(!kits.contains(package), "{package}: cargo would build it with its default features");
    }
    assert_eq!(layout.program_libraries, [given::package(exercise)]);
    fs::remove_dir_all(&private).unwrap();
}

/// Puts back `path`'s modification time to `time` after a change, as a careful hand would.
fn with_time(path: &Path, time: std::time::SystemTime) {
    fs::File::options().write(true).open(path).unwrap().set_modified(time).unwrap();
}

#[test]
fn a_settled_stamp_spares_the_comparison_and_any_change_to_the_harness_brings_it_back() {
    let private = scratch("stamp");
    let catalogue = Catalogue::embedded().unwrap();
    let exercise = &catalogue.exercises[1];
    let layout = write(&private, &catalogue, exercise, "a").unwrap();
    let file = layout.root.join("crates/subject/src/lib.rs");
    let tutors = fs::read_to_string(&file).unwrap();
    let forged = "x".repeat(tutors.len());
    let settle = || stamp::tests::settle(&private, std::time::Duration::from_secs(10));
    // Whether the next write trusts the stamp: it returns the fingerprint marked in it.
    let trusted = |text: &str| {
        stamp::tests::mark(&private, 7);
        let fingerprint = write(&private, &catalogue, exercise, text).unwrap().fingerprint;
        assert_eq!(fs::read_to_string(layout.learner_copy(exercise)).unwrap(), text, "the copy is always written");
        fingerprint == 7
    };

    // Just stamped, the files' times are too recent to tell a change within their tick.
    assert!(!trusted("a"), "a fresh stamp is not trusted");
    settle();
    assert!(trusted("b"), "a settled stamp is trusted");
    assert!(trusted("c"), "and stays trusted");

    // A change with its time put back: its change time tells (Unix), and the file is written again.
    let time = fs::metadata(&file).unwrap().modified().unwrap();
    fs::write(&file, &forged).unwrap();
    with_time(&file, time);
    assert!(!trusted("c") || cfg!(not(unix)));
    assert_eq!(fs::read_to_string(&file).unwrap(), tutors);

    // A file planted deep down, a file replaced by a link, a stray beside the copies: seen.
    settle();
    fs::write(layout.root.join("courses/rmsnorm/kit/src/planted.rs"), "").unwrap();
    assert!(!trusted("c"));
    assert!(!layout.root.join("courses/rmsnorm/kit/src/planted.rs").exists());
    #[cfg(unix)]
    {
        settle();
        fs::remove_file(&layout.manifest).unwrap();
        std::os::unix::fs::symlink(&file, &layout.manifest).unwrap();
        assert!(!trusted("c"));
        assert!(!fs::symlink_metadata(&layout.manifest).unwrap().is_symlink());
    }
    settle();
    fs::write(layout.learner_copy(exercise).with_file_name("stray.rs"), "").unwrap();
    assert!(!trusted("c"));
    assert!(!layout.learner_copy(exercise).with_file_name("stray.rs").exists());

    // Another workspace's stamp (another folder, so another key) is not this one's.
    settle();
    assert!(trusted("c"));
    let moved = private.with_extension("moved");
    fs::rename(&private, &moved).unwrap();
    let fingerprint = write(&moved, &catalogue, exercise, "c").unwrap().fingerprint;
    assert_ne!(fingerprint, 7, "compared: the harness now names other copies");
    fs::remove_dir_all(&moved).unwrap();
}
