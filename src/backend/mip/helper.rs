//! A MIP solver in a helper process: `sokuc-cbc` (CBC, the `mip` backend) or `sokuc-highs`
//! (HiGHS, the `highs` backend), small executables of the workspace's other package
//! (`helpers/`, `sokuc-helpers`): `sokuc-cbc` models the
//! problem with good_lp and solves it with good_lp's CBC solver; `sokuc-highs` gives it to
//! HiGHS through the `highs` crate good_lp wraps, which also hands back HiGHS's dual bound.
//! The backend sends the model through a pipe and reads back the solver's verdict.
//!
//! **Why a process, started with exec.** CBC's C interface cannot stop a solve, and its own
//! time limit (`sec`) does not cover its preprocessing and root LP: on random bipyramids it
//! ran 5-7 s past a 1 s limit (bipyramid-500) and 3 minutes past a 10 s limit
//! (bipyramid-2000). good_lp's HiGHS solver offers no way to stop a solve from outside
//! either. A process is killed at the deadline, on an interrupt or past the memory limit,
//! and its core and memory come back at once; solves share no solver state (CBC's solver
//! driver has global state), so they need no lock. The helper is a program of its own
//! (`std::process::Command`: fork and exec at once), not a fork of this process: a fork
//! without exec of a process with several threads (compare's workers, sweep's, abandoned
//! compile threads) could deadlock on a lock another thread held at the fork.
//!
//! **Why separate executables.** Only `sokuc-cbc` links CBC and what it pulls in (libCbc,
//! libCgl, libOsiClp, libClp, libCoinUtils, LAPACK, BLAS, libgfortran): loading them took
//! 7 ms of an 8 ms `sokuc --version` when sokuc linked CBC itself. Only `sokuc-highs` holds
//! HiGHS (2.5 MB of code). They are a package of their own because every dependency of a
//! package is linked into each of its binaries: as binaries of sokuc's package, they made
//! `sokuc` itself carry HiGHS and run its 195 C++ static initialisers at every start. Every
//! other command starts without them, and a machine without
//! CBC gets an error naming the library when `mip` solves, instead of a binary that does not
//! start.
//!
//! **The helper dies with its parent.** It reads the model, then waits on its standard input
//! in a thread: end of file (the parent ended, whatever ended it, or dropped the solve) makes
//! it exit at once, instead of running on to the solver's own limit.
//!
//! The wire format, little-endian, is private to this module and the helpers in `helpers/src/bin/`,
//! which are built from the same source: [`Problem::encode`] / [`Problem::decode`], and the
//! answer as [`message`] / [`parse`]. Nothing here names a solver's crate: the library, and
//! so the `sokuc` program, links no MIP solver.

#![deny(clippy::cast_possible_truncation, clippy::cast_sign_loss)]

use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::Duration;

/// The MIP solver a helper runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Solver {
    /// CBC, in `sokuc-cbc` (the `mip` backend).
    Cbc,
    /// HiGHS, in `sokuc-highs` (the `highs` backend).
    Highs,
}

impl Solver {
    /// The helper's file name.
    pub fn program(self) -> &'static str {
        match (self, cfg!(windows)) {
            (Solver::Cbc, false) => "sokuc-cbc",
            (Solver::Cbc, true) => "sokuc-cbc.exe",
            (Solver::Highs, false) => "sokuc-highs",
            (Solver::Highs, true) => "sokuc-highs.exe",
        }
    }

    /// The backend that runs it.
    pub fn backend(self) -> &'static str {
        match self {
            Solver::Cbc => "mip",
            Solver::Highs => "highs",
        }
    }

    /// The solver's name in messages.
    pub fn name(self) -> &'static str {
        match self {
            Solver::Cbc => "CBC",
            Solver::Highs => "HiGHS",
        }
    }

    /// How the helper gets built.
    fn install(self) -> &'static str {
        match self {
            Solver::Cbc => {
                "`cargo install --path helpers --features mip`, which needs CBC's library, Debian's coinor-libcbc-dev"
            }
            Solver::Highs => {
                "`cargo install --path helpers --features highs`, which builds HiGHS and needs cmake and a C++ compiler"
            }
        }
    }
}

