//! Every sentence the CLI prints, one file per language (`zh.rs`, `en.rs`), one field per
//! sentence. The compiler checks that both files define every field.
//!
//! Templates name their holes: `{id}`, `{n}` …, filled by [`fill`].

mod en;
mod zh;

use crate::course::lesson::{Language, LessonError, LessonProblem};

/// The languages a learner can ask for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum LangChoice {
    /// 中文 only.
    Zh,
    /// English only.
    En,
    /// Chinese, then English.
    Both,
}

impl LangChoice {
    /// The content languages to show, in order.
    pub fn languages(self) -> &'static [Language] {
        match self {
            LangChoice::Zh => &[Language::Zh],
            LangChoice::En => &[Language::En],
            LangChoice::Both => &Language::BOTH,
        }
    }

    /// Reads `TUTOR_LANG` (zh, en, both); anything else means both.
    pub fn from_env() -> Self {
        match std::env::var("TUTOR_LANG").unwrap_or_default().to_lowercase().as_str() {
            "zh" | "cn" | "zh-cn" => LangChoice::Zh,
            "en" => LangChoice::En,
            _ => LangChoice::Both,
        }
    }
}

/// The UI text of one language.
pub fn ui(language: Language) -> &'static Ui {
    match language {
        Language::Zh => &zh::UI,
        Language::En => &en::UI,
    }
}

/// Replaces each `{name}` in `template` with its value, and `{tutor}` (the start of every command
/// tutor suggests) with what the learner types to run tutor (see [`crate::invocation`]).
pub fn fill(template: &str, values: &[(&str, &dyn std::fmt::Display)]) -> String {
    let mut out = template.replace("{tutor}", crate::invocation::launcher().prefix());
    for (name, value) in values {
        // A value comes from outside the catalogue (a name typed, a path, a file's text, an
        // error's): shown, never obeyed.
        out = out.replace(&format!("{{{name}}}"), &crate::render::shown(&value.to_string()));
    }
    out
}

/// A lesson's problem in one language, with its line when it has one.
pub fn lesson_problem(language: Language, error: &LessonError) -> String {
    let ui = ui(language);
    let problem = match &error.problem {
        LessonProblem::Unterminated => ui.lesson_unterminated.to_string(),
        LessonProblem::Twice(section) => fill(ui.lesson_twice, &[("section", section)]),
        LessonProblem::HintNotANumber(n) => fill(ui.lesson_hint_not_number, &[("n", n)]),
        LessonProblem::HintZero => ui.lesson_hint_zero.to_string(),
        LessonProblem::UnknownMarker(marker) => fill(ui.lesson_unknown_marker, &[("marker", marker)]),
        LessonProblem::UnknownLanguage(word) => fill(ui.lesson_unknown_language, &[("language", word)]),
        LessonProblem::TooFewHints { count, min } => fill(ui.lesson_too_few_hints, &[("count", count), ("min", min)]),
        LessonProblem::Missing(section) => fill(ui.lesson_missing_section, &[("section", section)]),
    };
    match error.line {
        Some(line) => fill(ui.lesson_at_line, &[("line", &line), ("problem", &problem)]),
        None => problem,
    }
}

