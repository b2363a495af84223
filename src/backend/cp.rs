//! pumpkin-solver (lazy clause generation) on a CP-shaped view of the IR.
//!
//! The 0/1 rows are not handed over as they are. Exactly-one groups become integer
//! variables (for 3SoKu: one placement variable per face, whose value picks type and
//! rotation); the group's literals are views `[P = i]` of it. In every linear row, the terms
//! of one group become a single integer `W = element(P, coefficients)` ("the weight this face
//! puts at this vertex"), and the row is a linear constraint over those integers. Lazy clause
//! generation then learns nogoods over placements and partial sums, the shape on which
//! Chuffed does well for this puzzle.

use std::collections::HashMap;
use std::sync::mpsc;
use std::time::{Duration, Instant};

use pumpkin_solver::conflict_resolvers::resolvers::ResolutionResolver;
use pumpkin_solver::core::branching::branchers::dynamic_brancher::DynamicBrancher;
use pumpkin_solver::core::branching::branchers::independent_variable_value_brancher::IndependentVariableValueBrancher;
use pumpkin_solver::core::branching::value_selection::InDomainMin;
use pumpkin_solver::core::branching::variable_selection::FirstFail;
use pumpkin_solver::core::results::{ProblemSolution, SatisfactionResult};
use pumpkin_solver::core::termination::TerminationCondition;
use pumpkin_solver::core::variables::{AffineView, DomainId, Literal, TransformableVariable};
use pumpkin_solver::core::{Solver, predicate};

use super::memory::{Guard, over_limit};
use super::{Backend, BackendError, Capabilities, Deadline, Outcome, SolveOptions, SolveStats, Status, Waited};
use crate::encode::EncodeError;
use crate::ir::{Cmp, Constraint, Linear, PbFormula, Var};

#[derive(Default)]
pub struct Cp;

/// How often the waiting thread looks at the deadline and the interrupt flag.
const POLL: Duration = Duration::from_millis(50);

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
}