/// One row: `(column, coefficient)` terms, then its lower and upper bound (infinite for
/// none).
pub type Row = (Vec<(u32, f64)>, f64, f64);

/// A 0/1 (or integer) program, row by row.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Problem {
    pub col_lower: Vec<f64>,
    pub col_upper: Vec<f64>,
    /// Which columns are integer.
    pub integer: Vec<bool>,
    /// The objective's coefficient of each column, minimised (empty: a feasibility problem).
    pub objective: Vec<f64>,
    pub rows: Vec<Row>,
    /// The solver's parameters: CBC's as its command line names them ("sec", "5.000"), or
    /// HiGHS's options ("time_limit", "5.000").
    pub parameters: Vec<(String, String)>,
}

/// The start of every model on the wire: a format change fails loudly, not subtly.
const MAGIC: &[u8; 8] = b"SOKUCBC1";

/// Reads at most this many entries of a count before it is known to be real: a count
/// comes from the wire, and memory is never reserved from a number alone.
pub const RESERVE_AT_MOST: usize = 1 << 16;

impl Problem {
    pub fn num_cols(&self) -> usize {
        self.col_lower.len()
    }

    /// The model as the helper reads it.
    pub fn encode(&self) -> Vec<u8> {
        let mut b = Vec::with_capacity(64 + self.rows.iter().map(|r| 20 + 12 * r.0.len()).sum::<usize>());
        b.extend_from_slice(MAGIC);
        put_len(&mut b, self.num_cols());
        for j in 0..self.num_cols() {
            b.extend_from_slice(&self.col_lower[j].to_le_bytes());
            b.extend_from_slice(&self.col_upper[j].to_le_bytes());
            b.push(u8::from(self.integer.get(j).copied().unwrap_or(false)));
        }
        put_len(&mut b, self.objective.len());
        for c in &self.objective {
            b.extend_from_slice(&c.to_le_bytes());
        }
        put_len(&mut b, self.rows.len());
        for (terms, lo, up) in &self.rows {
            b.extend_from_slice(&lo.to_le_bytes());
            b.extend_from_slice(&up.to_le_bytes());
            put_len(&mut b, terms.len());
            for &(j, c) in terms {
                b.extend_from_slice(&j.to_le_bytes());
                b.extend_from_slice(&c.to_le_bytes());
            }
        }
        put_len(&mut b, self.parameters.len());
        for (k, v) in &self.parameters {
            for s in [k, v] {
                put_len(&mut b, s.len());
                b.extend_from_slice(s.as_bytes());
            }
        }
        b
    }

    /// The model [`Problem::encode`] wrote; `Err` names what is wrong with the bytes.
    pub fn decode(mut r: impl Read) -> Result<Problem, WireError> {
        let mut magic = [0u8; 8];
        r.read_exact(&mut magic)
            .map_err(|e| WireError::new(format!("no model: {e}")))?;
        if &magic != MAGIC {
            return Err(WireError::new("not a sokuc-cbc model (wrong magic bytes)"));
        }
        let mut p = Problem::default();
        let n = get_len(&mut r)?;
        for _ in 0..n {
            p.col_lower.push(get_f64(&mut r)?);
            p.col_upper.push(get_f64(&mut r)?);
            p.integer.push(get_u8(&mut r)? != 0);
        }
        let k = get_len(&mut r)?;
        if k != 0 && k != n {
            return Err(WireError::new(format!("{k} objective coefficients for {n} columns")));
        }
        for _ in 0..k {
            p.objective.push(get_f64(&mut r)?);
        }
        let m = get_len(&mut r)?;
        p.rows.reserve(m.min(RESERVE_AT_MOST));
        for _ in 0..m {
            let lo = get_f64(&mut r)?;
            let up = get_f64(&mut r)?;
            let t = get_len(&mut r)?;
            let mut terms = Vec::with_capacity(t.min(RESERVE_AT_MOST));
            for _ in 0..t {
                let j = get_u32(&mut r)?;
                if j as usize >= n {
                    return Err(WireError::new(format!("a term on column {j} of {n}")));
                }
                terms.push((j, get_f64(&mut r)?));
            }
            p.rows.push((terms, lo, up));
        }
        let q = get_len(&mut r)?;
        for _ in 0..q {
            let k = get_string(&mut r)?;
            let v = get_string(&mut r)?;
            p.parameters.push((k, v));
        }
        Ok(p)
    }
}

