//! pumpkin-solver (lazy clause generation) on a CP-shaped view of the IR.
//!
//! The 0/1 rows are not handed over as they are. Exactly-one groups become integer
//! variables (for 3SoKu: one placement variable per face, whose value picks type and
//! rotation); the group's literals are views `[P = i]` of it. In every linear row, the terms
//! of one group become a single integer `W = element(P, coefficients)` ("the weight this face
//! puts at this vertex"), and the row is a linear constraint over those integers. Lazy clause
//! generation then learns nogoods over placements and partial sums, the shape on which
//! Chuffed does well for this puzzle.

#![deny(clippy::cast_possible_truncation, clippy::cast_sign_loss)]

mod counts;
mod groups;
mod objective;
mod posting;
mod search;
mod table_element;

use std::collections::HashMap;
use std::sync::mpsc;
use std::time::{Duration, Instant};

use pumpkin_solver::conflict_resolvers::resolvers::ResolutionResolver;
use pumpkin_solver::core::Solver;
use pumpkin_solver::core::results::{ProblemSolution, SatisfactionResult};
use pumpkin_solver::core::termination::TerminationCondition;
use pumpkin_solver::core::variables::{DomainId, Literal};

use super::memory::{Guard, over_limit};
use super::{Backend, BackendError, Capabilities, Deadline, Outcome, SolveOptions, SolveStats, Status, Waited};
use crate::budget::join_within;
use crate::encode::EncodeError;
use crate::ir::{Cmp, Constraint, Linear, Lit, PbFormula};
use counts::{LabelCountArgs, labelling};
use groups::choose_groups;
pub use groups::integer_groups;
use posting::Posting;
pub use search::{CpOptions, DEFAULT_SEED, Minimise, Order, Restarts, ValueChoice};
use table_element::TableElementArgs;

#[derive(Debug, Clone, Default)]
pub struct Cp {
    pub options: CpOptions,
}

/// How often the waiting thread looks at the deadline and the interrupt flag.
const POLL: Duration = Duration::from_millis(50);

/// How long a solve that answered at its deadline waits for its worker to end. pumpkin looks
/// at its termination condition once per step of its search, and a step cannot be cut
/// short: on nw04 (rows of up to 87,482 terms, over partial sums) steps of 0.4-0.6 s were
/// seen. Waiting for the step to end keeps the worker from running on beside whatever comes
/// next (a race's other engines, the next row of a `bench`), at a cost to the answer's time
/// that stays within the time limit's documented slack of one second.
pub(super) const WIND_DOWN: Duration = Duration::from_millis(800);

/// Bytes pumpkin needs per variable and per term of a constraint, for the estimate made
/// before building. Measured peaks on random bipyramids within 10-30 s of search: 170 MB for
/// bipyramid-200 (these figures say 150), 900 MB for bipyramid-2000 (1.3 GB). Learnt
/// nogoods grow beyond that with time; the guard in [`Stop`] watches them.
const BYTES_PER_VAR: u64 = 1500;
const BYTES_PER_TERM: u64 = 750;

/// Stops the search at the deadline, or when the resident size passes the memory limit
/// (then `over_memory` holds it).
struct Stop {
    deadline: Deadline,
    guard: Guard,
    over_memory: u64,
    /// Calls so far: pumpkin asks once per step of its search (a decision, or a conflict
    /// and its backjump), so this counts the search's work independently of the clock.
    steps: u64,
}

impl Stop {
    /// The search's stop: the deadline, and the memory guard polled every 4096 steps.
    fn new(deadline: Deadline, limit: u64) -> Stop {
        Stop {
            deadline,
            guard: Guard::new(limit, 1 << 12),
            over_memory: 0,
            steps: 0,
        }
    }

    /// What a worker reports: sizes, the two phases' times, and the steps searched.
    fn stats(&self, vars: usize, rows: usize, build: Duration, solve_start: Instant) -> SolveStats {
        SolveStats {
            vars: vars as u64,
            clauses: rows as u64,
            build_ms: build.as_secs_f64() * 1e3,
            solve_ms: solve_start.elapsed().as_secs_f64() * 1e3,
            extra: [("steps".to_string(), self.steps.into())].into_iter().collect(),
            basis: Default::default(),
        }
    }
}