impl TerminationCondition for Stop {
    fn should_stop(&mut self) -> bool {
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

/// Exactly-one groups chosen to become integer variables: disjoint, largest first.
fn choose_groups(f: &PbFormula) -> Vec<Vec<Var>> {
    let mut cands: Vec<(usize, Vec<Var>)> = f
        .constraints
        .iter()
        .enumerate()
        .filter_map(|(i, (_, c))| match c {
            Constraint::ExactlyOne(ls) if ls.len() >= 2 && ls.iter().all(|l| l.is_positive()) => {
                Some((i, ls.iter().map(|l| l.var()).collect()))
            }
            _ => None,
        })
        .collect();
    cands.sort_by(|a, b| b.1.len().cmp(&a.1.len()).then(a.0.cmp(&b.0)));
    let mut taken = vec![false; f.num_vars as usize];
    let mut out = Vec::new();
    for (_, vars) in cands {
        let mut uniq = vars.clone();
        uniq.sort();
        uniq.dedup();
        if uniq.len() == vars.len() && vars.iter().all(|v| !taken[v.index()]) {
            for v in &vars {
                taken[v.index()] = true;
            }
            out.push(vars);
        }
    }
    out
}

struct Built {
    solver: Solver,
    /// The integer variables made from exactly-one groups (placements), to branch on.
    decisions: Vec<DomainId>,
    lits: Vec<Literal>,
    rows: usize,
    ints: usize,
    /// Some constraint without variables is false.
    constant_false: bool,
}

fn build(f: &PbFormula, deadline: &Deadline, guard: &mut Guard) -> Result<Built, Cut> {
    let mut solver = Solver::default();
    let tag = solver.new_constraint_tag();
    let groups = choose_groups(f);
    let mut lits: Vec<Option<Literal>> = vec![None; f.num_vars as usize];
    // var -> (group, position)
    let mut place: HashMap<Var, (usize, usize)> = HashMap::new();
    let mut ints: Vec<DomainId> = Vec::with_capacity(groups.len());
    for (g, vars) in groups.iter().enumerate() {
        let p = solver.new_bounded_integer(0, vars.len() as i32 - 1);
        for (i, v) in vars.iter().enumerate() {
            let value = i as i32;
            lits[v.index()] = Some(solver.new_literal_for_predicate(predicate![p == value], tag));
            place.insert(*v, (g, i));
        }
        ints.push(p);
    }
    let lits: Vec<Literal> = lits
        .into_iter()
        .map(|l| l.unwrap_or_else(|| solver.new_literal()))
        .collect();
    let chosen: Vec<bool> = {
        let set: std::collections::HashSet<&[Var]> = groups.iter().map(Vec::as_slice).collect();
        let mut c = vec![false; f.constraints.len()];
        for (i, (_, con)) in f.constraints.iter().enumerate() {
            if let Constraint::ExactlyOne(ls) = con {
                let vs: Vec<Var> = ls.iter().map(|l| l.var()).collect();
                c[i] = set.contains(vs.as_slice());
            }
        }
        c
    };
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
    let rows_ctx = Rows {
        place: &place,
        groups: &groups,
        ints: &ints,
        lits: &lits,
        tag,
    };
    let lit = |l| rows_ctx.lit(l);
    let mut row_sum: HashMap<usize, DomainId> = HashMap::new();
    let mut rows = 0;
    let mut n_ints = ints.len();
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
        let as_terms = |ls: &[crate::ir::Lit]| ls.iter().map(|&l| lit(l).get_integer_variable()).collect::<Vec<_>>();
        match c {
            Constraint::ExactlyOne(_) if chosen[i] => continue,
            Constraint::Clause(ls) | Constraint::ExactlyOne(ls) if ls.is_empty() => constant_false = true,
            Constraint::AtMostOne(ls) if ls.is_empty() => {}
            Constraint::Clause(ls) => {
                solver
                    .add_constraint(pumpkin_solver::clause(
                        ls.iter().map(|&l| lit(l)).collect::<Vec<_>>(),
                        tag,
                    ))
                    .post();
            }
            Constraint::AtMostOne(ls) => {
                solver
                    .add_constraint(pumpkin_solver::less_than_or_equals(as_terms(ls), 1, tag))
                    .post();
            }
            Constraint::ExactlyOne(ls) => {
                solver
                    .add_constraint(pumpkin_solver::equals(as_terms(ls), 1, tag))
                    .post();
            }
            Constraint::Linear(lin) => {
                let (made, sum, holds) = rows_ctx.post(&mut solver, lin, &[], referenced[i]);
                constant_false |= !holds;
                n_ints += made;
                if let Some(s) = sum {
                    row_sum.insert(i, s);
                }
            }
            Constraint::SumOf { parts, cmp, rhs } => {
                let sums: Option<Vec<DomainId>> = parts.iter().map(|p| row_sum.get(p).copied()).collect();
                let (made, _, holds) = match sums {
                    Some(s) => rows_ctx.post(&mut solver, &Linear::new(vec![], *cmp, *rhs), &s, false),
                    None => rows_ctx.post(&mut solver, &f.expand_sum_of(parts, *cmp, *rhs), &[], false),
                };
                constant_false |= !holds;
                n_ints += made;
            }
        }
        rows += 1;
    }
    Ok(Built {
        solver,
        lits,
        rows,
        ints: n_ints,
        decisions: ints,
        constant_false,
    })
}

type Tag = pumpkin_solver::core::proof::ConstraintTag;

/// What posting a linear row needs to know about the model built so far.
struct Rows<'a> {
    place: &'a HashMap<Var, (usize, usize)>,
    groups: &'a [Vec<Var>],
    ints: &'a [DomainId],
    lits: &'a [Literal],
    tag: Tag,
}

