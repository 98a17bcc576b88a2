//! Catching a panic quietly: what it said and where it happened, without the default hook's
//! printing. The graded program's request loop uses it to reply with a learner's panic, and
//! tutor's grader to report one when it runs learner code in-process (tests).

use std::any::Any;
use std::cell::RefCell;

thread_local! {
    /// Where the last panic on this thread happened, once the quiet hook is installed.
    static LOCATION: RefCell<Option<String>> = const { RefCell::new(None) };
}

/// Replaces the default panic hook (which prints to stderr) with one that only remembers where
/// the panic happened, for [`take_location`].
pub fn install_quiet_hook() {
    std::panic::set_hook(Box::new(|info| {
        let location = info.location().map(|l| format!("{}:{}:{}", l.file(), l.line(), l.column()));
        LOCATION.with(|slot| *slot.borrow_mut() = location);
    }));
}

/// Where the last panic on this thread happened, forgetting it (call it before running code
/// too, so that an old location is never reported).
pub fn take_location() -> Option<String> {
    LOCATION.with(|slot| slot.borrow_mut().take())
}

/// A panic payload's message.
pub fn message(payload: &(dyn Any + Send)) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        s.to_string()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "(a panic without a message)".to_string()
    }
}
