//! CBC's C interface, opened at run time, and one CBC solve in a child process.
//!
//! **Opened, not linked.** Linking CBC (as good_lp's `coin_cbc` solver does) made every
//! command of a `mip` build load and relocate CBC and what it pulls in (libCbcSolver, libCbc,
//! libCgl, libOsiClp, libClp, libOsi, libCoinUtils, LAPACK, BLAS, libgfortran, libquadmath)
//! before `main`: 7 ms of an 8 ms `sokuc --version`. The library is opened here the first time the
//! `mip` backend solves (through good_lp: [`super::lazy_cbc`]), with the dozen functions it
//! calls; a build with `mip` needs nothing of CBC, and a machine without CBC gets an error
//! naming the library instead of a binary that does not start.
//!
//! **A child process per solve.** CBC's C interface cannot stop a solve, and its own time limit
//! (`sec`) does not cover its preprocessing and root LP: on random bipyramids it ran 5-7 s past
//! a 1 s limit (bipyramid-500) and 3 minutes past a 10 s limit (bipyramid-2000). On a thread
//! such a solve could only be abandoned at the deadline: it kept a core and its memory
//! (unwatched, growing) until CBC stopped on its own, and it held the lock that keeps CBC
//! solves of one process apart (CBC's solver driver has global state), so the next `mip` solve
//! of a `bench` or `scaling` run waited for it and could answer `unknown` too. A child process
//! is killed at the deadline instead: its core and memory come back at once, the memory limit
//! is watched on it until then, and solves share no CBC state, so they need no lock.
//!
//! The child is forked without `exec`, so the library (and its tests) need no helper
//! executable and the model is not serialised: the child reads the arrays the parent built
//! (copy on write) and writes back the columns' values (8 bytes each) through a pipe. After
//! `fork` in a multi-threaded process the child may only rely on what no other thread could
//! have held locked: CBC is opened and bound (`RTLD_NOW`) in the parent, so the child never
//! enters the dynamic loader; glibc's `fork` leaves `malloc` and stdio usable in the child; the answer
//! goes out with `write` and the child leaves with `_exit`, running no `atexit` handler or C++
//! destructor.

#![deny(clippy::cast_possible_truncation, clippy::cast_sign_loss)]

use std::ffi::{CString, OsString, c_char, c_double, c_int, c_void};
use std::io;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

/// Names CBC's C library (a path, or a file name the loader searches for) when it is not where
/// the loader looks by default.
pub const LIBRARY_VAR: &str = "SOKUC_CBC_LIBRARY";

/// CBC 2.10's C interface lives in libCbcSolver (Debian: coinor-libcbc3); the unversioned name
/// comes with the development package and with builds from source.
#[cfg(not(target_os = "macos"))]
const LIBRARY_NAMES: &[&str] = &["libCbcSolver.so.3", "libCbcSolver.so"];
#[cfg(target_os = "macos")]
const LIBRARY_NAMES: &[&str] = &["libCbcSolver.3.dylib", "libCbcSolver.dylib"];

/// `Cbc_Model`, opaque.
type Model = c_void;

/// The functions of CBC's C interface the backend calls (Cbc_C_Interface.h, CBC 2.10; its
/// `CoinBigIndex` is `int` unless CBC was built with COIN_BIG_INDEX, which Debian's is not).
pub struct Api {
    version: unsafe extern "C" fn() -> *const c_char,
    new_model: unsafe extern "C" fn() -> *mut Model,
    #[allow(clippy::type_complexity)]
    load_problem: unsafe extern "C" fn(
        *mut Model,
        c_int,
        c_int,
        *const c_int,
        *const c_int,
        *const c_double,
        *const c_double,
        *const c_double,
        *const c_double,
        *const c_double,
        *const c_double,
    ),
    set_integer: unsafe extern "C" fn(*mut Model, c_int),
    set_parameter: unsafe extern "C" fn(*mut Model, *const c_char, *const c_char),
    set_log_level: unsafe extern "C" fn(*mut Model, c_int),
    solve: unsafe extern "C" fn(*mut Model) -> c_int,
    status: unsafe extern "C" fn(*mut Model) -> c_int,
    secondary_status: unsafe extern "C" fn(*mut Model) -> c_int,
    is_proven_infeasible: unsafe extern "C" fn(*mut Model) -> c_int,
    col_solution: unsafe extern "C" fn(*mut Model) -> *const c_double,
    /// Kept open for the life of the process (the `Api` lives in a static): the function
    /// pointers above point into it.
    _library: libloading::Library,
}