impl Rows<'_> {
    fn lit(&self, l: crate::ir::Lit) -> Literal {
        let x = self.lits[l.var().index()];
        if l.is_positive() { x } else { !x }
    }

    /// Posts `lin` plus the integer terms `extra` (coefficient 1). Returns how many integer
    /// variables it created, with `want_sum` an integer equal to the row's left side, and
    /// false when the row has no variables and does not hold.
    fn post(
        &self,
        solver: &mut Solver,
        lin: &Linear,
        extra: &[DomainId],
        want_sum: bool,
    ) -> (usize, Option<DomainId>, bool) {
        let (place, groups, ints, tag) = (self.place, self.groups, self.ints, self.tag);
        let mut per_group: Vec<(usize, Vec<i32>)> = Vec::new();
        // Where each group is in `per_group` (a row can span thousands of groups).
        let mut slot: HashMap<usize, usize> = HashMap::new();
        let mut terms: Vec<AffineView<DomainId>> = extra.iter().map(|d| d.scaled(1)).collect();
        // Bounds of the left side, for the optional sum variable.
        let (mut lo, mut hi) = (0i64, 0i64);
        for d in extra {
            lo += solver.lower_bound(d) as i64;
            hi += solver.upper_bound(d) as i64;
        }
        for &(c, l) in &lin.terms {
            match place.get(&l.var()) {
                Some(&(g, i)) if l.is_positive() => {
                    let k = *slot.entry(g).or_insert_with(|| {
                        per_group.push((g, vec![0; groups[g].len()]));
                        per_group.len() - 1
                    });
                    per_group[k].1[i] += c as i32;
                }
                _ => {
                    terms.push(self.lit(l).get_integer_variable().scaled(c as i32));
                    lo += c.min(0);
                    hi += c.max(0);
                }
            }
        }
        let mut created = per_group.len();
        for (g, table) in per_group {
            let (a, b) = (*table.iter().min().unwrap_or(&0), *table.iter().max().unwrap_or(&0));
            lo += a as i64;
            hi += b as i64;
            let w = solver.new_bounded_integer(a, b);
            solver
                .add_constraint(pumpkin_solver::element(ints[g], table, w, tag))
                .post();
            terms.push(w.scaled(1));
        }
        let rhs = lin.rhs as i32;
        if want_sum {
            let s = solver.new_bounded_integer(lo as i32, hi as i32);
            created += 1;
            let mut t = terms.clone();
            t.push(s.scaled(-1));
            solver.add_constraint(pumpkin_solver::equals(t, 0, tag)).post();
            terms = vec![s.scaled(1)];
            post_cmp(solver, terms, lin.cmp, rhs, tag);
            return (created, Some(s), true);
        }
        if terms.is_empty() {
            return (created, None, lin.cmp.holds(0, lin.rhs));
        }
        post_cmp(solver, terms, lin.cmp, rhs, tag);
        (created, None, true)
    }
}

fn post_cmp(solver: &mut Solver, terms: Vec<AffineView<DomainId>>, cmp: Cmp, rhs: i32, tag: Tag) {
    match cmp {
        Cmp::Eq => solver.add_constraint(pumpkin_solver::equals(terms, rhs, tag)).post(),
        Cmp::Le => solver
            .add_constraint(pumpkin_solver::less_than_or_equals(terms, rhs, tag))
            .post(),
        Cmp::Ge => {
            let neg: Vec<_> = terms.iter().map(|t| t.scaled(-1)).collect();
            solver
                .add_constraint(pumpkin_solver::less_than_or_equals(neg, -rhs, tag))
                .post()
        }
    };
}

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
            seed: false,
        }
    }

    /// pumpkin runs on a worker thread that owns its solver from start to end, while this
    /// thread waits until the deadline: posting one large row (root propagation) can take
    /// seconds without a chance to look at the clock, and freeing a large model takes about a
    /// second more (800 MB for bipyramid-2000). Past the deadline this thread answers
    /// `unknown` at once; the worker sees the same deadline at its next check, stops, and
    /// frees its solver on its own. (pumpkin's solver cannot move between threads, so the
    /// worker gets its own copy of the formula, small beside pumpkin's model of it.)
    fn solve(&mut self, formula: &PbFormula, opts: &SolveOptions) -> Result<Outcome, BackendError> {
        self.check_options(opts)?;
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
        let first_fail = std::env::var_os("SOKUC_CP_FIRST_FAIL").is_some();
        let (tx, rx) = mpsc::channel();
        let worker = {
            let formula = formula.clone();
            let deadline = deadline.clone();
            std::thread::Builder::new()
                .name("sokuc-cp".into())
                .spawn(move || run(&formula, deadline, limit, first_fail, t0, &tx))?
        };
        let Ok(waited) = deadline.wait(&rx, POLL, || Ok::<(), std::convert::Infallible>(()));
        match waited {
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
                Err(BackendError::Solver {
                    backend: "cp",
                    message: format!("pumpkin stopped without an answer: {why}"),
                })
            }
        }
    }
}

