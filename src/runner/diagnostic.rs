//! rustc's messages about a build of the learner's file, and how a build that failed without
//! one is explained. The same whether cargo ran rustc or tutor did ([`super::replay`]).

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// A rustc message worth showing to the learner.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct Diagnostic {
    /// `error`, `warning`, …
    pub level: String,
    /// The error code, such as `E0277`, when rustc gives one.
    pub code: Option<String>,
    /// The one-line message, such as "cannot divide `T` by `f32`".
    pub message: String,
    /// The plain text of its labels and notes ("expected `f32`, found type parameter `T`" …),
    /// for recognising it (the rendering may carry colour).
    pub details: Vec<String>,
    /// rustc's own rendering, with the learner's file shown by its workspace path.
    pub rendered: String,
}

/// How many messages of one level (errors, or warnings and notes) about the learner's file are
/// kept and shown in full: the first few; the rest are counted ([`Diagnostic::omitted`]). A
/// file with 40,000 warnings would otherwise be kept whole in memory, in the build's record
/// and on the screen (7.6 MB of text).
pub const KEPT_PER_LEVEL: usize = 8;

/// The level of the message that stands for those not kept.
const OMITTED: &str = "omitted";

impl Diagnostic {
    /// The message that stands, after the kept ones, for `errors` errors and `others`
    /// warnings that were counted but not kept.
    pub fn omitted(errors: usize, others: usize) -> Diagnostic {
        Diagnostic { level: OMITTED.into(), message: format!("{errors} {others}"), ..Diagnostic::default() }
    }

    /// How many errors and warnings this message stands for, if it stands for those not kept.
    pub fn omitted_counts(&self) -> Option<(usize, usize)> {
        let (errors, others) = self.message.split_once(' ').filter(|_| self.level == OMITTED)?;
        Some((errors.parse().ok()?, others.parse().ok()?))
    }

    /// Reads one of rustc's JSON diagnostics (as rustc prints it, and as cargo passes it on in
    /// the `message` of a `compiler-message`), showing `learner` (the harness's copy) as
    /// `shown_as`.
    fn from_json(inner: &Value, learner: &str, shown_as: &str) -> Diagnostic {
        let text = |v: &Value| v.as_str().unwrap_or("").to_string();
        let labels = inner["spans"].as_array().into_iter().flatten().map(|s| text(&s["label"]));
        let children = inner["children"].as_array().into_iter().flatten().map(|c| text(&c["message"]));
        Diagnostic {
            level: text(&inner["level"]),
            code: inner["code"]["code"].as_str().map(str::to_string),
            message: text(&inner["message"]),
            details: labels.chain(children).filter(|t| !t.is_empty()).collect(),
            rendered: text(&inner["rendered"]).replace(learner, shown_as),
        }
    }
}

/// rustc's messages of one build, sorted into those about the learner's file and the errors
/// elsewhere (in the kit or the generated binary).
pub struct Messages {
    learner: String,
    shown_as: String,
    about_learner: Vec<Diagnostic>,
    other_errors: Vec<Diagnostic>,
    /// Errors about the learner's file counted but not kept, then the other levels'.
    omitted: (usize, usize),
}

impl Messages {
    /// Messages about `learner` (the harness's copy) will show it as `shown_as`.
    pub fn new(learner: &str, shown_as: &str) -> Messages {
        Messages {
            learner: learner.to_string(),
            shown_as: shown_as.to_string(),
            about_learner: Vec::new(),
            other_errors: Vec::new(),
            omitted: (0, 0),
        }
    }

