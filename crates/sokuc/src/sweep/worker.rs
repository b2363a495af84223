//! One sweep worker's solver: a backend session kept across instances, or the run path
//! per instance (see [`Worker`]). With `--backend search`, the default, each worker keeps
//! one engine and changes only the vertex capacities between instances; every answer is
//! still checked against the IR, decoded and verified.

use super::error::SweepError;
use super::records::Record;
use super::spec::Spec;
use crate::backend::algorithms::Algorithms;
use crate::backend::{self, Session, SolveOptions, Status};
use crate::soku;

/// A session's status as a record: an unsat goes through the run path's gate
/// ([`crate::run::judge_refutation`]), which names who refuted the instance and what backs
/// it; a refutation it withholds (made after the time limit) is recorded as unknown.
fn refuted(index: u64, caps: &[u64], by: &str, o: &backend::Outcome, opts: &SolveOptions) -> Record {
    if o.status != Status::Unsat {
        return Record::new(index, caps, o.status, None);
    }
    let claim = crate::run::judge_refutation(by, (*o.stats.basis).clone(), opts, std::time::Instant::now());
    if claim.accepted {
        Record::unsat(index, caps, &claim)
    } else {
        Record::new(index, caps, Status::Unknown, None)
    }
}

/// One worker's solver. A backend that changes right-hand sides in place (the search
/// engine, see [`backend::Capabilities::rhs_changes`]) keeps one session across instances.
/// Any other runs the whole pipeline per instance, presolve included: its session would
/// re-encode the model for every new capacity vector anyway, while presolve refutes an
/// instance with an impossible vertex before any solver runs. Measured with `--backend
/// sat` on icosahedron shards: such instances took 0.009 ms each through the pipeline and
/// 6.5 ms through a session; solvable ones 16.1 and 15.8 ms (median). The pipeline also
/// keeps those backends' records as they were.
pub(super) enum Worker<'b> {
    Session {
        compiled: Box<soku::Compiled>,
        session: Box<dyn Session + 'b>,
        name: &'static str,
        /// Whether a solve takes the instance index as its seed (if the backend takes one).
        seeded: bool,
    },
    Other(&'b mut dyn backend::Backend),
    /// Pool mode: any backend's session on the pool model (there is no presolve for it).
    Pool {
        inst: Box<crate::pool::PoolInstance>,
        model: Box<crate::ir::Model<crate::pool::Key>>,
        rows: Vec<usize>,
        session: Box<dyn Session + 'b>,
        name: &'static str,
        /// Whether a solve takes the instance index as its seed: only where right-hand
        /// sides change in place (the engine always was seeded); the other backends solve
        /// the pool model unseeded, so their records stay as they were.
        seeded: bool,
    },
}

/// The options a session opens with: the sweep's tuning (a session's engine keeps what it
/// was opened with), no time limit (each solve has its own).
fn opened(base: &SolveOptions) -> SolveOptions {
    SolveOptions {
        tuning: base.tuning.clone(),
        ..SolveOptions::default()
    }
}

/// A session could not be opened (the model is too large for the memory limit).
fn open_error(e: backend::BackendError) -> SweepError {
    SweepError::Usage(e.to_string())
}

impl<'b> Worker<'b> {
    /// The next instance starts a new block: forget the carried solution.
    pub(super) fn new_block(&mut self) {
        match self {
            Worker::Session { session, .. } | Worker::Pool { session, .. } => session.forget_phases(),
            Worker::Other(_) => {}
        }
    }

