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
//! The wire format between the two is [`crate::mip_wire`], which the helpers in
//! `helpers/src/bin/` read through sokuc's public API. Nothing here names a solver's crate:
//! the library, and so the `sokuc` program, links no MIP solver.

#![deny(clippy::cast_possible_truncation, clippy::cast_sign_loss)]

use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::Duration;

use crate::mip_wire::parse;
pub use crate::mip_wire::{Answer, Problem, Row};

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
