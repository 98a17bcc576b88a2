//! Panic hooks per thread. Every test runs in one process, and the panic hook is the process's:
//! a test that silences the learner files' panics (graded in process, their panics are part of
//! the grading) or counts the grading code's own must do so for its own thread only, so that
//! another test's failure is still printed and never counted.

use std::cell::RefCell;
use std::panic::PanicHookInfo;
use std::sync::OnceLock;

use tutor_grade::report::Report;
use tutor_learner_files::Fixture;

type Hook = Box<dyn Fn(&PanicHookInfo<'_>) + Sync + Send + 'static>;

thread_local! {
    /// The hook of this thread, while one is set by [`with_hook`].
    static HOOK: RefCell<Option<Hook>> = const { RefCell::new(None) };
}

/// The hook a graded program uses (it only remembers where the panic happened), installed once
/// beneath the dispatcher.
static QUIET: OnceLock<Hook> = OnceLock::new();

/// Installs, once, the process hook that hands a panic to its thread's hook, or to the default
/// hook on a thread without one.
fn dispatcher() -> &'static Hook {
    QUIET.get_or_init(|| {
        let default = std::panic::take_hook();
        tutor_grade::outcome::install_quiet_panic_hook();
        let quiet = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            HOOK.with(|hook| match hook.try_borrow().ok().as_deref() {
                Some(Some(own)) => own(info),
                _ => default(info),
            })
        }));
        quiet
    })
}

/// Runs `body` with `hook` as this thread's panic hook.
pub fn with_hook<R>(hook: impl Fn(&PanicHookInfo<'_>) + Sync + Send + 'static, body: impl FnOnce() -> R) -> R {
    dispatcher();
    /// Takes the hook away again, even when `body` panics.
    struct Unset;
    impl Drop for Unset {
        fn drop(&mut self) {
            HOOK.with(|h| h.borrow_mut().take());
        }
    }
    HOOK.with(|h| *h.borrow_mut() = Some(Box::new(hook)));
    let _unset = Unset;
    body()
}

/// Runs `body` (which grades learner files in process) with this thread's panics silent, as in
/// a graded program: where each happened is remembered for the grading's report.
pub fn quietly<R>(body: impl FnOnce() -> R) -> R {
    let quiet = dispatcher();
    with_hook(move |info| quiet(info), body)
}

/// `fixture` graded in process with `seed`, quietly, on a thread of its own: as `tutor check`
/// grades each time in a fresh program, no state a learner file keeps per thread (a memo in a
/// `thread_local!`) is carried from one grading to the next.
pub fn graded(fixture: &Fixture, seed: u64) -> Report {
    std::thread::scope(|scope| match scope.spawn(|| quietly(|| fixture.grade(seed))).join() {
        Ok(report) => report,
        Err(panic) => std::panic::resume_unwind(panic),
    })
}

/// `fixture` graded in process with `seed` on the cases of TODO `todo` alone, as `tutor check`
/// grades that exercise: quietly, on a thread of its own (see [`graded`]).
pub fn graded_exercise(fixture: &Fixture, seed: u64, todo: u32) -> Report {
    let grade = || fixture.registered().grading.grade_exercise(&fixture.channel(), seed, todo);
    std::thread::scope(|scope| match scope.spawn(|| quietly(grade)).join() {
        Ok(report) => report,
        Err(panic) => std::panic::resume_unwind(panic),
    })
}
