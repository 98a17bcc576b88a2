//! Showing a finished check on the watch screen: its report, the verdict, and what comes next.

use super::*;

impl Watch<'_, '_> {
    /// Shows a finished check; after a pass, announces the end of the course, moves on
    /// (`--auto-advance`) or says that `n` moves on. `again`: the same check laid out anew for
    /// another terminal size, which never moves on.
    pub(super) fn show(&mut self, finished: Finished, again: bool) -> Result<()> {
        let exercise = self.exercise();
        let printer = &self.session.printer;
        let files = check::shown_files(self.session, exercise);
        let report =
            render(printer, &finished.outcome, &exercise.id, exercise.todo, &files.as_names(), self.options.detail);
        // On a terminal the summary stays on screen with the verdict, under a report cut to fit.
        let summary = summary(printer, &finished.outcome, &exercise.id)
            .filter(|summary| self.options.interactive && report.ends_with(summary.as_str()));
        let report = match &summary {
            Some(summary) => report[..report.len() - summary.len()].to_string(),
            None => report,
        };
        let report = wording::said_as_keys(&report, &exercise.id);
        let mut verdict: Vec<String> =
            summary.map(|summary| wording::said_as_keys(summary.trim_end(), &exercise.id)).into_iter().collect();
        // What the next run says at its top, after --auto-advance, leaves the summary out.
        let summarised = verdict.len();
        verdict.extend(check::verdict(printer, exercise, &finished.outcome));
        if let Some(failed_at) = finished.failed_after_pass {
            verdict.push(check::pass_kept(printer, exercise, failed_at));
        }
        self.pointed_hint = match &finished.outcome {
            CheckOutcome::Graded { report, .. } => {
                report.named_mistakes().first().map(|m| (format!("{}/{}", exercise.course, m.exercise), m.hint))
            }
            _ => None,
        };
        if finished.outcome.passed() {
            if finished.completed_now {
                // Once: only the check that made the course's last missing exercise pass says it.
                let course = course_title(printer, &self.session.catalogue, &exercise.course);
                verdict.push(printer.lines(|u| u.course_complete, &[("course", &course)]).green().bold().to_string());
            }
            if let Some(next) = self.next_not_passed()? {
                let next_id = &self.session.catalogue.exercises[next].id;
                if self.options.auto_advance && !again {
                    verdict.push(printer.lines(|u| u.watch_moving_on, &[("id", next_id)]));
                    verdict.extend(self.new_chapter(next));
                    self.top = verdict.split_off(summarised);
                    self.watched = next;
                    return self.start_check();
                }
                let next_course = &self.session.catalogue.exercises[next].course;
                let press = if *next_course != exercise.course {
                    let course = course_title(printer, &self.session.catalogue, next_course);
                    printer.lines(|u| u.watch_press_next_chapter, &[("id", next_id), ("course", &course)])
                } else {
                    printer.lines(|u| u.watch_press_next, &[("id", next_id)])
                };
                verdict.push(press.cyan().to_string());
            } else if finished.all_done {
                verdict.push(printer.lines(|u| u.all_done, &[]));
            }
        }
        self.refresh_footer()?;
        self.screen.finish(report, verdict);
        self.shown = Some((finished, printer.width()));
        Ok(())
    }
}