impl TerminationCondition for Stop {
    fn should_stop(&mut self) -> bool {
        self.steps += 1;
        if self.deadline.passed() {
            return true;
        }
        if let Some(rss) = self.guard.over() {
            self.over_memory = rss;
            return true;
        }
        false
    }
}

/// What pumpkin's model of `f` would take, from its size: every constraint's terms (the
/// linear rows dominate) and the variables.
/// pumpkin's integers are `i32`: a row whose coefficients and right-hand side add up to 2^30
/// or more (sums of rows included) could wrap inside the solver and give a wrong `unsat`, so
/// such a formula is refused before anything is built. (The OPB front-end splits wider rows
/// into small digit columns, so this only meets rows between 2^30 and 2^62.)
fn refuse_wide_rows(f: &PbFormula) -> Result<(), BackendError> {
    match super::row_at_least(f, super::CP_ROW_LIMIT) {
        // A refusal of this backend for this formula (exit 2), as `Unavailable` is.
        Some((label, w)) => Err(BackendError::Unavailable {
            backend: "cp",
            message: format!(
                "constraint \"{label}\" has coefficients adding up to {w}, past the 2^30 that pumpkin's 32-bit integers hold safely; use sat, cadical, search or mip"
            ),
        }),
        None => Ok(()),
    }
}

/// A number of a row (a coefficient, a right-hand side, a sum of coefficients, a bound) as
/// pumpkin's `i32`: [`refuse_wide_rows`] refuses a formula with a row whose coefficients and
/// right-hand side add up to 2^30 or more before anything is built, and the objective is
/// bounded the same way (`objective::LARGEST_SUM`), so each fits.
pub(crate) fn narrow(x: i64) -> i32 {
    i32::try_from(x).expect("rows and objectives of 2^30 or more are refused before building")
}

/// An index or a count of the model (a group's options, an option, a label, a row of labels)
/// as pumpkin's `i32`. Each counts variables or constraints of the formula, and 2^31 of either
/// is past what [`estimate_bytes`] lets the memory limit build (and past the memory any
/// formula that size takes itself).
pub(crate) fn int(i: usize) -> i32 {
    i32::try_from(i).expect("fewer than 2^31 variables and constraints reach the cp model")
}

/// An `i32` of the model that is an index (non-negative by construction) as a `usize`.
pub(crate) fn at(i: i32) -> usize {
    usize::try_from(i).expect("an index of the cp model is non-negative")
}

fn estimate_bytes(f: &PbFormula) -> u64 {
    let terms: u64 = f
        .constraints
        .iter()
        .map(|(_, c)| match c {
            Constraint::Clause(ls) | Constraint::AtMostOne(ls) | Constraint::ExactlyOne(ls) => ls.len() as u64,
            Constraint::Linear(l) => l.terms.len() as u64,
            Constraint::SumOf { parts, .. } => parts.len() as u64,
        })
        .sum();
    (f.num_vars as u64)
        .saturating_mul(BYTES_PER_VAR)
        .saturating_add(terms.saturating_mul(BYTES_PER_TERM))
}

/// Why [`build`] stopped early: the deadline, or the memory limit (the resident size seen).
/// Either way the caller stopped waiting, or stops now.
enum Cut {
    Time,
    Memory(u64),
}

struct Built {
    solver: Solver,
    /// The placement integers, one per chosen group, to branch on.
    decisions: Vec<DomainId>,
    /// How each IR variable is read from a solution.
    read: Vec<Read>,
    rows: usize,
    ints: usize,
    /// Some constraint without variables is false.
    constant_false: bool,
    /// Every 0/1 variable pumpkin has is a view of a placement integer.
    covered: bool,
}

/// Where an IR variable's value is in pumpkin's model.
#[derive(Clone, Copy)]
enum Read {
    /// A group's variable: true when its integer takes this value.
    Value(DomainId, i32),
    Lit(Literal),
    /// In no constraint pumpkin saw (any value will do).
    Free,
}

