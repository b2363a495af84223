//! `solve --all --jobs N`: the search backend's native enumeration on several threads. The
//! tree is split into cubes ([`Engine::split`]); each worker walks its own copy of the
//! engine over the cubes it takes from a shared counter, so the workers report disjoint
//! sets of solutions whose union is what one walk reports, in an order that depends on
//! timing. The threads themselves belong to the caller (the run path, which checks and
//! writes each worker's solutions on that worker): this module hands out the work.

use std::collections::BTreeMap;
use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Instant;

use super::engine::split::Cube;
use super::engine::{self, Engine};
use super::{Search, build};
use crate::budget::Deadline;
use crate::contract::{Backend, BackendError, Ended, Found, SolveOptions, SolveStats};
use crate::ir::{Lit, PbFormula, Projection};

/// Cubes per worker: enough that a worker that drew a small cube finds more work while
/// another is still in a large one.
const CUBES_PER_JOB: usize = 64;

/// What [`Split::make`] made.
#[derive(Debug)]
pub enum Splitting {
    /// Ready for the workers.
    Ready(Box<Split>),
    /// The deadline passed while building or splitting.
    Unknown(SolveStats),
    /// The projection splits an exactly-one group (no front-end makes one): the walk cannot
    /// project, and the caller enumerates on one thread.
    Mixed,
}

/// The shared work of a parallel enumeration: the engine each worker copies, and the cubes.
#[derive(Debug)]
pub struct Split {
    engine: Engine,
    primary: Vec<bool>,
    cubes: Vec<Cube>,
    /// Each cube's decisions as the formula's literals ([`Engine::cube_lits`]), handed with
    /// each solution so that the caller can check it lies in its cube.
    lits: Vec<Vec<Lit>>,
    next: AtomicUsize,
    /// Set by [`Split::stop`]: every worker ends at its next look.
    stop: AtomicBool,
    deadline: Deadline,
    vars: u64,
    rows: u64,
    build_ms: f64,
    started: Instant,
}

/// How one worker ended, and its engine's counters.
#[derive(Debug, Clone, Copy)]
pub struct Worked {
    pub ended: Ended,
    pub nodes: u64,
    pub failures: u64,
}

impl Split {
    /// Builds the engine and splits its tree for `jobs` workers.
    pub fn make(
        formula: &PbFormula,
        projection: &Projection,
        opts: &SolveOptions,
        jobs: usize,
    ) -> Result<Splitting, BackendError> {
        Search.check_options(opts)?;
        let t0 = Instant::now();
        let deadline = opts.deadline();
        let mut engine = match build(formula, opts.encode.max_memory, &deadline, t0)? {
            Ok(e) => e,
            Err(unknown) => return Ok(Splitting::Unknown(unknown.stats)),
        };
        let Some(primary) = engine.primary_groups(projection.flags()) else {
            return Ok(Splitting::Mixed);
        };
        let want = jobs.saturating_mul(CUBES_PER_JOB);
        let Some(cubes) = engine.split(&opts.assumptions, &primary, want, &deadline) else {
            return Ok(Splitting::Unknown(SolveStats {
                build_ms: t0.elapsed().as_secs_f64() * 1e3,
                ..Default::default()
            }));
        };
        let lits = cubes.iter().map(|c| engine.cube_lits(c)).collect();
        Ok(Splitting::Ready(Box::new(Split {
            engine,
            primary,
            cubes,
            lits,
            next: AtomicUsize::new(0),
            stop: AtomicBool::new(false),
            deadline,
            vars: formula.num_vars() as u64,
            rows: formula.constraints().len() as u64,
            build_ms: t0.elapsed().as_secs_f64() * 1e3,
            started: Instant::now(),
        })))
    }

    /// One worker: walks cubes until they run out, `visit` breaks, the deadline passes or
    /// another worker calls [`Split::stop`]. Call it from each worker thread. `visit` gets
    /// each solution with the literals of its cube, which the solution must make true.
    pub fn work(&self, opts: &SolveOptions, visit: &mut dyn FnMut(Found<'_>, &[Lit]) -> ControlFlow<()>) -> Worked {
        let mut engine = self.engine.clone();
        let halt = || self.stop.load(Ordering::Relaxed) || self.deadline.passed();
        let walk = engine.enumerate_cubes(
            &opts.assumptions,
            &self.primary,
            &self.cubes,
            &self.next,
            opts.seed.is_some(),
            opts.seed.unwrap_or(0),
            &halt,
            &mut |i, a| {
                visit(
                    Found {
                        assignment: a,
                        engine: "search",
                    },
                    &self.lits[i],
                )
            },
        );
        let ended = match walk {
            engine::walk::Walk::Complete => Ended::Complete,
            engine::walk::Walk::Stopped => Ended::Stopped,
            // Halted by another worker's stop: that worker says why.
            engine::walk::Walk::Unknown if self.stop.load(Ordering::Relaxed) && !self.deadline.passed() => {
                Ended::Stopped
            }
            engine::walk::Walk::Unknown => Ended::Unknown,
        };
        Worked {
            ended,
            nodes: engine.counters.nodes,
            failures: engine.counters.failures,
        }
    }

    /// Ends every worker at its next look (a limit reached, an error).
    pub fn stop(&self) {
        self.stop.store(true, Ordering::Relaxed);
    }

    /// For tests of the check above: every cube loses its last decision while its
    /// literals stay, so a worker walks more than its cube (the cubes overlap) and reports
    /// solutions that lie outside it.
    #[cfg(any(test, feature = "testing"))]
    pub fn loosen(&mut self) {
        for c in &mut self.cubes {
            c.pop();
        }
    }

    /// The statistics of the whole run, from every worker's ending: the model's size, the
    /// time to build and split, the walk's time, and the counters summed.
    pub fn stats(&self, jobs: usize, worked: &[Worked]) -> SolveStats {
        let mut extra = BTreeMap::new();
        extra.insert("nodes".into(), worked.iter().map(|w| w.nodes).sum::<u64>().into());
        extra.insert("failures".into(), worked.iter().map(|w| w.failures).sum::<u64>().into());
        extra.insert("jobs".into(), (jobs as u64).into());
        extra.insert("cubes".into(), (self.cubes.len() as u64).into());
        SolveStats {
            vars: self.vars,
            clauses: self.rows,
            build_ms: self.build_ms,
            solve_ms: self.started.elapsed().as_secs_f64() * 1e3,
            extra,
            basis: Default::default(),
        }
    }
}

/// How the workers' endings add up: stopped when one was stopped (a limit, or stopped by
/// another), else unknown when one ran out of time, else complete.
pub fn ended(worked: &[Worked]) -> Ended {
    if worked.iter().any(|w| w.ended == Ended::Stopped) {
        Ended::Stopped
    } else if worked.iter().any(|w| w.ended == Ended::Unknown) {
        Ended::Unknown
    } else {
        Ended::Complete
    }
}