/// A model that cannot be read: what is wrong with its bytes.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct WireError(pub String);

impl WireError {
    fn new(m: impl Into<String>) -> WireError {
        WireError(m.into())
    }
}

fn put_len(b: &mut Vec<u8>, n: usize) {
    // Counts past u32 are refused before a model is encoded (see `start`).
    b.extend_from_slice(&u32::try_from(n).unwrap_or(u32::MAX).to_le_bytes());
}

fn get_u8(r: &mut impl Read) -> Result<u8, WireError> {
    let mut x = [0u8; 1];
    r.read_exact(&mut x)
        .map_err(|e| WireError::new(format!("the model ends early: {e}")))?;
    Ok(x[0])
}

fn get_u32(r: &mut impl Read) -> Result<u32, WireError> {
    let mut x = [0u8; 4];
    r.read_exact(&mut x)
        .map_err(|e| WireError::new(format!("the model ends early: {e}")))?;
    Ok(u32::from_le_bytes(x))
}

fn get_len(r: &mut impl Read) -> Result<usize, WireError> {
    get_u32(r).map(|n| n as usize)
}

fn get_f64(r: &mut impl Read) -> Result<f64, WireError> {
    let mut x = [0u8; 8];
    r.read_exact(&mut x)
        .map_err(|e| WireError::new(format!("the model ends early: {e}")))?;
    Ok(f64::from_le_bytes(x))
}

fn get_string(r: &mut impl Read) -> Result<String, WireError> {
    let n = get_len(r)?;
    let mut s = Vec::with_capacity(n.min(RESERVE_AT_MOST));
    r.take(n as u64)
        .read_to_end(&mut s)
        .map_err(|e| WireError::new(format!("the model ends early: {e}")))?;
    if s.len() != n {
        return Err(WireError::new("the model ends inside a parameter"));
    }
    String::from_utf8(s).map_err(|_| WireError::new("a parameter is not UTF-8"))
}

/// The solver's verdict.
#[derive(Debug, Clone, PartialEq)]
pub enum Answer {
    Infeasible,
    /// The columns' values; `time_limit`: the solver stopped at its own time limit and these are
    /// whatever point it had, feasible or not; `bound`: with an objective, the least value the
    /// solver proved any solution has (its dual bound), where it sends one.
    Solution {
        values: Vec<f64>,
        time_limit: bool,
        bound: Option<f64>,
    },
    /// The solver stopped at its own time limit with no point.
    TimeLimit,
    Error(String),
}

/// Message tags, helper to parent: a tag byte, a little-endian `u32` length, the payload.
pub const INFEASIBLE: u8 = 0;
pub const SOLUTION: u8 = 1;
pub const SOLUTION_AT_LIMIT: u8 = 2;
pub const TIME_LIMIT: u8 = 3;
pub const ERROR: u8 = 4;
/// A finished search's solution with the solver's dual bound: the bound's 8 bytes, then the
/// values as in [`SOLUTION`].
pub const SOLUTION_BOUNDED: u8 = 5;
const HEADER: usize = 5;

/// One answer as the helper writes it.
pub fn message(tag: u8, payload: &[u8]) -> Vec<u8> {
    let mut m = Vec::with_capacity(HEADER + payload.len());
    m.push(tag);
    put_len(&mut m, payload.len());
    m.extend_from_slice(payload);
    m
}

/// The columns' values as a [`SOLUTION`] payload.
pub fn values_payload(values: &[f64]) -> Vec<u8> {
    values.iter().flat_map(|v| v.to_le_bytes()).collect()
}

/// A [`SOLUTION_BOUNDED`] payload.
pub fn bounded_payload(bound: f64, values: &[f64]) -> Vec<u8> {
    let mut b = bound.to_le_bytes().to_vec();
    b.extend(values_payload(values));
    b
}