impl Api {
    /// CBC's version, e.g. "2.10.8".
    pub fn version(&self) -> String {
        // SAFETY: Cbc_getVersion returns a static NUL-terminated string.
        let v = unsafe { (self.version)() };
        if v.is_null() {
            return String::new();
        }
        // SAFETY: `v` is not null (checked above) and points to CBC's static NUL-terminated
        // version string.
        unsafe { std::ffi::CStr::from_ptr(v) }.to_string_lossy().into_owned()
    }
}

/// What went wrong with CBC.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CbcError {
    /// Its library cannot be loaded (or is not CBC's): the message says which and how to get
    /// it.
    #[error("{0}")]
    Unavailable(String),
    /// A solve ended without an answer.
    #[error("{0}")]
    Failed(String),
}

/// CBC's C interface, opened on the first call.
pub fn api() -> Result<&'static Api, CbcError> {
    static API: OnceLock<Result<Api, CbcError>> = OnceLock::new();
    API.get_or_init(open).as_ref().map_err(Clone::clone)
}

fn open() -> Result<Api, CbcError> {
    let named = std::env::var_os(LIBRARY_VAR).filter(|v| !v.is_empty());
    let candidates: Vec<OsString> = match &named {
        Some(n) => vec![n.clone()],
        None => LIBRARY_NAMES.iter().map(OsString::from).collect(),
    };
    let mut failures = Vec::new();
    for name in &candidates {
        use libloading::os::unix::{Library, RTLD_LOCAL, RTLD_NOW};
        // RTLD_NOW binds every symbol CBC uses now, in the parent: a solve in the forked child
        // then never enters the dynamic loader, whose lock another thread may have held at
        // the fork. SAFETY: opening runs the library's initialisers (CBC's C++ statics).
        match unsafe { Library::open(Some(name), RTLD_NOW | RTLD_LOCAL) } {
            Ok(lib) => return bind(lib.into(), name),
            Err(e) => failures.push(e.to_string()),
        }
    }
    let install = "install CBC's library (Debian/Ubuntu: apt install coinor-libcbc-dev, as \
                   scripts/install-tools.sh does; coinor-libcbc3 alone is enough)";
    let how = match named {
        Some(_) => format!("check {LIBRARY_VAR}, or unset it and {install}"),
        None => format!("{install}, or name the library with {LIBRARY_VAR}=/path/to/libCbcSolver.so"),
    };
    Err(CbcError::Unavailable(format!(
        "CBC's C library could not be loaded ({}): {how}; or use another backend (sat, cp, search)",
        failures.join("; ")
    )))
}

/// One function of the library, copied out of its symbol.
///
/// SAFETY: `T` must be the function's true type (see the declarations in [`Api`]).
unsafe fn symbol<T: Copy>(lib: &libloading::Library, name: &str) -> Result<T, libloading::Error> {
    let mut z = name.as_bytes().to_vec();
    z.push(0);
    // SAFETY: `z` is the NUL-terminated name, and the caller promises that `T` is the
    // symbol's true type (this function's contract).
    unsafe { lib.get::<T>(&z) }.map(|s| *s)
}

