//! The watch's list, from the event loop's side: opening it, drawing it, what its keys do
//! (watching another exercise, resetting one).

use super::*;

impl Watch<'_, '_> {
    pub(super) fn open_list(&mut self) -> Result<()> {
        // The list covers the screen, and a reset from it needs the check lock.
        if let Some(check) = self.check.take() {
            check.stop();
            self.stale = true;
        }
        if self.recheck_at.take().is_some() {
            self.stale = true;
        }
        self.list = Some(ListView::at(self.watched));
        self.draw_list()
    }

    pub(super) fn draw_list(&self) -> Result<()> {
        if let Some(list) = &self.list {
            self.screen.show_instead(&list.render(self.session)?);
        }
        Ok(())
    }

    pub(super) fn on_list_key(&mut self, key: &Key) -> Result<Flow> {
        if *key == Key::Resize {
            return self.draw_list().map(|()| Flow::Go);
        }
        let session = self.session;
        let Some(list) = self.list.as_mut() else { return Ok(Flow::Go) };
        let declined = || session.printer.lines(|u| u.reset_declined, &[]);
        match list.key(key, session.catalogue.exercises.len(), declined) {
            Action::Nothing => {}
            Action::Redraw => self.draw_list()?,
            Action::Watch(index) => {
                self.list = None;
                self.watch(index)?;
            }
            Action::Reset(index) => {
                self.reset(index)?;
                self.draw_list()?;
            }
            Action::Back => {
                self.list = None;
                if self.stale {
                    self.start_check()?;
                } else {
                    self.redraw()?;
                }
            }
            Action::Quit => return Ok(Flow::Quit),
        }
        Ok(Flow::Go)
    }

    /// `tutor reset`'s own work (backup, stub, progress, under the check lock), confirmed in
    /// the list.
    fn reset(&mut self, index: usize) -> Result<()> {
        let session = self.session;
        let exercise = session.catalogue.exercises.get(index).context("no exercise under the cursor")?;
        let printer = &session.printer;
        let restored = reset::restore_stub(session, exercise, &mut || {
            eprintln!("{}", printer.lines(|u| u.waiting_for_lock, &[]).dimmed());
        });
        // An exercise file that is a FIFO or a folder is the learner's to move: said in the
        // list, and the watch goes on.
        let backup = match restored {
            Err(e) if matches!(e.downcast_ref(), Some(CliError::ExerciseNotAFile { .. })) => {
                if let Some(list) = self.list.as_mut() {
                    list.told(vec![crate::errors::describe_error(printer, &e).red().to_string()]);
                }
                return Ok(());
            }
            restored => restored?,
        };
        let mut message = Vec::new();
        if let Some(backup) = backup {
            message.push(printer.lines(|u| u.reset_backup, &[("backup", &backup)]));
        }
        message.push(
            printer.lines(|u| u.reset_done, &[("file", &exercise.file), ("id", &exercise.id)]).green().to_string(),
        );
        if let Some(list) = self.list.as_mut() {
            list.told(message);
        }
        if index == self.watched {
            self.stale = true;
        }
        Ok(())
    }
}