fn build(f: &PbFormula, options: &CpOptions, seed: u64, deadline: &Deadline, guard: &mut Guard) -> Result<Built, Cut> {
    let mut solver = Solver::with_options(options.solver_options(seed));
    let tag = solver.new_constraint_tag();
    let chosen_groups = choose_groups(f);
    let mut place: Vec<Option<(usize, i32)>> = vec![None; f.num_vars as usize];
    let mut ints: Vec<DomainId> = Vec::with_capacity(chosen_groups.len());
    let mut group_len = Vec::with_capacity(chosen_groups.len());
    let mut chosen = vec![false; f.constraints.len()];
    for (g, (row, vars)) in chosen_groups.iter().enumerate() {
        chosen[*row] = true;
        ints.push(solver.new_bounded_integer(0, int(vars.len()) - 1));
        group_len.push(vars.len());
        for (i, v) in vars.iter().enumerate() {
            place[v.index()] = Some((g, int(i)));
        }
    }
    // Rows that an implied `SumOf` adds up get an integer for their left side, so the sum
    // row sees them directly (as the CNF encoders reuse their sums).
    let mut referenced = vec![false; f.constraints.len()];
    for (_, c) in &f.constraints {
        if let Constraint::SumOf { parts, .. } = c {
            for &p in parts {
                referenced[p] = true;
            }
        }
    }
    // Cardinality rows over the groups' values (3SoKu's tile types) are counted over one
    // label integer per group instead of being posted as rows (`counts.rs`).
    let labels = if options.labels {
        let skip: Vec<bool> = chosen.iter().zip(&referenced).map(|(a, b)| *a || *b).collect();
        labelling(f, &skip, &place, &group_len)
    } else {
        None
    };
    let counted = |i: usize| labels.as_ref().is_some_and(|l| l.rows[i]);
    let mut m = Posting {
        solver,
        tag,
        lits: vec![None; f.num_vars as usize],
        place,
        group_len,
        ints,
        made: 0,
        fresh: 0,
    };
    let mut row_sum: HashMap<usize, DomainId> = HashMap::new();
    let mut rows = 0;
    // Constraints without variables are not posted (pumpkin refuses a propagator that
    // watches nothing); one that is false makes the whole model false. The differential
    // test found this: a Kakuro cell whose digits were all filtered away left `= 1` on an
    // empty sum, and pumpkin panicked.
    let mut constant_false = false;
    for (i, (_, c)) in f.constraints.iter().enumerate() {
        // Posting propagates at the root, which takes long on large rows: the deadline and
        // the memory limit are checked between constraints.
        if deadline.passed() {
            return Err(Cut::Time);
        }
        if let Some(rss) = guard.over() {
            return Err(Cut::Memory(rss));
        }
        let ones = |ls: &[Lit], cmp| Linear::new(ls.iter().map(|&l| (1, l)).collect(), cmp, 1);
        if counted(i) {
            rows += 1;
            continue;
        }
        match c {
            Constraint::ExactlyOne(_) if chosen[i] => continue,
            Constraint::Clause(ls) | Constraint::ExactlyOne(ls) if ls.is_empty() => constant_false = true,
            Constraint::AtMostOne(ls) if ls.is_empty() => {}
            Constraint::Clause(ls) => {
                let ls: Vec<Literal> = ls.iter().map(|&l| m.lit(l)).collect();
                m.solver.add_constraint(pumpkin_solver::clause(ls, tag)).post();
            }
            // Cardinality rows are linear rows of unit coefficients: where they meet a group
            // they become its integer's indicator (`element` with a 0/1 table).
            Constraint::AtMostOne(ls) => {
                m.post(&ones(ls, Cmp::Le), &[], false);
            }
            Constraint::ExactlyOne(ls) => {
                m.post(&ones(ls, Cmp::Eq), &[], false);
            }
            Constraint::Linear(lin) => {
                let (sum, holds) = m.post(lin, &[], referenced[i]);
                constant_false |= !holds;
                if let Some(s) = sum {
                    row_sum.insert(i, s);
                }
            }
            Constraint::SumOf { parts, cmp, rhs } => {
                let sums: Option<Vec<DomainId>> = parts.iter().map(|p| row_sum.get(p).copied()).collect();
                let (_, holds) = match sums {
                    Some(s) => m.post(&Linear::new(vec![], *cmp, *rhs), &s, false),
                    None => m.post(&f.expand_sum_of(parts, *cmp, *rhs), &[], false),
                };
                constant_false |= !holds;
            }
        }
        rows += 1;
    }
    if let Some(l) = labels {
        let mut vars = Vec::with_capacity(l.tables.len());
        let none = int(l.counts.len());
        let open: Box<[bool]> = l.tables.iter().map(|(_, t)| t.contains(&none)).collect();
        for (g, table) in l.tables {
            // Exactly the labels the group's values have (a label's element removes only
            // entries).
            let x = m.solver.new_sparse_integer(table.to_vec());
            m.made += 1;
            let _ = m.solver.add_propagator(TableElementArgs {
                index: m.ints[g],
                table,
                rhs: x,
                tag,
                holes: true,
            });
            vars.push(x);
        }
        let _ = m.solver.add_propagator(LabelCountArgs {
            labels: vars.into_boxed_slice(),
            open,
            counts: l.counts,
            hall: options.hall,
            tag,
        });
    }
    let read = (0..f.num_vars as usize)
        .map(|v| match (m.place[v], m.lits[v]) {
            (Some((g, i)), _) => Read::Value(m.ints[g], i),
            (None, Some(l)) => Read::Lit(l),
            (None, None) => Read::Free,
        })
        .collect();
    Ok(Built {
        solver: m.solver,
        read,
        rows,
        ints: m.ints.len() + m.made,
        covered: m.fresh == 0,
        decisions: m.ints,
        constant_false,
    })
}