fn bind(lib: libloading::Library, name: &OsString) -> Result<Api, CbcError> {
    let fail = |e: libloading::Error| {
        CbcError::Unavailable(format!(
            "{} is not CBC's C library, or not CBC 2.10's ({e}); name another with {LIBRARY_VAR}",
            name.to_string_lossy()
        ))
    };
    // SAFETY: the types are those of Cbc_C_Interface.h (CBC 2.10).
    unsafe {
        Ok(Api {
            version: symbol(&lib, "Cbc_getVersion").map_err(fail)?,
            new_model: symbol(&lib, "Cbc_newModel").map_err(fail)?,
            load_problem: symbol(&lib, "Cbc_loadProblem").map_err(fail)?,
            set_integer: symbol(&lib, "Cbc_setInteger").map_err(fail)?,
            set_parameter: symbol(&lib, "Cbc_setParameter").map_err(fail)?,
            set_log_level: symbol(&lib, "Cbc_setLogLevel").map_err(fail)?,
            solve: symbol(&lib, "Cbc_solve").map_err(fail)?,
            status: symbol(&lib, "Cbc_status").map_err(fail)?,
            secondary_status: symbol(&lib, "Cbc_secondaryStatus").map_err(fail)?,
            is_proven_infeasible: symbol(&lib, "Cbc_isProvenInfeasible").map_err(fail)?,
            col_solution: symbol(&lib, "Cbc_getColSolution").map_err(fail)?,
            _library: lib,
        })
    }
}

/// A 0/1 program in the column-major form `Cbc_loadProblem` takes: column `j`'s entries are
/// `index[start[j]..start[j + 1]]` (rows, increasing) and the matching `value`s.
#[derive(Debug, Clone, Default)]
pub struct Problem {
    pub num_rows: usize,
    pub start: Vec<c_int>,
    pub index: Vec<c_int>,
    pub value: Vec<f64>,
    pub col_lower: Vec<f64>,
    pub col_upper: Vec<f64>,
    /// Which columns are integer.
    pub integer: Vec<bool>,
    /// The objective's coefficient of each column, minimised (empty: all zero).
    pub objective: Vec<f64>,
    pub row_lower: Vec<f64>,
    pub row_upper: Vec<f64>,
    /// CBC parameters as its command line takes them ("sec", "5.000").
    pub parameters: Vec<(CString, CString)>,
}

impl Problem {
    pub fn num_cols(&self) -> usize {
        self.start.len().saturating_sub(1)
    }
}

/// CBC's verdict.
#[derive(Debug, Clone, PartialEq)]
pub enum Answer {
    Infeasible,
    /// The columns' values; `time_limit`: CBC stopped at its own time limit and these are
    /// whatever point it had, feasible or not.
    Solution {
        values: Vec<f64>,
        time_limit: bool,
    },
    /// CBC stopped at its own time limit with no point.
    TimeLimit,
    Error(String),
}

/// Message tags, child to parent: a tag byte, a little-endian `u64` length, the payload (a
/// `u32` length would wrap past 2^29 columns of values).
const INFEASIBLE: u8 = 0;
const SOLUTION: u8 = 1;
const SOLUTION_AT_LIMIT: u8 = 2;
const TIME_LIMIT: u8 = 3;
const ERROR: u8 = 4;
const HEADER: usize = 9;

fn message(tag: u8, payload: &[u8]) -> Vec<u8> {
    let mut m = Vec::with_capacity(HEADER + payload.len());
    m.push(tag);
    m.extend_from_slice(&(payload.len() as u64).to_le_bytes());
    m.extend_from_slice(payload);
    m
}

/// The answer in `buf`, once all of it has arrived.
fn parse(buf: &[u8]) -> Option<Answer> {
    let header: [u8; 8] = buf.get(1..HEADER)?.try_into().ok()?;
    // A length past the address space cannot have arrived yet (nor ever).
    let len = usize::try_from(u64::from_le_bytes(header)).ok()?;
    let payload = buf.get(HEADER..HEADER.checked_add(len)?)?;
    let values = || {
        payload
            .chunks_exact(8)
            .map(|b| f64::from_le_bytes(b.try_into().expect("8 bytes")))
            .collect()
    };
    Some(match buf[0] {
        INFEASIBLE => Answer::Infeasible,
        SOLUTION => Answer::Solution {
            values: values(),
            time_limit: false,
        },
        SOLUTION_AT_LIMIT => Answer::Solution {
            values: values(),
            time_limit: true,
        },
        TIME_LIMIT => Answer::TimeLimit,
        ERROR => Answer::Error(String::from_utf8_lossy(payload).into_owned()),
        other => Answer::Error(format!("CBC's process sent an unknown answer (tag {other})")),
    })
}