    /// Takes one rustc diagnostic.
    pub fn take(&mut self, inner: &Value) {
        let spans = inner["spans"].as_array();
        let about_learner =
            spans.is_some_and(|spans| spans.iter().any(|s| s["file_name"].as_str() == Some(self.learner.as_str())));
        let error = inner["level"].as_str() == Some("error");
        // Counted, not read further, past the first few of its level: memory and the time spent
        // stay bounded whatever the file makes rustc say.
        let kept = |list: &[Diagnostic]| list.iter().filter(|d| (d.level == "error") == error).count();
        if about_learner {
            if kept(&self.about_learner) < KEPT_PER_LEVEL {
                self.about_learner.push(Diagnostic::from_json(inner, &self.learner, &self.shown_as));
            } else if error {
                self.omitted.0 += 1;
            } else {
                self.omitted.1 += 1;
            }
        } else if error && self.other_errors.len() < KEPT_PER_LEVEL {
            // An error outside the learner's file is still the reason the build failed: kept for
            // when nothing else explains it.
            self.other_errors.push(Diagnostic::from_json(inner, &self.learner, &self.shown_as));
        }
    }

    /// The messages about the learner's file, the count of those not kept after them.
    fn learners(mut self) -> Vec<Diagnostic> {
        if self.omitted != (0, 0) {
            self.about_learner.push(Diagnostic::omitted(self.omitted.0, self.omitted.1));
        }
        self.about_learner
    }

    /// After a failed build: what explains it.
    pub fn into_failure(mut self) -> Failure {
        // A library the build reads is broken or from another compiler: whatever line of the
        // learner's file rustc points at (the `use` of the kit), no code is at fault.
        let all_errors = self.about_learner.iter().chain(&self.other_errors).filter(|d| d.level == "error");
        let broken: Vec<&Diagnostic> =
            all_errors.filter(|d| d.code.as_deref().is_some_and(|c| BROKEN_LIBRARY.contains(&c))).collect();
        if !broken.is_empty() {
            let said =
                |d: &&Diagnostic| [d.message.clone()].into_iter().chain(d.details.iter().cloned()).collect::<Vec<_>>();
            return Failure::Environment(broken.iter().flat_map(said).collect::<Vec<_>>().join("\n"));
        }
        let learner_errors = self.about_learner.iter().any(|d| d.level == "error");
        if !learner_errors {
            // rustc's closing "aborting due to N previous errors" explains nothing by itself.
            let causes: Vec<&Diagnostic> =
                self.other_errors.iter().filter(|d| !d.message.starts_with("aborting due to")).collect();
            if causes.is_empty() {
                return Failure::Silent;
            }
            // rustc could not read or write a file of its own (a full disk, a folder that is a
            // file): it names the system's error, `(os error N)`.
            if causes.iter().all(|d| d.message.contains("(os error ")) {
                return Failure::Environment(causes.iter().map(|d| d.message.as_str()).collect::<Vec<_>>().join("\n"));
            }
        }
        let other_errors = std::mem::take(&mut self.other_errors);
        let mut diagnostics = self.learners();
        if !learner_errors {
            diagnostics.extend(other_errors);
        }
        Failure::Code(diagnostics)
    }

    /// After a build that succeeded: the warnings about the learner's file.
    pub fn into_warnings(self) -> Vec<Diagnostic> {
        self.learners()
    }
}

/// rustc's errors about a library file it was given rather than about code: invalid metadata
/// (E0786), a library built by another compiler (E0514) or for another target (E0461), one that
/// is not a Rust library (E0462), and the dependency built against an older version of another
/// (E0460). The learner's file cannot cause them: it names no library file.
const BROKEN_LIBRARY: [&str; 5] = ["E0460", "E0461", "E0462", "E0514", "E0786"];

/// What explains a failed build.
#[derive(Debug)]
pub enum Failure {
    /// Errors in the code: the learner's (with their warnings), else the kit's or the generated
    /// binary's.
    Code(Vec<Diagnostic>),
    /// rustc failed on its own files, not on any code: what it said.
    Environment(String),
    /// rustc said nothing: it died.
    Silent,
}

