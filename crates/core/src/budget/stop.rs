//! A compile that stops at the deadline. Front-ends build their model in loops that cannot
//! take a deadline through their signatures (`Puzzle::compile` is called from many places
//! that have none), so the run path's compiling worker sets its deadline for its own thread
//! ([`compiling_within`]) and the front-ends' long loops ask [`compile_stop`] between faces
//! or rows. On every other thread `compile_stop` is always false, so a compile there runs to
//! its end as before. The CNF encoder asks it too, for the encode an export runs after its
//! compile (`encode::encode` takes no deadline of its own).
//!
//! A compile that stopped returns an incomplete model or a placeholder error; the worker
//! never passes such a result on (it sends only when the deadline has not passed), so
//! stopping can never read as an answer.

use std::cell::RefCell;

use super::Deadline;

thread_local! {
    static STOP: RefCell<Option<Deadline>> = const { RefCell::new(None) };
}

/// Runs `f` (a compile) with `deadline` as this thread's stop.
pub fn compiling_within<R>(deadline: &Deadline, f: impl FnOnce() -> R) -> R {
    STOP.with(|s| *s.borrow_mut() = Some(deadline.clone()));
    let r = f();
    STOP.with(|s| *s.borrow_mut() = None);
    r
}

/// Whether the compile on this thread should stop now: its deadline has passed or the run
/// was interrupted. Always false outside [`compiling_within`].
pub fn compile_stop() -> bool {
    STOP.with(|s| s.borrow().as_ref().is_some_and(Deadline::passed))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn only_a_compiling_thread_stops() {
        assert!(!compile_stop());
        let passed = Deadline::counted_from(std::time::Instant::now(), Some(Duration::ZERO), None);
        assert!(compiling_within(&passed, compile_stop));
        assert!(!compile_stop(), "the stop ends with the compile");
        let open = Deadline::counted_from(std::time::Instant::now(), Some(Duration::from_secs(3600)), None);
        assert!(!compiling_within(&open, compile_stop));
    }
}