/// The answer in `buf`, once all of it has arrived.
pub fn parse(buf: &[u8]) -> Option<Answer> {
    let header = buf.get(..HEADER)?;
    let len = u32::from_le_bytes([header[1], header[2], header[3], header[4]]) as usize;
    let payload = buf.get(HEADER..HEADER + len)?;
    let values = |payload: &[u8]| -> Vec<f64> {
        payload
            .chunks_exact(8)
            .map(|b| f64::from_le_bytes(b.try_into().expect("8 bytes")))
            .collect()
    };
    Some(match header[0] {
        INFEASIBLE => Answer::Infeasible,
        SOLUTION => Answer::Solution {
            values: values(payload),
            time_limit: false,
            bound: None,
        },
        SOLUTION_AT_LIMIT => Answer::Solution {
            values: values(payload),
            time_limit: true,
            bound: None,
        },
        SOLUTION_BOUNDED if payload.len() >= 8 => Answer::Solution {
            values: values(&payload[8..]),
            time_limit: false,
            bound: Some(f64::from_le_bytes(payload[..8].try_into().expect("8 bytes"))),
        },
        TIME_LIMIT => Answer::TimeLimit,
        ERROR => Answer::Error(String::from_utf8_lossy(payload).into_owned()),
        SOLUTION_BOUNDED => Answer::Error("the solver's process sent a bounded solution without its bound".into()),
        other => Answer::Error(format!("the solver's process sent an unknown answer (tag {other})")),
    })
}

/// A helper's life: reads one model from standard input, answers it with `solve` on
/// standard output, and exits.
pub fn serve(program: &str, solve: impl FnOnce(&Problem) -> Vec<u8>) {
    // Ctrl-C in a terminal reaches the whole process group, the helper too: sokuc decides
    // what an interrupt means (it writes what it found and kills the helper), so the signal
    // itself is caught here and ignored.
    let ignored = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let _ = signal_hook::flag::register(signal_hook::consts::SIGINT, ignored);
    let mut stdin = io::stdin().lock();
    let answer = match Problem::decode(&mut stdin) {
        Ok(p) => {
            drop(stdin);
            // The parent keeps our standard input open while it waits: its end (the parent
            // ended, or gave the solve up) means nobody wants the answer any more.
            std::thread::spawn(|| {
                let _ = io::copy(&mut io::stdin().lock(), &mut io::sink());
                std::process::exit(3);
            });
            solve(&p)
        }
        Err(e) => message(ERROR, format!("{program}: {e}").as_bytes()),
    };
    let mut out = io::stdout().lock();
    let _ = out.write_all(&answer).and_then(|()| out.flush());
}

/// What went wrong with the helper.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum HelperError {
    /// The helper cannot be found or started: the message says which file and what to do.
    #[error("{0}")]
    Unavailable(String),
    /// A solve ended without an answer.
    #[error("{0}")]
    Failed(String),
    /// The helper exited normally, silently, without an answer. CBC's library does that
    /// when its own time limit (`sec`) runs out in some phases (seen on MIPLIB's fast0507,
    /// at the limit): the caller knows whether that limit had passed.
    #[error("the solver's process ended without an answer (exit status: 0)")]
    Quiet,
}

/// Where the helper is looked for: `explicit` if given, else beside the running
/// executable and one folder up (test binaries run from `target/*/deps/`, the helper is built
/// into `target/*/`).
pub fn helper_path(solver: Solver, explicit: Option<&Path>) -> Result<PathBuf, HelperError> {
    let backend = solver.backend();
    if let Some(p) = explicit {
        return if p.is_file() {
            Ok(p.to_path_buf())
        } else {
            Err(HelperError::Unavailable(format!(
                "the {backend} backend's helper {} does not exist",
                p.display()
            )))
        };
    }
    let exe = std::env::current_exe().map_err(|e| HelperError::Unavailable(format!("no path to this program: {e}")))?;
    let dir = exe.parent().map(Path::to_path_buf).unwrap_or_default();
    let program = solver.program();
    let candidates = [
        dir.join(program),
        dir.parent().map(|d| d.join(program)).unwrap_or_default(),
    ];
    candidates.iter().find(|c| c.is_file()).cloned().ok_or_else(|| {
        HelperError::Unavailable(format!(
            "the {backend} backend's helper {program} is not beside {} (install it there from sokuc's repository with {}); or use another backend (sat, cp, search)",
            exe.display(),
            solver.install()
        ))
    })
}

