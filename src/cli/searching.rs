//! On a long run without `--timeout`, one line on standard error, after 30 s without an
//! answer and again whenever the engines searching change, saying which engine is searching
//! and since when: without a time limit, a person waiting needs to know whether to wait on
//! (the library marks the engines on a board, [`sokuc::Searching`], and prints nothing
//! itself).

use std::sync::mpsc;
use std::time::{Duration, Instant};

use sokuc::{Searching, SearchingNotice};

/// How long a run goes on without an answer before the first line.
pub const AFTER: Duration = Duration::from_secs(30);

/// The thread that watches a board; dropping it stops the thread.
pub struct Watcher {
    stop: Option<mpsc::Sender<()>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

/// Watches `board` from `started`, naming `fallback` (the backend asked for) when the board
/// is empty.
pub fn watch(board: Searching, fallback: &'static str, started: Instant) -> Watcher {
    let (tx, rx) = mpsc::channel::<()>();
    let thread = std::thread::spawn(move || {
        let mut notice = SearchingNotice::new(AFTER);
        // A look a second: the line is for a person, and a second late is no matter.
        while let Err(mpsc::RecvTimeoutError::Timeout) = rx.recv_timeout(Duration::from_secs(1)) {
            let now = Instant::now();
            if let Some(line) = notice.line(now - started, &board, now, fallback) {
                eprintln!("sokuc: {line}");
            }
        }
    });
    Watcher {
        stop: Some(tx),
        thread: Some(thread),
    }
}

impl Drop for Watcher {
    fn drop(&mut self) {
        drop(self.stop.take());
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}
