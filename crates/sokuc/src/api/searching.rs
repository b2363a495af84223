//! Which engines a solve is running now, for a program that says so on a long run (the
//! library itself prints nothing).

use std::time::{Duration, Instant};

use crate::backend::searching;

/// A board on which a solve marks each engine while it searches: hand it to
/// [`Options::searching`](crate::Options::searching) and read it from another thread. Cloning
/// shares the board.
///
/// ```
/// use sokuc::{Instance, Options, Searching};
///
/// let board = Searching::new();
/// let puzzle = Instance::icosoku("1,2,3,4,5,6,7,8,9,10,11,12")?;
/// puzzle.solve(&Options::new().searching(board.clone()))?;
/// // Every engine is off the board once the solve is over.
/// assert!(board.now().is_empty());
/// # Ok::<(), sokuc::Error>(())
/// ```
#[derive(Debug, Clone, Default)]
pub struct Searching {
    pub(crate) board: searching::Searching,
}

impl Searching {
    /// An empty board.
    pub fn new() -> Searching {
        Searching::default()
    }

    /// The engines searching now, each with when it started, in the order they started.
    pub fn now(&self) -> Vec<(&'static str, Instant)> {
        self.board.now()
    }
}

/// The line that says which engines are searching, once a run has gone on for a while
/// without an answer and again whenever the engines change after that: for a person
/// watching a long run without a time limit (`sokuc solve` prints it after 30 s), not a
/// progress display.
///
/// ```
/// use std::time::{Duration, Instant};
/// use sokuc::{Searching, SearchingNotice};
///
/// let mut notice = SearchingNotice::new(Duration::from_secs(30));
/// let board = Searching::new();
/// let now = Instant::now();
/// assert_eq!(notice.line(Duration::from_secs(5), &board, now, "sat"), None);
/// assert_eq!(
///     notice.line(Duration::from_secs(31), &board, now, "sat").as_deref(),
///     Some("now searching: sat (since 31 s)")
/// );
/// ```
#[derive(Debug, Clone)]
pub struct SearchingNotice {
    reporter: searching::Reporter,
}

impl SearchingNotice {
    /// A notice that speaks once a run has gone on for `after`.
    pub fn new(after: Duration) -> SearchingNotice {
        SearchingNotice {
            reporter: searching::Reporter::new(after),
        }
    }

    /// The line to print now, if any: `elapsed` is how long the run has gone on, `board` is
    /// read at `now`, and `fallback` is the engine to name when the board is empty (a
    /// backend that marks nothing: the one asked for).
    pub fn line(
        &mut self,
        elapsed: Duration,
        board: &Searching,
        now: Instant,
        fallback: &'static str,
    ) -> Option<String> {
        self.reporter.report(elapsed, &board.board.now(), now, fallback)
    }
}
