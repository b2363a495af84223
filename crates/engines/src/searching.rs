//! Which engines are searching now, for a caller that says so on a long run: the portfolio
//! marks each engine it runs on a [`Searching`] board, and the command line reads the board
//! (`src/cli/solve.rs`). The library itself prints nothing; a board nobody reads costs a
//! lock per engine start and end.

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The engines searching now, each with when it started. Cloning shares the board (the
/// options that carry it are cloned for every engine of a race).
#[derive(Debug, Clone, Default)]
pub struct Searching(Arc<Mutex<Vec<(&'static str, Instant)>>>);

impl Searching {
    /// Marks `engine` as searching until the returned mark is dropped.
    pub fn mark(&self, engine: &'static str) -> Mark {
        self.lock().push((engine, Instant::now()));
        Mark {
            board: self.clone(),
            engine,
        }
    }

    /// The engines searching now, in the order they started.
    pub fn now(&self) -> Vec<(&'static str, Instant)> {
        self.lock().clone()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Vec<(&'static str, Instant)>> {
        // A panic while the lock was held leaves a list that is still a list.
        self.0.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// An engine marked on a [`Searching`] board; dropping it takes the mark off.
#[derive(Debug)]
pub struct Mark {
    board: Searching,
    engine: &'static str,
}

impl Drop for Mark {
    fn drop(&mut self) {
        let mut list = self.board.lock();
        if let Some(i) = list.iter().position(|&(e, _)| e == self.engine) {
            list.remove(i);
        }
    }
}

/// Marks `engine` on the board of `board`, if there is one.
pub fn mark(board: Option<&Searching>, engine: &'static str) -> Option<Mark> {
    board.map(|b| b.mark(engine))
}

/// Says which engines are searching, once a run has gone on for `after` without an answer
/// and again whenever the set of engines changes after that: a line a person watching a
/// long run without a time limit can act on, not a progress display.
#[derive(Debug, Clone)]
pub struct Reporter {
    after: Duration,
    shown: Option<Vec<&'static str>>,
}

impl Reporter {
    pub fn new(after: Duration) -> Reporter {
        Reporter { after, shown: None }
    }

    /// The line to print now, if any: `elapsed` is how long the run has gone on, `searching`
    /// the board as [`Searching::now`] reads it at `now`, and `fallback` the engine to name
    /// when the board is empty (a backend that marks nothing, named on the command line).
    pub fn report(
        &mut self,
        elapsed: Duration,
        searching: &[(&'static str, Instant)],
        now: Instant,
        fallback: &'static str,
    ) -> Option<String> {
        if elapsed < self.after {
            return None;
        }
        let names: Vec<&'static str> = if searching.is_empty() {
            vec![fallback]
        } else {
            searching.iter().map(|&(e, _)| e).collect()
        };
        if self.shown.as_ref() == Some(&names) {
            return None;
        }
        let each: Vec<String> = if searching.is_empty() {
            vec![format!("{fallback} (since {} s)", elapsed.as_secs())]
        } else {
            searching
                .iter()
                .map(|&(e, since)| format!("{e} (since {} s)", now.saturating_duration_since(since).as_secs()))
                .collect()
        };
        self.shown = Some(names);
        Some(format!("now searching: {}", each.join(", ")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_mark_is_on_the_board_while_it_lives() {
        let board = Searching::default();
        let a = board.mark("sat");
        let b = board.clone().mark("highs");
        assert_eq!(board.now().iter().map(|e| e.0).collect::<Vec<_>>(), ["sat", "highs"]);
        drop(a);
        assert_eq!(board.now().iter().map(|e| e.0).collect::<Vec<_>>(), ["highs"]);
        drop(b);
        assert!(board.now().is_empty());
    }

    #[test]
    fn the_reporter_speaks_after_its_threshold_and_again_on_a_change() {
        let t0 = Instant::now();
        let s = Duration::from_secs;
        let mut r = Reporter::new(s(30));
        let two = [("sat", t0), ("highs", t0 + s(1))];
        // Nothing before the threshold, whatever the board says.
        assert_eq!(r.report(s(29), &two, t0 + s(29), "auto"), None);
        assert_eq!(
            r.report(s(30), &two, t0 + s(30), "auto").as_deref(),
            Some("now searching: sat (since 30 s), highs (since 29 s)")
        );
        // The same engines: said once.
        assert_eq!(r.report(s(31), &two, t0 + s(31), "auto"), None);
        // One left the race: said again.
        let one = [("highs", t0 + s(1))];
        assert_eq!(
            r.report(s(40), &one, t0 + s(40), "auto").as_deref(),
            Some("now searching: highs (since 39 s)")
        );
        assert_eq!(r.report(s(50), &one, t0 + s(50), "auto"), None);
    }

    #[test]
    fn an_empty_board_names_the_backend() {
        let t0 = Instant::now();
        let mut r = Reporter::new(Duration::from_secs(30));
        assert_eq!(
            r.report(Duration::from_secs(31), &[], t0, "cadical").as_deref(),
            Some("now searching: cadical (since 31 s)")
        );
    }
}