/// A solve under way in the helper. Dropping it kills the helper (if it still runs) and
/// waits for it to end, so no solve outlives the call that started it.
#[derive(Debug)]
pub struct Running {
    solver: Solver,
    child: Child,
    /// The thread that writes the model keeps the helper's standard input open until this
    /// is dropped (see [`start`]).
    _keep_open: mpsc::Sender<()>,
    /// The answer's bytes, read by a thread (a pipe read cannot wait with a time-out in
    /// safe Rust).
    answer: Receiver<io::Result<Vec<u8>>>,
    /// The helper's standard error, read by a thread, for the message when it fails.
    stderr: Receiver<Vec<u8>>,
    done: bool,
}

/// Starts solving `p` in the helper at `helper`.
pub fn start(solver: Solver, helper: &Path, p: &Problem) -> Result<Running, HelperError> {
    let name = solver.name();
    let n = p.num_cols();
    let entries: usize = p.rows.iter().map(|r| r.0.len()).sum();
    let limit = i32::MAX as usize;
    if n > limit || p.rows.len() > limit || entries > limit {
        return Err(HelperError::Failed(format!(
            "the model ({entries} nonzeros, {n} columns, {} rows) is larger than {name} takes (2^31 - 1 of each)",
            p.rows.len()
        )));
    }
    let mut child = Command::new(helper)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| {
            HelperError::Unavailable(format!(
                "the {} backend's helper {} did not start: {e}",
                solver.backend(),
                helper.display()
            ))
        })?;
    let mut stdout = child.stdout.take().expect("piped");
    let (tx, answer) = mpsc::channel();
    std::thread::spawn(move || {
        let mut buf = Vec::new();
        let r = stdout.read_to_end(&mut buf).map(|_| buf);
        let _ = tx.send(r);
    });
    let mut stderr_pipe = child.stderr.take().expect("piped");
    let (etx, stderr) = mpsc::channel();
    std::thread::spawn(move || {
        let mut buf = Vec::new();
        let _ = stderr_pipe.by_ref().take(64 * 1024).read_to_end(&mut buf);
        // Drain the rest so the helper never blocks on a full pipe.
        let _ = io::copy(&mut stderr_pipe, &mut io::sink());
        let _ = etx.send(buf);
    });
    // The model goes in from a thread: a helper that stops reading (hung, or dead before it
    // read everything) must not hold this thread past the deadline. The thread then keeps
    // the pipe open until the solve is dropped, since its end tells the helper to stop.
    let mut stdin = child.stdin.take().expect("piped");
    let (keep_tx, keep) = mpsc::channel::<()>();
    let bytes = p.encode();
    std::thread::spawn(move || {
        if stdin.write_all(&bytes).and_then(|()| stdin.flush()).is_ok() {
            drop(bytes);
            // Returns when the sender is dropped, with the solve.
            let _ = keep.recv();
        }
        drop(stdin);
    });
    Ok(Running {
        solver,
        child,
        _keep_open: keep_tx,
        answer,
        stderr,
        done: false,
    })
}

impl Running {
    /// Waits at most `wait` for the solver's answer; `Ok(None)`: still solving. An error: the
    /// helper ended without an answer (the solver crashed, or its library is missing).
    pub fn wait(&mut self, wait: Duration) -> Result<Option<Answer>, HelperError> {
        match self.answer.recv_timeout(wait) {
            Err(RecvTimeoutError::Timeout) => Ok(None),
            Err(RecvTimeoutError::Disconnected) => Err(self.failure()),
            Ok(Err(e)) => Err(HelperError::Failed(format!(
                "reading {}'s answer: {e}",
                self.solver.name()
            ))),
            Ok(Ok(buf)) => match parse(&buf) {
                Some(a) => {
                    self.finish();
                    Ok(Some(a))
                }
                None => Err(self.failure()),
            },
        }
    }

    /// The helper's resident size.
    pub fn resident_bytes(&self) -> Option<u64> {
        crate::budget::memory::resident_bytes_of(self.child.id())
    }

    /// Ends the helper (it has answered, or it is given up) and waits for it.
    fn finish(&mut self) {
        if !self.done {
            let _ = self.child.kill();
            let _ = self.child.wait();
            self.done = true;
        }
    }