/// A CBC solve under way in a child process. Dropping it kills the child (if it still runs)
/// and waits for it to end, so no solve outlives the call that started it.
pub struct Running {
    pid: libc::pid_t,
    from_child: OwnedFd,
    buf: Vec<u8>,
    reaped: bool,
}

/// Starts solving `p` in a child process.
pub fn start(api: &'static Api, p: &Problem) -> io::Result<Running> {
    let n = p.num_cols();
    if n > c_int::MAX as usize || p.num_rows > c_int::MAX as usize || p.index.len() > c_int::MAX as usize {
        return Err(io::Error::other(
            "the model is too large for CBC (over 2^31 rows, columns or entries)",
        ));
    }
    let mut fds = [0 as c_int; 2];
    // SAFETY: fds has room for the two descriptors.
    if unsafe { libc::pipe(fds.as_mut_ptr()) } != 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: pipe returned two fresh descriptors, owned from here on.
    let (from_child, to_parent) = unsafe { (OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1])) };
    // Close-on-exec, so that a program another thread starts does not keep the pipe open
    // (an answer never depends on seeing the end of the pipe: see `Running::wait`).
    for fd in [&from_child, &to_parent] {
        // SAFETY: a valid descriptor.
        unsafe { libc::fcntl(fd.as_raw_fd(), libc::F_SETFD, libc::FD_CLOEXEC) };
    }
    // SAFETY: getpid cannot fail.
    let parent = unsafe { libc::getpid() };
    // SAFETY: the child runs only `child`, which never returns (see the module comment for
    // what it may and may not do).
    match unsafe { libc::fork() } {
        -1 => Err(io::Error::last_os_error()),
        // SAFETY: this is the freshly forked child, the one place `child` may run.
        0 => unsafe { child(api, p, to_parent.as_raw_fd(), parent) },
        pid => {
            drop(to_parent);
            Ok(Running {
                pid,
                from_child,
                buf: Vec::new(),
                reaped: false,
            })
        }
    }
}

/// The child: solve, send the answer, leave.
///
/// SAFETY: to be called only in a freshly forked child; it never returns.
unsafe fn child(api: &Api, p: &Problem, out: c_int, parent: libc::pid_t) -> ! {
    // SAFETY: called only in a freshly forked child (this function's contract), which uses
    // only what the module comment allows after `fork`: libc calls on its own descriptors and
    // addresses, CBC through `solve_here`, then `_exit`.
    unsafe {
        // Dies with the parent whatever kills it (a signal, a crash), instead of running on
        // to CBC's own limit. The parent may have died before this line: then leave now.
        #[cfg(target_os = "linux")]
        libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL as libc::c_ulong);
        if libc::getppid() != parent {
            libc::_exit(1);
        }
        // CBC writes some messages whatever its log level; they must not mix with sokuc's.
        let null = libc::open(c"/dev/null".as_ptr(), libc::O_WRONLY);
        if null >= 0 {
            libc::dup2(null, 1);
            libc::dup2(null, 2);
        }
        let answer = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| solve_here(api, p)))
            .unwrap_or_else(|_| message(ERROR, b"the CBC process panicked"));
        let mut rest: &[u8] = &answer;
        while !rest.is_empty() {
            let n = libc::write(out, rest.as_ptr().cast(), rest.len());
            if n > 0 {
                rest = &rest[n.unsigned_abs()..];
            } else if n < 0 && io::Error::last_os_error().kind() == io::ErrorKind::Interrupted {
                continue;
            } else {
                break;
            }
        }
        libc::_exit(0)
    }
}

