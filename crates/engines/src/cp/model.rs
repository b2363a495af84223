//! Building pumpkin's model of a formula, on the worker that will solve it: the estimate
//! checked against the memory limit first, the groups as integers, the rows posted (see
//! `posting.rs`, `counts.rs`, `table_element.rs`), and what stops the worker (the deadline,
//! the interrupt, the memory guard). Shared by solving (`mod.rs`) and optimising
//! (`objective.rs`).
//!
//! A constraint without variables is evaluated here, never posted: pumpkin panics on one (a
//! Kakuro cell with no digit left, found by the first differential run). The shared backend
//! suite (`tests/backends.rs`) tests such constraints on every engine.

use std::collections::HashMap;
use std::sync::mpsc;
use std::time::{Duration, Instant};

use pumpkin_core::Solver;
use pumpkin_core::termination::TerminationCondition;
use pumpkin_core::variables::{DomainId, Literal};

use super::counts::{LabelCountArgs, labelling};
use super::groups::choose_groups;
use super::ints::int;
use super::posting::Posting;
use super::search::CpOptions;
use super::table_element::TableElementArgs;
use crate::budget::Deadline;
use crate::budget::memory::Guard;
use crate::contract::{BackendError, SolveStats};
use crate::ir::{Cmp, Constraint, Linear, Lit, PbFormula};

/// How often the waiting thread looks at the deadline and the interrupt flag.
pub(super) const POLL: Duration = Duration::from_millis(50);

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
pub(super) const BYTES_PER_VAR: u64 = 1500;
pub(super) const BYTES_PER_TERM: u64 = 750;

/// Stops the search at the deadline, or when the resident size passes the memory limit
/// (then `over_memory` holds it).
pub(super) struct Stop {
    pub(super) deadline: Deadline,
    pub(super) guard: Guard,
    pub(super) over_memory: u64,
    /// Calls so far: pumpkin asks once per step of its search (a decision, or a conflict
    /// and its backjump), so this counts the search's work independently of the clock.
    pub(super) steps: u64,
}

impl Stop {
    /// The search's stop: the deadline, and the memory guard polled every 4096 steps.
    pub(super) fn new(deadline: Deadline, limit: u64) -> Stop {
        Stop {
            deadline,
            guard: Guard::new(limit, 1 << 12),
            over_memory: 0,
            steps: 0,
        }
    }

    /// What a worker reports: sizes, the two phases' times, and the steps searched.
    pub(super) fn stats(&self, vars: usize, rows: usize, build: Duration, solve_start: Instant) -> SolveStats {
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
pub(super) fn refuse_wide_rows(f: &PbFormula) -> Result<(), BackendError> {
    match crate::limits::row_at_least(f, crate::limits::CP_ROW_LIMIT) {
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

pub(super) fn estimate_bytes(f: &PbFormula) -> u64 {
    let terms: u64 = f
        .constraints()
        .iter()
        .map(|(_, c)| match c {
            Constraint::Clause(ls) | Constraint::AtMostOne(ls) | Constraint::ExactlyOne(ls) => ls.len() as u64,
            Constraint::Linear(l) => l.terms.len() as u64,
            Constraint::SumOf { parts, .. } => parts.len() as u64,
        })
        .sum();
    (f.num_vars() as u64)
        .saturating_mul(BYTES_PER_VAR)
        .saturating_add(terms.saturating_mul(BYTES_PER_TERM))
}

/// Why [`build`] stopped early: the deadline, or the memory limit (the resident size seen).
/// Either way the caller stopped waiting, or stops now.
pub(super) enum Cut {
    Time,
    Memory(u64),
}

pub(super) struct Built {
    pub(super) solver: Solver,
    /// The placement integers, one per chosen group, to branch on.
    pub(super) decisions: Vec<DomainId>,
    /// How each IR variable is read from a solution.
    pub(super) read: Vec<Read>,
    pub(super) rows: usize,
    pub(super) ints: usize,
    /// Some constraint without variables is false.
    pub(super) constant_false: bool,
    /// Every 0/1 variable pumpkin has is a view of a placement integer.
    pub(super) covered: bool,
}

/// Where an IR variable's value is in pumpkin's model.
#[derive(Clone, Copy)]
pub(super) enum Read {
    /// A group's variable: true when its integer takes this value.
    Value(DomainId, i32),
    Lit(Literal),
    /// In no constraint pumpkin saw (any value will do).
    Free,
}

pub(super) fn build(
    f: &PbFormula,
    options: &CpOptions,
    seed: u64,
    deadline: &Deadline,
    guard: &mut Guard,
) -> Result<Built, Cut> {
    let mut solver = Solver::with_options(options.solver_options(seed));
    let tag = solver.new_constraint_tag();
    let chosen_groups = choose_groups(f);
    let mut place: Vec<Option<(usize, i32)>> = vec![None; f.num_vars() as usize];
    let mut ints: Vec<DomainId> = Vec::with_capacity(chosen_groups.len());
    let mut group_len = Vec::with_capacity(chosen_groups.len());
    let mut chosen = vec![false; f.constraints().len()];
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
    let mut referenced = vec![false; f.constraints().len()];
    for (_, c) in f.constraints() {
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
        lits: vec![None; f.num_vars() as usize],
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
    for (i, (_, c)) in f.constraints().iter().enumerate() {
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
                m.solver.add_constraint(pumpkin_constraints::clause(ls, tag)).post();
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
    let read = (0..f.num_vars() as usize)
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

/// Both workers' start (solving and optimising): the model built under the build's memory
/// guard, or `None` once why it could not be built has been sent.
pub(super) fn build_or_send<T>(
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