/// The worker of [`Cp::solve`]: builds, solves, sends the outcome, and only then frees the
/// solver.
fn run(
    formula: &PbFormula,
    deadline: Deadline,
    limit: u64,
    first_fail: bool,
    t0: Instant,
    tx: &mpsc::Sender<Result<Outcome, Cut>>,
) {
    // The receiver is gone when the caller stopped waiting; then nothing is sent.
    let mut guard = Guard::new(limit, 256);
    let built = match build(formula, &deadline, &mut guard) {
        Ok(b) => b,
        Err(cut) => {
            let _ = tx.send(Err(cut));
            return;
        }
    };
    let Built {
        mut solver,
        lits,
        rows,
        ints,
        decisions,
        constant_false,
    } = built;
    let build_time = t0.elapsed();
    let t1 = Instant::now();
    let mut stop = Stop {
        deadline,
        guard: Guard::new(limit, 1 << 12),
        over_memory: 0,
    };
    let mut resolver = ResolutionResolver::default();
    let result = if constant_false {
        Some((Status::Unsat, None))
    } else if stop.deadline.passed() {
        None
    } else if first_fail {
        // First-fail over the placement integers, then whatever literals remain. Measured
        // on icosoku100 (first 30, 10 s limit): 6 time-outs, against none for pumpkin's
        // default activity-based search, which is therefore the default.
        let first = IndependentVariableValueBrancher::new(FirstFail::new(&decisions), InDomainMin);
        let rest = solver.default_brancher();
        let mut brancher = DynamicBrancher::new(vec![Box::new(first), Box::new(rest)]);
        Some(solve_with(&mut solver, &mut brancher, &mut stop, &mut resolver, &lits))
    } else {
        let mut brancher = solver.default_brancher();
        Some(solve_with(&mut solver, &mut brancher, &mut stop, &mut resolver, &lits))
    };
    if stop.over_memory > 0 {
        let _ = tx.send(Err(Cut::Memory(stop.over_memory)));
        return;
    }
    let (status, assignment) = result.unwrap_or((Status::Unknown, None));
    let stats = SolveStats {
        vars: (formula.num_vars as usize + ints) as u64,
        clauses: rows as u64,
        build_ms: build_time.as_secs_f64() * 1e3,
        solve_ms: t1.elapsed().as_secs_f64() * 1e3,
        extra: Default::default(),
    };
    let _ = tx.send(Ok(Outcome {
        status,
        assignment,
        stats,
    }));
    drop(solver);
}

fn solve_with<B: pumpkin_solver::core::branching::Brancher>(
    solver: &mut Solver,
    brancher: &mut B,
    stop: &mut Stop,
    resolver: &mut ResolutionResolver,
    lits: &[Literal],
) -> (Status, Option<Vec<bool>>) {
    match solver.satisfy(brancher, stop, resolver) {
        SatisfactionResult::Satisfiable(s) => {
            let sol = s.solution();
            (
                Status::Sat,
                Some(lits.iter().map(|&l| sol.get_literal_value(l)).collect()),
            )
        }
        SatisfactionResult::Unsatisfiable(..) => (Status::Unsat, None),
        SatisfactionResult::Unknown(..) => (Status::Unknown, None),
    }
}