/// Loads `p` into a new CBC model, solves it, and encodes CBC's verdict as a message.
///
/// SAFETY: the arrays of `p` have the sizes `Cbc_loadProblem` reads (checked by [`start`]
/// for the counts, by the caller for the rest).
unsafe fn solve_here(api: &Api, p: &Problem) -> Vec<u8> {
    let n = p.num_cols();
    let obj = if p.objective.len() == n {
        p.objective.clone()
    } else {
        vec![0.0; n]
    };
    // SAFETY: `api`'s functions were bound by `symbol` to their declared C types; every
    // array passed lives until this function returns and has the length CBC reads (`start`
    // n + 1 entries, `index` and `value` `start[n]`, the column arrays n, the row arrays
    // `num_rows`: `Problem` is built that way), `start` checked n, `num_rows` and the
    // nonzeros against `c_int`), the model `m` is used only once it is known not to be null,
    // and the column solution CBC returns, when not null, has the model's n entries.
    unsafe {
        let m = (api.new_model)();
        if m.is_null() {
            return message(ERROR, b"Cbc_newModel failed");
        }
        (api.load_problem)(
            m,
            c_int::try_from(n).expect("start refuses models past c_int::MAX columns"),
            c_int::try_from(p.num_rows).expect("start refuses models past c_int::MAX rows"),
            p.start.as_ptr(),
            p.index.as_ptr(),
            p.value.as_ptr(),
            p.col_lower.as_ptr(),
            p.col_upper.as_ptr(),
            obj.as_ptr(),
            p.row_lower.as_ptr(),
            p.row_upper.as_ptr(),
        );
        for (j, _) in p.integer.iter().enumerate().take(n).filter(|(_, i)| **i) {
            (api.set_integer)(m, c_int::try_from(j).expect("j < n, checked by start"));
        }
        (api.set_log_level)(m, 0);
        for (k, v) in &p.parameters {
            (api.set_parameter)(m, k.as_ptr(), v.as_ptr());
        }
        (api.solve)(m);
        let status = (api.status)(m);
        let secondary = (api.secondary_status)(m);
        // Secondary status 1: the LP relaxation is infeasible, so the 0/1 program is too.
        if (api.is_proven_infeasible)(m) != 0 || secondary == 1 {
            return message(INFEASIBLE, &[]);
        }
        let point = || {
            let x = (api.col_solution)(m);
            (!x.is_null()).then(|| {
                std::slice::from_raw_parts(x, n)
                    .iter()
                    .flat_map(|v| v.to_le_bytes())
                    .collect::<Vec<u8>>()
            })
        };
        // Status: -1 not launched (presolve decided it), 0 finished, 1 stopped (secondary 4:
        // on time), 2 abandoned, 5 stopped by an event. Secondary 4 after "finished" is a
        // time limit reached inside a phase that ends normally.
        let on_time = secondary == 4;
        match (status, point()) {
            (-1 | 0, Some(x)) => message(if on_time { SOLUTION_AT_LIMIT } else { SOLUTION }, &x),
            (1, Some(x)) if on_time => message(SOLUTION_AT_LIMIT, &x),
            (1, None) if on_time => message(TIME_LIMIT, &[]),
            (_, x) => message(
                ERROR,
                format!(
                    "CBC stopped with status {status}, secondary status {secondary}{}",
                    if x.is_none() { ", no column values" } else { "" }
                )
                .as_bytes(),
            ),
        }
    }
}

/// Reads `fd` while it has data, into `buf`; `Ok(false)` at end of file.
fn read_available(fd: c_int, buf: &mut Vec<u8>, wait: Duration) -> io::Result<bool> {
    let until = Instant::now() + wait;
    loop {
        let left = until.saturating_duration_since(Instant::now());
        let mut pfd = libc::pollfd {
            fd,
            events: libc::POLLIN,
            revents: 0,
        };
        let ms = c_int::try_from(left.as_millis()).unwrap_or(c_int::MAX);
        // SAFETY: one valid pollfd.
        let r = unsafe { libc::poll(&mut pfd, 1, ms) };
        if r < 0 {
            let e = io::Error::last_os_error();
            if e.kind() == io::ErrorKind::Interrupted {
                continue;
            }
            return Err(e);
        }
        if r == 0 {
            return Ok(true);
        }
        buf.reserve(1 << 16);
        let spare = buf.spare_capacity_mut();
        // SAFETY: `spare` is writable memory of its length.
        let got = unsafe { libc::read(fd, spare.as_mut_ptr().cast(), spare.len()) };
        if got < 0 {
            let e = io::Error::last_os_error();
            if e.kind() == io::ErrorKind::Interrupted {
                continue;
            }
            return Err(e);
        }
        if got == 0 {
            return Ok(false);
        }
        // SAFETY: `read` initialised the first `got` bytes of the spare capacity.
        unsafe { buf.set_len(buf.len() + got.unsigned_abs()) };
        if parse(buf).is_some() {
            return Ok(true);
        }
    }
}

