//! Recording a verdict: the one place `check` and `watch` write a check's result to progress and
//! learn what it changed (the next exercise, a pass kept, a chapter or the whole course done).

use anyhow::Result;

use super::Session;
use crate::course::Exercise;
use crate::progress::now;
use crate::render::list::{course_done, current, next_not_passed};

/// What recording one verdict changed.
pub struct Recorded<'a> {
    /// The next exercise not passed after this one (this one, when it is the only one left).
    pub next: Option<&'a Exercise>,
    /// This check failed an exercise that had passed: when it passed (the pass is kept).
    pub pass_kept_since: Option<u64>,
    /// This check finished the exercise's chapter (it was not finished before).
    pub finished_course: bool,
    /// Every exercise of every chapter has passed.
    pub all_done: bool,
}

impl Session {
    /// Records a check of `exercise` (call it while the check lock is held, so that a `tutor
    /// reset` waits for the verdict): its pass or failure, and its chapter as the one being taken.
    pub fn record_verdict(&self, exercise: &Exercise, passed: bool) -> Result<Recorded<'_>> {
        let catalogue = &self.catalogue;
        let index = catalogue.exercises.iter().position(|e| e.key() == exercise.key()).unwrap_or(0);
        self.update(|state| {
            let was_done = course_done(catalogue, state, &exercise.course);
            state.taking = Some(exercise.course.clone());
            let progress = state.exercises.entry(exercise.key()).or_default();
            progress.record_check(passed, now());
            let pass_kept_since = progress.failed_after_pass.filter(|_| !passed);
            let next = next_not_passed(catalogue, state, index).map(|i| &catalogue.exercises[i]);
            Recorded {
                next: next.or_else(|| current(catalogue, state)),
                pass_kept_since,
                finished_course: !was_done && course_done(catalogue, state, &exercise.course),
                all_done: current(catalogue, state).is_none(),
            }
        })
    }
}
