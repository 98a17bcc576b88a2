//! Stopping a check from another thread: `tutor watch` cancels the running check when the
//! learner quits, moves on or saves again, and a check must then end at once with nothing left
//! running.

use std::sync::atomic::{AtomicBool, AtomicI32, Ordering};
use std::sync::Arc;

use super::process::kill_group;

/// Lets another thread stop a check at once: [`Cancel::cancel`] kills the process group the
/// check runs now (cargo, or the graded program) and makes the check start nothing more.
/// `tutor watch` cancels the running check when the learner quits or moves on.
#[derive(Clone, Default)]
pub struct Cancel(Arc<CancelState>);

#[derive(Default)]
struct CancelState {
    cancelled: AtomicBool,
    /// The group running for this check now (0: none).
    group: AtomicI32,
}

impl Cancel {
    /// Stops the check: kills its running group, if any, and marks it cancelled.
    pub fn cancel(&self) {
        // Flag first, group second; `enter` does the reverse, so that a group spawned at the same
        // moment is killed by one side or the other (both use sequentially consistent order).
        self.0.cancelled.store(true, Ordering::SeqCst);
        kill_group(self.0.group.load(Ordering::SeqCst));
    }

    /// Whether [`Cancel::cancel`] was called.
    pub fn is_cancelled(&self) -> bool {
        self.0.cancelled.load(Ordering::SeqCst)
    }

    /// Registers the group that runs now; kills it at once if the check is already cancelled.
    pub(super) fn enter(&self, pgid: i32) {
        self.0.group.store(pgid, Ordering::SeqCst);
        if self.is_cancelled() {
            kill_group(pgid);
        }
    }

    /// Forgets `pgid` (before it is reaped, so that a cancel never signals a reused id).
    pub(super) fn leave(&self, pgid: i32) {
        let _ = self.0.group.compare_exchange(pgid, 0, Ordering::SeqCst, Ordering::SeqCst);
    }
}

/// The error a cancelled check ends with: not a failure of anything, the learner moved on.
#[derive(Debug)]
pub struct Cancelled;

impl std::fmt::Display for Cancelled {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "the check was cancelled")
    }
}

impl std::error::Error for Cancelled {}

#[cfg(all(test, unix))]
mod tests {
    use std::process::Command;
    use std::time::{Duration, Instant};

    use super::super::process::{Ending, Group};
    use super::*;

    const MEMORY: u64 = 4 << 30;

    fn sh(script: &str) -> Command {
        let mut c = Command::new("sh");
        c.args(["-c", script]);
        c
    }

    #[test]
    fn cancel_kills_the_running_group_and_any_group_started_after_it() {
        let cancel = Cancel::default();
        let mut group = Group::spawn_cancellable(&mut sh("sleep 30"), MEMORY, Some(&cancel)).unwrap();
        let started = Instant::now();
        cancel.cancel();
        let ending = group.wait_until(Instant::now() + Duration::from_secs(5)).unwrap();
        assert_eq!(ending, Ending::Signalled(libc::SIGKILL));
        assert!(started.elapsed() < Duration::from_secs(1), "took {:?}", started.elapsed());
        let mut late = Group::spawn_cancellable(&mut sh("sleep 30"), MEMORY, Some(&cancel)).unwrap();
        let ending = late.wait_until(Instant::now() + Duration::from_secs(5)).unwrap();
        assert_eq!(ending, Ending::Signalled(libc::SIGKILL));
    }
}
