//! The server's settings ([`Config`]), and what every request's thread shares ([`State`]):
//! them, the cancel flags of running requests, and the turns at the solvers.

use std::sync::atomic::AtomicUsize;
use std::time::{Duration, Instant};

use serde_json::json;

use super::jobs::{self, Jobs};
use super::reply::{Reply, error};

/// How the server runs.
#[derive(Debug, Clone)]
pub struct Config {
    /// The port on 127.0.0.1; 0 picks a free one.
    pub port: u16,
    /// The largest request body, in bytes.
    pub max_body: usize,
    /// The time limit of a request that gives none.
    pub default_timeout: Duration,
    /// The longest time limit a request may ask for.
    pub max_timeout: Duration,
    /// Requests that solve, count or compile at once; more wait for a turn (and can be
    /// cancelled while they wait).
    pub max_running: usize,
    /// Requests open at once, waiting ones included; past it the server answers 503.
    pub max_open: usize,
    /// Memory for one request's model or count, in bytes (a page of solutions is held within
    /// a quarter of it).
    pub max_memory: u64,
    /// How long a connection may take to send its whole request, and each write of the
    /// answer to go out; past it the connection is closed.
    pub io_timeout: Duration,
    /// The longest a request waits for a turn at the solvers (a request with a time limit
    /// waits no longer than that either); past it the answer is 503, busy.
    pub max_wait: Duration,
    /// A tuning experiment for every `cp` solve the server runs (none by default), as
    /// [`Options::cp_tuning`](sokuc::Options::cp_tuning) takes it.
    pub cp_tuning: Option<String>,
    /// A tuning experiment for every CaDiCaL solve (none by default), as
    /// [`Options::cadical_tuning`](sokuc::Options::cadical_tuning) takes it.
    pub cadical_tuning: Option<String>,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            port: 0,
            max_body: 4 << 20,
            default_timeout: Duration::from_secs(10),
            max_timeout: Duration::from_secs(120),
            max_running: 4,
            max_open: 64,
            max_memory: 2 << 30,
            io_timeout: Duration::from_secs(30),
            max_wait: Duration::from_secs(60),
            cp_tuning: None,
            cadical_tuning: None,
        }
    }
}

/// What every request's thread shares.
pub(crate) struct State {
    pub(crate) config: Config,
    pub(crate) jobs: Jobs,
    /// The addresses this server answers to, as `Host` and `Origin` carry them.
    pub(crate) hosts: Vec<String>,
    pub(crate) turns: jobs::Turns,
    pub(super) running: AtomicUsize,
}

impl State {
    /// A request's cancel flag (named `job` for `/api/cancel`) and its turn at the solvers,
    /// once one is free. A request stopped while it waits answers `unknown` at once; one
    /// still waiting at the end of its time limit `limit` (which counts from its arrival,
    /// `started`), or after `max_wait`, is answered 503, busy.
    pub(crate) fn begin(
        &self,
        job: Option<&str>,
        started: Instant,
        limit: Duration,
    ) -> Result<(jobs::Ticket<'_>, jobs::Turn<'_>), Reply> {
        let ticket = self.jobs.start(job);
        let waited = Instant::now();
        // A deadline past what an `Instant` holds is none.
        let deadline = match (started.checked_add(limit), waited.checked_add(self.config.max_wait)) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        match self.turns.take(&ticket.flag, deadline) {
            jobs::Taken::Turn(turn) => Ok((ticket, turn)),
            jobs::Taken::Cancelled => Err(Reply::json(&json!({
                "status": "unknown",
                "reason": "the request was stopped before it started",
            }))),
            jobs::Taken::TimedOut => Err(error(
                503,
                format!(
                    "the server is busy: no turn at the solvers came free within {:.1} s \
                     ({} requests solve at once); try again later, or give a longer `timeout`",
                    waited.elapsed().as_secs_f64(),
                    self.config.max_running.max(1)
                ),
            )),
        }
    }
}