impl Running {
    /// Waits at most `wait` for CBC's answer; `Ok(None)`: still solving. An error: the child
    /// ended without an answer (CBC crashed), or the pipe failed.
    pub fn wait(&mut self, wait: Duration) -> Result<Option<Answer>, CbcError> {
        let fd = self.from_child.as_raw_fd();
        let open = read_available(fd, &mut self.buf, wait)
            .map_err(|e| CbcError::Failed(format!("reading CBC's answer: {e}")))?;
        if let Some(a) = parse(&self.buf) {
            self.reap(0);
            return Ok(Some(a));
        }
        // No answer yet. The pipe reports the child's end only once every copy of its write
        // end is closed, and a child forked meanwhile by another thread holds one: ask for
        // the child's status too.
        let ended = if open { self.reap(libc::WNOHANG) } else { self.reap(0) };
        match ended {
            None => Ok(None),
            Some(status) => {
                // It may have written its answer just before it ended.
                let _ = read_available(fd, &mut self.buf, Duration::ZERO);
                parse(&self.buf).map(Some).ok_or_else(|| describe_end(status))
            }
        }
    }

    /// The child's resident size (which counts the parent's pages it shares, as the whole
    /// process's did when CBC ran in it).
    pub fn resident_bytes(&self) -> Option<u64> {
        crate::budget::memory::resident_bytes_of(self.pid.unsigned_abs())
    }

    /// Waits for the child (`flags`: 0 or WNOHANG); its wait status once it has ended.
    fn reap(&mut self, flags: c_int) -> Option<c_int> {
        if self.reaped {
            return Some(0);
        }
        loop {
            let mut status = 0;
            // SAFETY: our own child; status is a valid out pointer.
            let r = unsafe { libc::waitpid(self.pid, &mut status, flags) };
            if r == self.pid {
                self.reaped = true;
                return Some(status);
            }
            if r == 0 {
                return None;
            }
            let e = io::Error::last_os_error();
            if e.kind() == io::ErrorKind::Interrupted {
                continue;
            }
            // ECHILD: reaped elsewhere (SIGCHLD ignored); it has ended either way.
            self.reaped = true;
            return Some(0);
        }
    }
}

fn describe_end(status: c_int) -> CbcError {
    CbcError::Failed(if libc::WIFSIGNALED(status) {
        format!(
            "CBC's process ended without an answer, killed by signal {}",
            libc::WTERMSIG(status)
        )
    } else {
        format!(
            "CBC's process ended without an answer (exit status {})",
            libc::WEXITSTATUS(status)
        )
    })
}

impl Drop for Running {
    fn drop(&mut self) {
        if !self.reaped {
            // SAFETY: our own child, not yet reaped, so the pid is still ours.
            unsafe { libc::kill(self.pid, libc::SIGKILL) };
            self.reap(0);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_parse_only_when_complete() {
        let x: Vec<u8> = [1.0f64, 0.0, 0.25].iter().flat_map(|v| v.to_le_bytes()).collect();
        let m = message(SOLUTION, &x);
        for cut in 0..m.len() {
            assert_eq!(parse(&m[..cut]), None, "{cut}");
        }
        assert_eq!(
            parse(&m),
            Some(Answer::Solution {
                values: vec![1.0, 0.0, 0.25],
                time_limit: false
            })
        );
        assert_eq!(parse(&message(INFEASIBLE, &[])), Some(Answer::Infeasible));
        assert_eq!(parse(&message(ERROR, b"boom")), Some(Answer::Error("boom".into())));
    }
}
