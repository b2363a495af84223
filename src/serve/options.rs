//! How the server serves: the options a program (or `sokuc serve`) binds it with.

use std::time::Duration;

/// How [`Server`](crate::serve::Server) serves: its port and its limits. Build it with
/// [`ServeOptions::new`] and its setters.
///
/// ```no_run
/// use std::sync::atomic::AtomicBool;
/// use sokuc_cli::serve::{ServeOptions, Server};
///
/// let server = Server::bind(&ServeOptions::new().port(8080).max_memory(1 << 30))?;
/// println!("open {}", server.url());
/// server.run(&AtomicBool::new(false)); // until the flag is set
/// # Ok::<(), sokuc_cli::serve::ServeError>(())
/// ```
#[derive(Debug, Clone, Default)]
pub struct ServeOptions {
    pub(crate) config: crate::serve::Config,
}

impl ServeOptions {
    /// A free port, a 4 MiB request body, time limits of 10 s by default and 120 s at most,
    /// 4 requests solving at once and 64 open, 2 GiB for one request's model, 30 s to send
    /// a request, 60 s at most waiting for a turn.
    pub fn new() -> ServeOptions {
        ServeOptions::default()
    }

    /// The port on 127.0.0.1; 0 (the default) picks a free one, which
    /// [`Server::url`](crate::serve::Server::url) names.
    pub fn port(mut self, port: u16) -> ServeOptions {
        self.config.port = port;
        self
    }

    /// The largest request body, in bytes.
    pub fn max_body(mut self, bytes: usize) -> ServeOptions {
        self.config.max_body = bytes;
        self
    }

    /// The time limit of a request that gives none.
    pub fn default_timeout(mut self, limit: Duration) -> ServeOptions {
        self.config.default_timeout = limit;
        self
    }

    /// The longest time limit a request may ask for.
    pub fn max_timeout(mut self, limit: Duration) -> ServeOptions {
        self.config.max_timeout = limit;
        self
    }

    /// How many requests solve, count or compile at once; more wait for a turn (and can be
    /// cancelled while they wait).
    pub fn max_running(mut self, requests: usize) -> ServeOptions {
        self.config.max_running = requests;
        self
    }

    /// How many requests may be open at once, waiting ones included; past it the server
    /// answers 503.
    pub fn max_open(mut self, requests: usize) -> ServeOptions {
        self.config.max_open = requests;
        self
    }

    /// Memory for one request's model or count, in bytes. A page of solutions is held within
    /// a quarter of it, and refused at once when its solutions cannot fit.
    pub fn max_memory(mut self, bytes: u64) -> ServeOptions {
        self.config.max_memory = bytes;
        self
    }

    /// How long a connection may take to send its whole request (30 s by default), and each
    /// write of the answer to go out; past it the connection is closed, so that a client
    /// that sends half a request, or reads nothing, holds no thread for longer.
    pub fn io_timeout(mut self, limit: Duration) -> ServeOptions {
        self.config.io_timeout = limit;
        self
    }

    /// The longest a request waits for a turn at the solvers (60 s by default; a request
    /// waits no longer than its own time limit either). Past it, the answer is 503: busy.
    pub fn max_wait(mut self, limit: Duration) -> ServeOptions {
        self.config.max_wait = limit;
        self
    }

    /// A tuning experiment for every `cp` solve the server runs (as
    /// [`Options::cp_tuning`](sokuc::Options::cp_tuning)).
    pub fn cp_tuning(mut self, settings: impl Into<String>) -> ServeOptions {
        self.config.cp_tuning = Some(settings.into());
        self
    }

    /// A tuning experiment for every CaDiCaL solve the server runs (as
    /// [`Options::cadical_tuning`](sokuc::Options::cadical_tuning)).
    pub fn cadical_tuning(mut self, settings: impl Into<String>) -> ServeOptions {
        self.config.cadical_tuning = Some(settings.into());
        self
    }
}
