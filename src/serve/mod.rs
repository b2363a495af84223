//! `sokuc serve`: the page and its JSON API on 127.0.0.1.
//!
//! A small synchronous server (tiny_http) with no async runtime: it is built only inside
//! `serve`, and no other command starts it. Each request runs on its own thread (at most
//! `Config::max_open`), and those that solve take turns (`Config::max_running` at once);
//! each goes through `guard` (only the local user's own page gets in), then one small
//! function per route in `routes`, each over the same library calls the command line makes,
//! answering the same JSON (a `reply::Reply`). What the requests share is in `state`.

pub mod geometry;
mod guard;
mod jobs;
mod options;
mod reply;
mod request;
mod routes;
mod state;

use std::io::Read;
use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Duration;

use tiny_http::{Header, Response};

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
/// [`ServeOptions`](crate::ServeOptions).
pub struct Server {
    http: Arc<tiny_http::Server>,
    addr: SocketAddr,
    state: Arc<State>,
}

// By hand: tiny_http's server has no Debug; where it listens is what there is to show.
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
        let http = tiny_http::Server::http(("127.0.0.1", config.port)).map_err(|e| ServeError::Bind {
            port: config.port,
            message: e.to_string(),
        })?;
        let addr = match http.server_addr().to_ip() {
            Some(a) => a,
            None => {
                return Err(ServeError::Bind {
                    port: config.port,
                    message: "not an IP socket".into(),
                });
            }
        };
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
            http: Arc::new(http),
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
        while !stop.load(Ordering::SeqCst) {
            let request = match self.http.recv_timeout(Duration::from_millis(100)) {
                Ok(Some(r)) => r,
                Ok(None) => continue,
                Err(_) => break,
            };
            let state = self.state.clone();
            if state.running.fetch_add(1, Ordering::SeqCst) >= state.config.max_open {
                state.running.fetch_sub(1, Ordering::SeqCst);
                respond(
                    request,
                    error(503, "the server is busy: too many requests at once; try again"),
                );
                continue;
            }
            let spawned = std::thread::Builder::new().name("sokuc-serve".into()).spawn({
                let state = state.clone();
                move || {
                    let _done = Running(&state.running);
                    handle(request, &state);
                }
            });
            if spawned.is_err() {
                state.running.fetch_sub(1, Ordering::SeqCst);
            }
        }
        self.state.jobs.cancel_all();
        for _ in 0..50 {
            if self.state.running.load(Ordering::SeqCst) == 0 {
                break;
            }
            std::thread::sleep(Duration::from_millis(20));
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

fn handle(mut request: tiny_http::Request, state: &State) {
    let reply = match guard::check(&request, state) {
        Err(refused) => refused,
        Ok(()) => match read_body(&mut request, state.config.max_body) {
            Err(refused) => refused,
            Ok(body) => {
                let method = request.method().as_str().to_string();
                let path = request.url().split('?').next().unwrap_or("").to_string();
                routes::route(&method, &path, &body, state)
            }
        },
    };
    respond(request, reply);
}

/// The body, refused past `max` bytes whatever `Content-Length` says.
fn read_body(request: &mut tiny_http::Request, max: usize) -> Result<Vec<u8>, Reply> {
    if request.body_length().is_some_and(|n| n > max) {
        return Err(error(
            413,
            format!("the request is larger than the limit of {max} bytes"),
        ));
    }
    let mut body = Vec::new();
    let limit = u64::try_from(max).unwrap_or(u64::MAX).saturating_add(1);
    request
        .as_reader()
        .take(limit)
        .read_to_end(&mut body)
        .map_err(|e| error(400, format!("cannot read the request: {e}")))?;
    if body.len() > max {
        return Err(error(
            413,
            format!("the request is larger than the limit of {max} bytes"),
        ));
    }
    Ok(body)
}

fn respond(request: tiny_http::Request, reply: Reply) {
    let mut r = Response::from_data(reply.body).with_status_code(reply.status);
    for (k, v) in [
        ("Content-Type", reply.content_type),
        ("Cache-Control", "no-store"),
        ("X-Content-Type-Options", "nosniff"),
        ("X-Frame-Options", "DENY"),
        ("Referrer-Policy", "no-referrer"),
        (
            "Content-Security-Policy",
            "default-src 'self'; img-src 'self' data: blob:; style-src 'self' 'unsafe-inline'; frame-ancestors 'none'",
        ),
    ] {
        if let Ok(h) = Header::from_bytes(k.as_bytes(), v.as_bytes()) {
            r.add_header(h);
        }
    }
    // The client may have gone (a cancelled request): nothing to do about it.
    let _ = request.respond(r);
}
