//! One check on a thread of its own, so that the watch keeps reading keys while cargo builds
//! and the cases run. [`Running::stop`] cancels it: the process group running for it is killed at
//! once (see [`crate::runner::Cancel`]) and the thread ends without recording anything.

use std::sync::mpsc::Sender;
use std::thread::{Scope, ScopedJoinHandle};

use anyhow::Result;

use super::WatchEvent;
use crate::cli::Limits;
use crate::commands::Session;
use crate::runner::{self, BuildEvent, Cancel, Cancelled, CheckEvent, CheckOptions, CheckOutcome};

/// What the check is doing, for the status line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    /// Another process's check holds the workspace.
    WaitingForLock,
    /// cargo builds; `first_build` when the harness's dependencies are built too.
    Compiling { first_build: bool },
    /// cargo waits for another cargo.
    WaitingForCargo,
    /// The cases run.
    Running,
}

/// A check that ran to its end, its verdict recorded.
pub struct Finished {
    /// What the check found.
    pub outcome: CheckOutcome,
    /// This check made its course's last exercise pass: every exercise of the course passes now,
    /// and did not before.
    pub completed_now: bool,
    /// Every exercise passes (now or already).
    pub all_done: bool,
    /// This check failed an exercise that had passed (its pass is kept): when.
    pub failed_after_pass: Option<u64>,
}

/// News from the worker.
pub enum News {
    /// The status changed.
    Status(Status),
    /// The check ended: `Ok(None)` when it was cancelled, `Err` when the environment failed.
    Done(Result<Option<Finished>>),
}

/// A check running on its thread.
pub struct Running<'scope> {
    cancel: Cancel,
    handle: ScopedJoinHandle<'scope, ()>,
}

impl Running<'_> {
    /// Cancels the check without waiting for it (the scope waits).
    pub fn cancel(&self) {
        self.cancel.cancel();
    }

    /// Cancels the check and waits for its thread, which ends at once: nothing it started is
    /// running afterwards, and the check lock is free again.
    pub fn stop(self) {
        self.cancel.cancel();
        self.join();
    }

    /// Waits for a check that has said it is done.
    pub fn join(self) {
        // A panic on the worker already ended tutor through the panic hook.
        let _ = self.handle.join();
    }
}

/// Starts checking exercise number `index` on a thread of `scope`; its news arrive on `sender`
/// as check number `run`.
pub fn start<'scope, 'env>(
    scope: &'scope Scope<'scope, 'env>,
    session: &'env Session,
    limits: &'env Limits,
    index: usize,
    run: u64,
    sender: Sender<WatchEvent>,
) -> Running<'scope> {
    let cancel = Cancel::default();
    let mut options = CheckOptions::from_limits(limits, session.printer.color);
    options.cancel = cancel.clone();
    let handle = scope.spawn(move || {
        let tell = |status| {
            let _ = sender.send(WatchEvent::Check { run, news: News::Status(status) });
        };
        let done = check(session, index, &options, &tell);
        let _ = sender.send(WatchEvent::Check { run, news: News::Done(done) });
    });
    Running { cancel, handle }
}

/// Checks and records, as `tutor check` does; `Ok(None)` once cancelled.
fn check(session: &Session, index: usize, options: &CheckOptions, tell: &dyn Fn(Status)) -> Result<Option<Finished>> {
    let Some(exercise) = session.catalogue.exercises.get(index) else { return Ok(None) };
    // Held until the verdict is recorded, so that a `tutor reset` waits for it.
    let lock = match runner::lock_checks_or_cancel(
        &session.workspace,
        &mut || tell(Status::WaitingForLock),
        &options.cancel,
    ) {
        Ok(lock) => lock,
        Err(e) if e.is::<Cancelled>() => return Ok(None),
        Err(e) => return Err(e),
    };
    tell(Status::Compiling { first_build: !runner::harness::is_built(&session.workspace.private_dir()) });
    let checked =
        runner::check(&session.workspace, &session.catalogue, exercise, options, &lock, &mut |event| match event {
            CheckEvent::Waiting => tell(Status::WaitingForLock),
            CheckEvent::Build(BuildEvent::WaitingForCargo) => tell(Status::WaitingForCargo),
            CheckEvent::Build(BuildEvent::Compiled { .. }) => {}
            CheckEvent::Running => tell(Status::Running),
        });
    let outcome = match checked {
        Ok(outcome) => outcome,
        Err(e) if e.is::<Cancelled>() => return Ok(None),
        Err(e) => return Err(e),
    };
    let recorded = session.record_verdict(exercise, outcome.passed())?;
    drop(lock);
    Ok(Some(Finished {
        outcome,
        completed_now: recorded.finished_course,
        all_done: recorded.all_done,
        failed_after_pass: recorded.pass_kept_since,
    }))
}