/// The lines of what cargo or rustc wrote to stderr that say how rustc died.
pub fn compiler_death(stderr: &str) -> String {
    let lines: Vec<&str> = stderr
        .lines()
        .map(str::trim)
        .filter(|l| {
            l.contains("memory allocation") || l.contains("signal:") || l.contains("SIGKILL") || l.contains("SIGABRT")
        })
        .collect();
    if lines.is_empty() {
        stderr.lines().rev().find(|l| !l.trim().is_empty()).unwrap_or_default().trim().to_string()
    } else {
        lines.join("\n")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_how_the_compiler_died() {
        let stderr = "error: could not compile `tutor-harness` (bin \"ex-02-norm\")\n\nCaused by:\n  process didn't exit successfully: `rustc …` (signal: 6, SIGABRT: process abort signal)\nmemory allocation of 8589934592 bytes failed\n";
        let detail = compiler_death(stderr);
        assert!(detail.contains("memory allocation") && detail.contains("SIGABRT"), "{detail}");
    }

    fn diagnostic(level: &str, file: &str) -> Value {
        serde_json::json!({
            "level": level, "message": format!("{level} in {file}"), "code": null, "children": [],
            "spans": [{ "file_name": file, "label": "here" }],
            "rendered": format!("{level} at {file}:1:1"),
        })
    }

    #[test]
    fn the_learners_errors_explain_a_failure_before_any_other() {
        let mut messages = Messages::new("/h/exercises/a.rs", "exercises/a.rs");
        messages.take(&diagnostic("warning", "/h/exercises/a.rs"));
        messages.take(&diagnostic("error", "/h/courses/kit/src/lib.rs"));
        messages.take(&diagnostic("error", "/h/exercises/a.rs"));
        let Failure::Code(errors) = messages.into_failure() else { panic!("errors in the code") };
        assert_eq!(errors.len(), 2, "{errors:?}");
        assert!(errors.iter().all(|d| d.rendered.contains("at exercises/a.rs")), "{errors:?}");
    }

    #[test]
    fn an_error_elsewhere_explains_a_failure_the_learners_file_did_not_cause() {
        let mut messages = Messages::new("/h/exercises/a.rs", "exercises/a.rs");
        messages.take(&diagnostic("warning", "/h/exercises/a.rs"));
        messages.take(&diagnostic("error", "bins/ex-a.rs"));
        let Failure::Code(errors) = messages.into_failure() else { panic!("errors in the code") };
        assert_eq!(errors.iter().map(|d| d.level.as_str()).collect::<Vec<_>>(), ["warning", "error"]);
        assert!(matches!(Messages::new("x", "y").into_failure(), Failure::Silent), "nothing said: it died");
    }

    #[test]
    fn a_broken_library_is_not_the_learners_error_whatever_line_rustc_points_at() {
        let mut messages = Messages::new("/h/exercises/a.rs", "exercises/a.rs");
        let mut broken = diagnostic("error", "/h/exercises/a.rs");
        broken["code"] = serde_json::json!({ "code": "E0786" });
        broken["message"] = serde_json::json!("found invalid metadata files for crate `tutor_kit`");
        broken["children"] = serde_json::json!([{ "message": "invalid metadata version found: /h/libkit.so" }]);
        messages.take(&broken);
        messages.take(&diagnostic("error", "/h/exercises/a.rs"));
        let Failure::Environment(text) = messages.into_failure() else { panic!("the environment") };
        assert!(text.contains("invalid metadata files") && text.contains("/h/libkit.so"), "{text}");
    }

    #[test]
    fn rustc_failing_on_its_own_files_is_not_the_learners_error() {
        let mut messages = Messages::new("/h/exercises/a.rs", "exercises/a.rs");
        let own = |message: &str| serde_json::json!({ "level": "error", "message": message, "spans": [] });
        messages.take(&own(
            "could not create incremental compilation crate directory `/h/i`: No space left on device (os error 28)",
        ));
        messages.take(&own("aborting due to 1 previous error"));
        let Failure::Environment(text) = messages.into_failure() else { panic!("the environment") };
        assert!(text.contains("No space left") && !text.contains("aborting"), "{text}");
        // The same next to an error in the learner's file: the learner's error comes first.
        let mut messages = Messages::new("/h/exercises/a.rs", "exercises/a.rs");
        messages.take(&own("failed to write `/h/x.o`: No space left on device (os error 28)"));
        messages.take(&diagnostic("error", "/h/exercises/a.rs"));
        assert!(matches!(messages.into_failure(), Failure::Code(_)));
    }
}