    /// Why the helper ended without an answer: its exit and what it wrote on stderr.
    fn failure(&mut self) -> HelperError {
        self.finish();
        let status = self.child.try_wait().ok().flatten();
        let said = self
            .stderr
            .recv_timeout(Duration::from_secs(1))
            .map(|b| String::from_utf8_lossy(&b).trim().to_string())
            .unwrap_or_default();
        let how = match status {
            Some(s) => format!("{s}"),
            None => "unknown exit".to_string(),
        };
        let name = self.solver.name();
        if said.contains("error while loading shared libraries") {
            let hint = match self.solver {
                Solver::Cbc => {
                    "install it (Debian/Ubuntu: apt install coinor-libcbc3, or coinor-libcbc-dev as scripts/install-tools.sh does)"
                }
                Solver::Highs => "rebuild sokuc with the `highs` feature on this machine",
            };
            return HelperError::Unavailable(format!(
                "{name}'s library could not be loaded by the {} backend's helper ({said}): {hint}; or use another backend (sat, cp, search)",
                self.solver.backend()
            ));
        }
        if said.is_empty() && status.is_some_and(|s| s.success()) {
            return HelperError::Quiet;
        }
        HelperError::Failed(if said.is_empty() {
            format!("{name}'s process ended without an answer ({how})")
        } else {
            format!("{name}'s process ended without an answer ({how}): {said}")
        })
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        self.finish();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_parse_only_when_complete() {
        let m = message(SOLUTION, &values_payload(&[1.0, 0.0, 0.25]));
        for cut in 0..m.len() {
            assert_eq!(parse(&m[..cut]), None, "{cut}");
        }
        assert_eq!(
            parse(&m),
            Some(Answer::Solution {
                values: vec![1.0, 0.0, 0.25],
                time_limit: false,
                bound: None,
            })
        );
        let m = message(SOLUTION_BOUNDED, &bounded_payload(-2.5, &[1.0, 0.0]));
        assert_eq!(
            parse(&m),
            Some(Answer::Solution {
                values: vec![1.0, 0.0],
                time_limit: false,
                bound: Some(-2.5),
            })
        );
        // A bounded solution too short to hold its bound is no answer a parent can use.
        assert!(matches!(
            parse(&message(SOLUTION_BOUNDED, &[0; 4])),
            Some(Answer::Error(_))
        ));
        assert_eq!(parse(&message(INFEASIBLE, &[])), Some(Answer::Infeasible));
        assert_eq!(parse(&message(ERROR, b"boom")), Some(Answer::Error("boom".into())));
    }

    fn sample() -> Problem {
        Problem {
            col_lower: vec![0.0, 0.0, 1.0],
            col_upper: vec![1.0, 1.0, 1.0],
            integer: vec![true, true, false],
            objective: vec![3.0, -1.5, 0.0],
            rows: vec![
                (vec![(0, 2.0), (2, -1.0)], f64::NEG_INFINITY, 1.0),
                (vec![(1, 1.0)], 0.5, 0.5),
                (vec![], 0.0, f64::INFINITY),
            ],
            parameters: vec![("log".into(), "0".into()), ("sec".into(), "1.500".into())],
        }
    }

    #[test]
    fn models_round_trip_through_the_wire() {
        let p = sample();
        assert_eq!(Problem::decode(&p.encode()[..]).unwrap(), p);
        let feasibility = Problem {
            objective: Vec::new(),
            ..sample()
        };
        assert_eq!(Problem::decode(&feasibility.encode()[..]).unwrap(), feasibility);
    }

    #[test]
    fn damaged_models_are_refused_not_read() {
        let bytes = sample().encode();
        for cut in 0..bytes.len() {
            assert!(Problem::decode(&bytes[..cut]).is_err(), "cut at {cut}");
        }
        let mut wrong = bytes.clone();
        wrong[0] = b'X';
        assert!(Problem::decode(&wrong[..]).unwrap_err().0.contains("magic"));
        // A huge count is not a reason to reserve memory: it fails when the data ends.
        let mut huge = MAGIC.to_vec();
        huge.extend_from_slice(&u32::MAX.to_le_bytes());
        assert!(Problem::decode(&huge[..]).unwrap_err().0.contains("ends early"));
    }
}