type Tag = pumpkin_solver::core::proof::ConstraintTag;

impl Backend for Cp {
    fn name(&self) -> &'static str {
        "cp"
    }

    fn capabilities(&self) -> Capabilities {
        Capabilities {
            time_limit: true,
            interrupt: true,
            assumptions: false,
            incremental: false,
            rhs_changes: false,
            proof: false,
            seed: true,
            parallel: false,
        }
    }

    /// Stage sums below 2^30, which pumpkin's 32-bit integers hold ([`super::CP_ROW_LIMIT`]).
    fn objective_stage_bits(&self) -> u32 {
        29
    }

    fn optimisation(&self) -> super::Method {
        super::Method::Native
    }

    /// pumpkin's linear SAT–UNSAT search on an objective integer ([`objective`]).
    fn optimise(
        &mut self,
        formula: &PbFormula,
        opts: &SolveOptions,
        improved: &mut super::Improved<'_>,
    ) -> Result<super::Optimum, BackendError> {
        refuse_wide_rows(formula)?;
        objective::optimise(self, formula, opts, improved)
    }

    /// pumpkin runs on a worker thread that owns its solver from start to end, while this
    /// thread waits until the deadline: posting one large row (root propagation) can take
    /// seconds without a chance to look at the clock, and freeing a large model takes about a
    /// second more (800 MB for bipyramid-2000). Past the deadline this thread answers
    /// `unknown` once the worker has ended or [`WIND_DOWN`] has passed: the worker sees the
    /// same deadline at its next check (measured on bipyramid-2000: it ends 5-55 ms after
    /// the deadline), and one still posting a row or freeing its solver after the grace is
    /// left to end on its own rather than hold the answer back. (pumpkin's solver cannot
    /// move between threads, so the worker gets its own copy of the formula, small beside
    /// pumpkin's model of it.)
    fn solve(&mut self, formula: &PbFormula, opts: &SolveOptions) -> Result<Outcome, BackendError> {
        self.check_options(opts)?;
        refuse_wide_rows(formula)?;
        let t0 = Instant::now();
        let deadline = opts.deadline();
        let limit = opts.encode.max_memory;
        let too_much = |needed: u64, when: &str| -> BackendError {
            EncodeError::memory(
                format!("the cp backend's model ({when})"),
                needed,
                limit,
                ", or try the search backend",
            )
            .into()
        };
        if let Some(needed) = over_limit(estimate_bytes(formula), limit) {
            return Err(too_much(needed, "estimated before building"));
        }
        let unknown = |t0: Instant| {
            Outcome::unknown(SolveStats {
                build_ms: t0.elapsed().as_secs_f64() * 1e3,
                ..Default::default()
            })
        };
        if deadline.passed() {
            return Ok(unknown(t0));
        }
        let options = self.options.with_env()?;
        let seed = opts.seed.unwrap_or(DEFAULT_SEED);
        let (tx, rx) = mpsc::channel();
        let worker = {
            let formula = formula.clone();
            let deadline = deadline.clone();
            std::thread::Builder::new()
                .name("sokuc-cp".into())
                .spawn(move || run(&formula, deadline, limit, options, seed, t0, &tx))?
        };
        let Ok(waited) = deadline.wait(&rx, POLL, || Ok::<(), std::convert::Infallible>(()));
        let answer = match waited {
            Waited::Done(Ok(outcome)) => Ok(outcome),
            Waited::Done(Err(Cut::Memory(rss))) => Err(too_much(rss, "while building or solving")),
            Waited::Done(Err(Cut::Time)) | Waited::Passed => Ok(unknown(t0)),
            Waited::WorkerGone => {
                let why = match worker.join() {
                    Err(panic) => panic
                        .downcast_ref::<String>()
                        .cloned()
                        .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
                        .unwrap_or_else(|| "a panic".into()),
                    Ok(()) => "no answer".into(),
                };
                return Err(BackendError::Solver {
                    backend: "cp",
                    message: format!("pumpkin stopped without an answer: {why}"),
                });
            }
        };
        // The worker has answered, or sees the deadline at its next look (between rows
        // while building, at pumpkin's termination checks while solving), then frees its
        // solver: given the rest of its step, it ends before the next solve starts beside it.
        let _ = join_within(worker, WIND_DOWN);
        answer
    }
}