    /// `base`: the options every solve starts from (the time limit, the tuning).
    pub(super) fn new(
        spec: &Spec,
        backend: &'b mut dyn backend::Backend,
        first_caps: &[u64],
        base: &SolveOptions,
    ) -> Result<Worker<'b>, SweepError> {
        let (caps, name) = (backend.capabilities(), backend.name());
        if spec.pool {
            let inst = spec.pool_instance(first_caps);
            let (model, rows) = inst.compile_with_rows();
            let session = backend.session(&model.formula, &opened(base)).map_err(open_error)?;
            return Ok(Worker::Pool {
                inst: Box::new(inst),
                model: Box::new(model),
                rows,
                session,
                name,
                seeded: caps.rhs_changes && caps.seed,
            });
        }
        if caps.rhs_changes {
            let compiled = soku::compile_plain(&spec.instance(first_caps));
            let session = backend
                .session(&compiled.model.formula, &opened(base))
                .map_err(open_error)?;
            return Ok(Worker::Session {
                compiled: Box::new(compiled),
                session,
                name,
                seeded: caps.seed,
            });
        }
        Ok(Worker::Other(backend))
    }

    pub(super) fn solve(
        &mut self,
        spec: &Spec,
        index: u64,
        caps: &[u64],
        base: &SolveOptions,
    ) -> Result<Record, SweepError> {
        let inst = spec.instance(caps);
        let internal = |message: String| SweepError::Internal {
            index,
            caps: Spec::join(caps.iter(), ","),
            message,
        };
        // A tuning list the engine cannot read is the user's to fix, the same on every
        // instance: a usage error, not an instance's internal one.
        let failed = |e: backend::BackendError| match e {
            e @ backend::BackendError::Tuning { .. } => SweepError::Usage(e.to_string()),
            e => internal(e.to_string()),
        };
        match self {
            Worker::Pool {
                inst,
                model,
                rows,
                session,
                name,
                seeded,
            } => {
                inst.pegs = crate::pool::Pegs::Fixed(caps.to_vec());
                for (&ci, &c) in rows.iter().zip(caps) {
                    model.formula.set_rhs(ci, c as i64);
                    session.set_rhs(ci, c as i64).map_err(|e| internal(e.to_string()))?;
                }
                let opts = SolveOptions {
                    seed: seeded.then_some(index),
                    ..base.clone()
                }
                .clock_started();
                let o = session.solve(&[], &opts).map_err(failed)?;
                if o.status != Status::Sat {
                    return Ok(refuted(index, caps, name, &o, &opts));
                }
                let s = crate::run::finish(inst.as_ref(), model, &o.assignment.unwrap_or_default())
                    .map_err(|e| internal(format!("the answer is wrong: {e}")))?;
                let mut r = Record::new(index, caps, Status::Sat, None);
                r.arrangement = Some(s.faces.iter().map(|&(ty, rot, _)| (ty, rot)).collect());
                Ok(r)
            }
            Worker::Session {
                compiled,
                session,
                name,
                seeded,
            } => {
                compiled.set_capacities(caps);
                for (&ci, &c) in compiled.vertex_rows.iter().zip(caps) {
                    session.set_rhs(ci, c as i64).map_err(|e| internal(e.to_string()))?;
                }
                // The instance index is the seed, so an answer does not depend on threads.
                let opts = SolveOptions {
                    seed: seeded.then_some(index),
                    ..base.clone()
                }
                .clock_started();
                let o = session.solve(&[], &opts).map_err(failed)?;
                Ok(match o.status {
                    Status::Sat => {
                        let a = o.assignment.unwrap_or_default();
                        let p = crate::run::finish(&inst, compiled.as_ref(), &a)
                            .map_err(|e| internal(format!("the {name} answer is wrong: {e}")))?;
                        Record::new(index, caps, Status::Sat, Some(&p))
                    }
                    _ => refuted(index, caps, name, &o, &opts),
                })
            }
            Worker::Other(b) => {
                let opts = SolveOptions {
                    seed: Some(index),
                    ..base.clone()
                };
                let opts = SolveOptions {
                    seed: if b.capabilities().seed { opts.seed } else { None },
                    ..opts
                };
                let run = crate::run::RunOptions {
                    solve: opts,
                    ..Default::default()
                };
                let r = crate::run::solve(&inst, &mut **b, &run).map_err(|e| match e {
                    crate::run::RunError::Backend(e) => failed(e),
                    e => internal(e.to_string()),
                })?;
                // The run path's own gate judged the answer: an unsat carries its claim.
                let claim = r.answer.evidence.claim(crate::puzzle::evidence::ClaimKind::Unsat);
                Ok(match (r.answer.status, claim) {
                    (Status::Unsat, Some(c)) => Record::unsat(index, caps, c),
                    (status, _) => Record::new(index, caps, status, r.answer.solution.as_deref()),
                })
            }
        }
    }
}