/// One language's sentences.
pub struct Ui {
    pub error: &'static str,
    pub internal_error: &'static str,
    pub unknown_exercise: &'static str,
    pub ambiguous_exercise: &'static str,
    pub name_also_means: &'static str,
    pub did_you_mean: &'static str,
    pub see_list: &'static str,
    pub no_workspace: &'static str,
    pub not_a_workspace: &'static str,
    pub state_corrupt: &'static str,
    pub status_done: &'static str,
    pub status_failing: &'static str,
    pub status_not_started: &'static str,
    pub status_revealed: &'static str,
    /// In the list, beside "done": `{time}` of the failing check after the pass.
    pub status_failed_after_pass: &'static str,
    /// After a failing check of an exercise that had passed: `{id}`, `{time}`.
    pub pass_kept: &'static str,
    pub hints_used: &'static str,
    pub current: &'static str,
    pub progress: &'static str,
    pub next_step: &'static str,
    pub all_done: &'static str,
    pub checking: &'static str,
    pub first_build: &'static str,
    pub compiling: &'static str,
    pub waiting_for_lock: &'static str,
    pub does_not_compile: &'static str,
    pub fix_and_retry: &'static str,
    pub diagnostics_omitted: &'static str,
    pub case_passed: &'static str,
    pub case_failed: &'static str,
    pub case_not_done: &'static str,
    pub mistake_named: &'static str,
    pub mismatched_elements: &'static str,
    pub greatest_abs: &'static str,
    pub greatest_rel: &'static str,
    /// The first NaN or infinity where the reference is a number, without its input.
    pub non_finite_plain: &'static str,
    /// The same, from an input element (`x[3] = 89.5`).
    pub non_finite_element: &'static str,
    /// The same, from an input row (its first values, length and largest magnitude).
    pub non_finite_row: &'static str,
    pub side_by_side: &'static str,
    pub index: &'static str,
    pub expected: &'static str,
    pub actual: &'static str,
    pub summary: &'static str,
    pub passed_all: &'static str,
    pub next_exercise: &'static str,
    pub course_complete: &'static str,
    /// After a chapter's end, its next one: `{course}` (title), `{course_id}`, `{id}`, `{file}`.
    pub next_chapter: &'static str,
    pub todo_not_done: &'static str,
    pub timed_out: &'static str,
    pub build_timed_out: &'static str,
    pub compiler_died: &'static str,
    pub foreign_sources: &'static str,
    /// The learner's file defines symbols of the kit or the standard library: `{file}`, `{symbols}`.
    pub replaces_library_code: &'static str,
    pub not_regular_file: &'static str,
    pub file_too_large: &'static str,
    pub file_not_text: &'static str,
    pub seed_line: &'static str,
    pub waiting_for_cargo: &'static str,
    pub running_checks: &'static str,
    pub learner_output: &'static str,
    pub output_truncated: &'static str,
    pub file_missing: &'static str,
    pub file_empty: &'static str,
    pub restore_stub: &'static str,
    pub cargo_missing: &'static str,
    pub cargo_too_old: &'static str,
    pub cargo_failed: &'static str,
    /// The graded program was built and would not start: `{detail}`.
    pub program_not_started: &'static str,
    pub hint_header: &'static str,
    pub last_hint: &'static str,
    pub no_hints: &'static str,
    pub no_such_hint: &'static str,
    pub stop_here: &'static str,
    pub stop_here_detail: &'static str,
    pub confirm_prompt: &'static str,
    pub declined: &'static str,
    pub solution_header: &'static str,
    pub explanation_header: &'static str,
    pub diff_header: &'static str,
    pub diff_identical: &'static str,
    pub lesson_next: &'static str,
    pub init_not_empty: &'static str,
    pub init_created: &'static str,
    /// `tutor init` in a course folder that gained chapters: `{dir}`, `{added}`, `{courses}`.
    pub init_updated: &'static str,
    /// `tutor init` in a course folder that has every chapter: `{dir}`, `{courses}`.
    pub init_up_to_date: &'static str,
    /// A migration's line: `{changes}`, the parts below joined by `migrated_join`.
    pub migrated: &'static str,
    /// `{n}` exercise files moved into their course's folder.
    pub migrated_moved: &'static str,
    /// `{n}` progress entries filed under their course (nothing is lost either way).
    pub migrated_progress: &'static str,
    /// `{added}`: the chapters written.
    pub migrated_added: &'static str,
    /// Between two of a migration's parts.
    pub migrated_join: &'static str,
    /// The folder's README was replaced by this tutor's: `{kept}` holds the old one.
    pub init_readme_refreshed: &'static str,
    pub init_kept: &'static str,
    pub init_building: &'static str,
    pub init_next: &'static str,
    /// `cargo run` in a course folder.
    pub cargo_run_instead: &'static str,
    /// `cargo test` in a course folder, when no tutor can be started.
    pub cargo_test_no_tutor: &'static str,
    /// `cargo test` in a course folder, under the list, when an exercise fails its check.
    pub cargo_test_failed: &'static str,
    pub needs_confirmation: &'static str,
    pub reset_prompt: &'static str,
    pub reset_declined: &'static str,
    pub reset_done: &'static str,
    pub reset_backup: &'static str,
    pub watch_banner: &'static str,
    pub watch_manual_banner: &'static str,
    pub watch_moving_on: &'static str,
    pub watch_bye: &'static str,
    pub doctor_ok: &'static str,
    pub doctor_problem: &'static str,
    pub doctor_fix: &'static str,
    pub doctor_toolchain: &'static str,
    pub doctor_workspace: &'static str,
    pub doctor_files: &'static str,
    pub doctor_state: &'static str,
    pub doctor_dependencies: &'static str,
    pub doctor_fix_workspace: &'static str,
    pub doctor_fix_files: &'static str,
    pub doctor_fix_dependencies: &'static str,
    pub doctor_deps_built: &'static str,
    pub doctor_deps_fetched: &'static str,
    pub doctor_all_good: &'static str,
    /// The label of the nested-course finding.
    pub doctor_nested: &'static str,
    /// A course folder inside another: `{inner}`, `{outer}`.
    pub doctor_nested_inside: &'static str,
    /// Its fix: `{inner}`, `{outer}`.
    pub doctor_fix_nested: &'static str,
    pub doctor_confinement: &'static str,
    pub doctor_confined: &'static str,
    pub doctor_confinement_missing: &'static str,
    pub doctor_fix_confinement: &'static str,
    // Small faults (progress, reset, doctor).
    pub state_too_large: &'static str,
    pub state_not_utf8: &'static str,
    pub state_not_toml: &'static str,
    // Hostile files and folders (issue 19): what tutor refuses to open, follow or build in.
    pub state_not_regular: &'static str,
    pub kind_folder: &'static str,
    pub kind_fifo: &'static str,
    pub kind_device: &'static str,
    pub kind_socket: &'static str,
    pub kind_symlink: &'static str,
    pub kind_other: &'static str,
    pub not_a_file: &'static str,
    pub own_file_too_large: &'static str,
    pub linked_folder: &'static str,
    pub exercise_not_a_file: &'static str,
    pub reveal_not_a_file: &'static str,
    pub path_not_utf8: &'static str,
    pub disk_full: &'static str,
    pub read_only_file_system: &'static str,
    pub quota_exceeded: &'static str,
    pub permission_denied_write: &'static str,
    pub permission_denied_read: &'static str,
    pub doctor_writable: &'static str,
    pub doctor_writable_ok: &'static str,
    pub doctor_not_writable: &'static str,
    pub doctor_fix_writable: &'static str,
    pub doctor_path_not_utf8: &'static str,
    pub doctor_path_too_long: &'static str,
    pub doctor_fix_path: &'static str,
    // Watch mode (issue 10).
    pub watch_compiling: &'static str,
    pub watch_press_next: &'static str,
    /// `n` would cross into another chapter: `{course}` (title), `{id}`.
    pub watch_press_next_chapter: &'static str,
    /// At the top of the first check in a new chapter: `{course}` (title), `{course_id}`.
    pub watch_new_chapter: &'static str,
    pub watch_no_next: &'static str,
    pub watch_no_previous: &'static str,
    pub watch_list_keys: &'static str,
    pub watch_confirm_keys: &'static str,
    /// In the watch, in place of the command that shows the next hint.
    pub watch_key_hint: &'static str,
    /// In the watch, in place of "fix the error and run `tutor check` again".
    pub watch_fix_and_save: &'static str,
    // Failure output (issue 10).
    pub greatest_difference: &'static str,
    pub more_failures: &'static str,
    pub more_rows: &'static str,
    /// The watch's list, cut to the terminal: entries above the window.
    pub list_more_above: &'static str,
    /// The same, below.
    pub list_more_below: &'static str,
    /// The watch's report, cut to the terminal: lines above the window, and the key back.
    pub report_more_above: &'static str,
    /// The same, below, and the key to page on.
    pub report_more_below: &'static str,
    pub summary_next: &'static str,
    pub note_mixed_float: &'static str,
    /// The start of a note a course writes for one exercise.
    pub course_note: &'static str,
    pub note_missing_import: &'static str,
    pub note_vec_for_array: &'static str,
    /// Under the first of several warnings of a graded check: `{n}` more, `{id}`.
    pub warnings_folded: &'static str,
    /// E0605, `v as {generic}`, where the exercise has no note of its own.
    pub note_cast_to_generic: &'static str,
    /// E0275 from `dot` on an `ArrayD`: a 2-D view instead.
    pub note_dot_on_arrayd: &'static str,
    /// A `Result` used where its value is expected: `?`.
    pub note_result_without_question: &'static str,
    pub cli_usage_heading: &'static str,
    pub cli_commands_heading: &'static str,
    pub cli_options_heading: &'static str,
    pub cli_arguments_heading: &'static str,
    pub cli_error_unknown_argument: &'static str,
    pub cli_error_unknown_command: &'static str,
    pub cli_error_invalid_value: &'static str,
    pub cli_error_possible_values: &'static str,
    pub cli_error_missing: &'static str,
    pub cli_error_conflict: &'static str,
    pub cli_error_other: &'static str,
    pub cli_error_more: &'static str,
    // Authoring: lessons' problems and `tutor dev`.
    pub lesson_at_line: &'static str,
    pub lesson_unterminated: &'static str,
    pub lesson_twice: &'static str,
    pub lesson_hint_not_number: &'static str,
    pub lesson_hint_zero: &'static str,
    pub lesson_unknown_marker: &'static str,
    pub lesson_unknown_language: &'static str,
    pub lesson_too_few_hints: &'static str,
    pub lesson_missing_section: &'static str,
    pub dev_course: &'static str,
    pub dev_check_catalogue: &'static str,
    pub dev_check_lessons: &'static str,
    pub dev_check_hints: &'static str,
    pub dev_check_mistakes: &'static str,
    pub dev_check_cases: &'static str,
    pub dev_check_author: &'static str,
    pub dev_check_stubs: &'static str,
    pub dev_check_solutions: &'static str,
    pub dev_skipped: &'static str,
    pub dev_all_passed: &'static str,
    pub dev_problems_found: &'static str,
    pub dev_catalogue_missing: &'static str,
    pub dev_catalogue_unreadable: &'static str,
    pub dev_catalogue_empty: &'static str,
    pub dev_names_missing_file: &'static str,
    pub dev_given_unknown: &'static str,
    pub dev_given_answers_todo: &'static str,
    pub dev_piece_unlabelled: &'static str,
    pub dev_todo_out_of_order: &'static str,
    pub dev_stub_lacks_marker: &'static str,
    pub dev_overview_extra: &'static str,
    pub dev_hint_gives_away: &'static str,
    pub dev_mistake_no_exercise: &'static str,
    pub dev_mistake_no_hint: &'static str,
    pub dev_untitled: &'static str,
    pub dev_title_not_chinese: &'static str,
    pub dev_no_cases: &'static str,
    pub dev_author_marker: &'static str,
    pub dev_author_marker_in_title: &'static str,
    pub dev_does_not_compile: &'static str,
    pub dev_build_timed_out: &'static str,
    pub dev_compiler_died: &'static str,
    pub dev_foreign_sources: &'static str,
    /// `dev check`: a file that defines symbols of the kit or the standard library: `{symbols}`.
    pub dev_replaces_library_code: &'static str,
    pub dev_file_absent: &'static str,
    pub dev_file_blank: &'static str,
    pub dev_file_unusable: &'static str,
    pub dev_stub_passes: &'static str,
    pub dev_stub_fails_otherwise: &'static str,
    pub dev_solution_fails: &'static str,
    pub dev_source_root: &'static str,
    pub dev_source_embedded: &'static str,
    pub dev_check_grading: &'static str,
    pub dev_check_editor: &'static str,
    pub dev_skipped_compiled_in: &'static str,
    pub dev_skipped_no_grading: &'static str,
    pub dev_grading_stale: &'static str,
    pub dev_editor_missing: &'static str,
    pub dev_editor_stale: &'static str,
    pub dev_editor_changes: &'static str,
    pub dev_editor_changes_and: &'static str,
    pub dev_editor_missing_lines: &'static str,
    pub dev_editor_extra_lines: &'static str,
    pub dev_section_not_chinese: &'static str,
    pub dev_unknown_course: &'static str,
    pub dev_not_a_folder: &'static str,
    pub dev_not_a_repository: &'static str,
    pub dev_bad_name: &'static str,
    pub dev_course_exists: &'static str,
    pub dev_new_created: &'static str,
    pub dev_new_next: &'static str,
    // One screen per failure (issue 20).
    pub cases_alike: &'static str,
    pub cases_alike_shown: &'static str,

    // Lessons that fit the terminal (issue 20).
    pub dev_code_too_wide: &'static str,
}