/// The worker of [`Cp::solve`]: builds, solves, sends the outcome, and only then frees the
/// solver.
fn run(
    formula: &PbFormula,
    deadline: Deadline,
    limit: u64,
    options: CpOptions,
    seed: u64,
    t0: Instant,
    tx: &mpsc::Sender<Result<Outcome, Cut>>,
) {
    // The receiver is gone when the caller stopped waiting; then nothing is sent.
    let Some(mut built) = build_or_send(formula, &options, seed, &deadline, limit, tx, Err) else {
        return;
    };
    let build_time = t0.elapsed();
    let t1 = Instant::now();
    let mut stop = Stop::new(deadline, limit);
    let mut resolver = options.resolver();
    let result = if built.constant_false {
        Some((Status::Unsat, None))
    } else if stop.deadline.passed() {
        None
    } else {
        let solver = &mut built.solver;
        let mut brancher = options.brancher(built.decisions, built.covered, || Box::new(solver.default_brancher()));
        Some(solve_with(solver, &mut brancher, &mut stop, &mut resolver, &built.read))
    };
    if stop.over_memory > 0 {
        let _ = tx.send(Err(Cut::Memory(stop.over_memory)));
        return;
    }
    let (status, assignment) = result.unwrap_or((Status::Unknown, None));
    let stats = stop.stats(formula.num_vars as usize + built.ints, built.rows, build_time, t1);
    let _ = tx.send(Ok(Outcome {
        status,
        assignment,
        stats,
    }));
}

/// Both workers' start (solving and optimising): the model built under the build's memory
/// guard, or `None` once why it could not be built has been sent.
fn build_or_send<T>(
    formula: &PbFormula,
    options: &CpOptions,
    seed: u64,
    deadline: &Deadline,
    limit: u64,
    tx: &mpsc::Sender<T>,
    wrap: impl FnOnce(Cut) -> T,
) -> Option<Built> {
    let mut guard = Guard::new(limit, 256);
    match build(formula, options, seed, deadline, &mut guard) {
        Ok(b) => Some(b),
        Err(cut) => {
            let _ = tx.send(wrap(cut));
            None
        }
    }
}

fn solve_with<B: pumpkin_solver::core::branching::Brancher>(
    solver: &mut Solver,
    brancher: &mut B,
    stop: &mut Stop,
    resolver: &mut ResolutionResolver,
    read: &[Read],
) -> (Status, Option<Vec<bool>>) {
    match solver.satisfy(brancher, stop, resolver) {
        SatisfactionResult::Satisfiable(s) => {
            let sol = s.solution();
            (
                Status::Sat,
                Some(
                    read.iter()
                        .map(|r| match *r {
                            Read::Value(p, i) => sol.get_integer_value(p) == i,
                            Read::Lit(l) => sol.get_literal_value(l),
                            Read::Free => false,
                        })
                        .collect(),
                ),
            )
        }
        SatisfactionResult::Unsatisfiable(..) => (Status::Unsat, None),
        SatisfactionResult::Unknown(..) => (Status::Unknown, None),
    }
}
