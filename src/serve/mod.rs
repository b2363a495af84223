//! `sokuc serve`: the page and its JSON API on 127.0.0.1.
//!
//! A small synchronous server with no async runtime: it is built only inside `serve`, and
//! no other command starts it. Each connection runs on its own thread (at most
//! `Config::max_open`) and carries one request, read and answered within
//! `Config::io_timeout` (`http`); those that solve take turns (`Config::max_running` at
//! once), waiting at most `Config::max_wait` and never past their own time limit. Each
//! request goes through `guard` (only the local user's own page gets in), then one small
//! function per route in `routes`, each over the same library calls the command line
//! makes, answering the same JSON (a `reply::Reply`). What the requests share is in `state`.

pub mod geometry;
mod guard;
mod http;
mod jobs;
mod options;
mod reply;
mod request;
mod routes;
mod state;

use std::io::Read;
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

pub use jobs::Jobs;
pub use options::ServeOptions;
pub use state::Config;

use reply::{Reply, error};
use state::State;

/// What the server could not do.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ServeError {
    /// It could not listen on its port.
    #[error("cannot listen on 127.0.0.1:{port}: {message}")]
    Bind {
        /// The port.
        port: u16,
        /// Why, in the system's words.
        message: String,
    },
}

/// A listening server: the page (a 3SoKu puzzle to place tiles on, the assistant, the other
/// kinds' grids) and its JSON API, on 127.0.0.1 only. What `sokuc serve` runs; see
/// [`ServeOptions`].
pub struct Server {
    listener: TcpListener,
    addr: SocketAddr,
    state: Arc<State>,
}

// By hand: where it listens is what there is to show.
impl std::fmt::Debug for Server {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Server")
            .field("addr", &self.addr)
            .finish_non_exhaustive()
    }
}

impl Server {
    /// Listens on 127.0.0.1 (never another interface: the API runs solvers for whoever
    /// reaches it).
    ///
    /// # Errors
    ///
    /// [`ServeError::Bind`] when the port cannot be listened on (taken, or not allowed).
    pub fn bind(options: &ServeOptions) -> Result<Server, ServeError> {
        let config = options.config.clone();
        let bind_error = |e: std::io::Error| ServeError::Bind {
            port: config.port,
            message: e.to_string(),
        };
        let listener = TcpListener::bind(("127.0.0.1", config.port)).map_err(bind_error)?;
        let addr = listener.local_addr().map_err(bind_error)?;
        let port = addr.port();
        let turns = config.max_running;
        let state = State {
            hosts: vec![format!("127.0.0.1:{port}"), format!("localhost:{port}")],
            config,
            jobs: Jobs::default(),
            turns: jobs::Turns::new(turns),
            running: AtomicUsize::new(0),
        };
        Ok(Server {
            listener,
            addr,
            state: Arc::new(state),
        })
    }

    /// `http://127.0.0.1:PORT/`.
    pub fn url(&self) -> String {
        format!("http://{}/", self.addr)
    }

    /// Answers requests until `stop` is set; then cancels what is running and waits (briefly)
    /// for it to end.
    pub fn run(&self, stop: &AtomicBool) {
        let done = AtomicBool::new(false);
        std::thread::scope(|scope| {
            // Wakes the accepting loop below once `stop` is set, by connecting to it.
            scope.spawn(|| {
                while !stop.load(Ordering::SeqCst) && !done.load(Ordering::SeqCst) {
                    std::thread::sleep(Duration::from_millis(50));
                }
                if !done.load(Ordering::SeqCst) {
                    let _ = TcpStream::connect_timeout(&self.addr, Duration::from_secs(1));
                }
            });
            while !stop.load(Ordering::SeqCst) {
                match self.listener.accept() {
                    Ok((stream, _)) if !stop.load(Ordering::SeqCst) => self.dispatch(stream),
                    Ok(_) => break,
                    // Out of file descriptors, or a connection reset before it was accepted:
                    // the next one may do.
                    Err(_) => std::thread::sleep(Duration::from_millis(10)),
                }
            }
            done.store(true, Ordering::SeqCst);
        });
        self.state.jobs.cancel_all();
        for _ in 0..50 {
            if self.state.running.load(Ordering::SeqCst) == 0 {
                break;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// A connection on a thread of its own, or refused at once past `max_open`.
    fn dispatch(&self, mut stream: TcpStream) {
        let state = &self.state;
        let timeout = state.config.io_timeout;
        if state.running.fetch_add(1, Ordering::SeqCst) >= state.config.max_open {
            state.running.fetch_sub(1, Ordering::SeqCst);
            // On this thread, so nothing here may wait: what the client sent so far is
            // dropped, and the answer fits in the socket's empty send buffer.
            let _ = stream.set_nonblocking(true);
            let _ = stream.read(&mut [0u8; 16 * 1024]);
            let _ = stream.set_nonblocking(false);
            let busy = error(503, "the server is busy: too many requests at once; try again");
            let _ = http::write_reply(&mut stream, &busy, &HEADERS, false, Duration::from_millis(100));
            return;
        }
        let spawned = std::thread::Builder::new().name("sokuc-serve".into()).spawn({
            let state = state.clone();
            move || {
                let _done = Running(&state.running);
                let deadline = Instant::now() + timeout;
                match http::read_request(&mut stream, state.config.max_body, deadline) {
                    Ok(request) => {
                        let reply = handle(&request, &state);
                        let head_only = request.method == "HEAD";
                        let _ = http::write_reply(&mut stream, &reply, &HEADERS, head_only, timeout);
                    }
                    Err(http::Unread::Refused(reply)) => {
                        if http::write_reply(&mut stream, &reply, &HEADERS, false, timeout).is_ok() {
                            let limit = state.config.max_body.saturating_mul(2);
                            http::drain(&mut stream, limit, Instant::now() + timeout);
                        }
                    }
                    Err(http::Unread::Gone) => {}
                }
            }
        });
        if spawned.is_err() {
            state.running.fetch_sub(1, Ordering::SeqCst);
        }
    }
}

/// Counts a request as running until it is dropped (also when its thread panics).
struct Running<'a>(&'a AtomicUsize);

impl Drop for Running<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

fn handle(request: &http::Request, state: &State) -> Reply {
    match guard::check(request, state) {
        Err(refused) => refused,
        Ok(()) => routes::route(&request.method, request.path(), &request.body, state),
    }
}

/// The headers of every answer, besides its type, length and `Connection: close`.
const HEADERS: [(&str, &str); 5] = [
    ("Cache-Control", "no-store"),
    ("X-Content-Type-Options", "nosniff"),
    ("X-Frame-Options", "DENY"),
    ("Referrer-Policy", "no-referrer"),
    (
        "Content-Security-Policy",
        "default-src 'self'; img-src 'self' data: blob:; style-src 'self' 'unsafe-inline'; frame-ancestors 'none'",
    ),
];
