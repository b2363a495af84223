//! pumpkin-solver (lazy clause generation) on a CP-shaped view of the IR.
//!
//! The 0/1 rows are not handed over as they are. Exactly-one groups become integer
//! variables (for 3SoKu: one placement variable per face, whose value picks type and
//! rotation); the group's literals are views `[P = i]` of it. In every linear row, the terms
//! of one group become a single integer `W = element(P, coefficients)` ("the weight this face
//! puts at this vertex"), and the row is a linear constraint over those integers. Lazy clause
//! generation then learns nogoods over placements and partial sums, the shape on which
//! Chuffed does well for this puzzle.

mod table_element;

use std::collections::{BTreeSet, HashMap};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use pumpkin_solver::conflict_resolvers::resolvers::ResolutionResolver;
use pumpkin_solver::core::branching::branchers::dynamic_brancher::DynamicBrancher;
use pumpkin_solver::core::branching::branchers::independent_variable_value_brancher::IndependentVariableValueBrancher;
use pumpkin_solver::core::branching::value_selection::{InDomainMin, InDomainRandom};
use pumpkin_solver::core::branching::variable_selection::{FirstFail, VariableSelector};
use pumpkin_solver::core::branching::{Brancher, BrancherEvent, SelectionContext};
use pumpkin_solver::core::options::{RestartOptions, SequenceGeneratorType, SolverOptions};
use pumpkin_solver::core::rand::SeedableRng;
use pumpkin_solver::core::rand::rngs::SmallRng;
use pumpkin_solver::core::results::{ProblemSolution, SatisfactionResult};
use pumpkin_solver::core::termination::TerminationCondition;
use pumpkin_solver::core::variables::{AffineView, DomainId, Literal, TransformableVariable};
use pumpkin_solver::core::{Solver, predicate};

use super::memory::{Guard, over_limit};
use super::{Backend, BackendError, Capabilities, Deadline, Outcome, SolveOptions, SolveStats, Status, Waited};
use crate::encode::EncodeError;
use crate::ir::{Cmp, Constraint, Linear, Lit, PbFormula, Var};
use table_element::TableElementArgs;

#[derive(Debug, Clone, Default)]
pub struct Cp {
    pub options: CpOptions,
}

/// How [`Cp`] searches. The defaults were measured best on icosoku100 and the hard-unsat
/// batch (encodings/cp.md has the numbers); `SOKUC_CP_OPTS` overrides them for experiments
/// ([`CpOptions::with_env`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CpOptions {
    pub order: Order,
    /// Which value of a placement integer is tried first (with [`Order::SmallestDomain`] and
    /// [`Order::FirstFail`]).
    pub value: ValueChoice,
    pub restarts: Restarts,
}

impl Default for CpOptions {
    fn default() -> Self {
        CpOptions {
            order: Order::SmallestDomain,
            value: ValueChoice::Random,
            restarts: Restarts::Luby(50),
        }
    }
}

/// Which variable to branch on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Order {
    /// The unfixed placement integer with the fewest values left first (the first such);
    /// once all are fixed, pumpkin's default brancher for whatever remains.
    SmallestDomain,
    /// As [`Order::SmallestDomain`], but by pumpkin's `FirstFail`, which compares the
    /// distance between the bounds: that stays wide while values in the middle go, so this
    /// is nearly the groups' order.
    FirstFail,
    /// pumpkin's default brancher alone: VSIDS-like activity over all variables, with
    /// solution-based phase saving.
    Activity,
}

/// Picks the unfixed integer with the fewest values in its domain (the first of those with
/// as few).
#[derive(Debug)]
struct SmallestDomain(Vec<DomainId>);

impl VariableSelector<DomainId> for SmallestDomain {
    fn select_variable(&mut self, context: &mut SelectionContext) -> Option<DomainId> {
        let mut best: Option<(usize, DomainId)> = None;
        for &x in &self.0 {
            if context.is_integer_fixed(x) {
                continue;
            }
            let size = (context.lower_bound(x)..=context.upper_bound(x))
                .filter(|&v| context.contains(x, v))
                .count();
            if best.is_none_or(|(s, _)| size < s) {
                best = Some((size, x));
                if size == 2 {
                    // No unfixed domain is smaller.
                    break;
                }
            }
        }
        best.map(|(_, x)| x)
    }

    fn subscribe_to_events(&self) -> Vec<BrancherEvent> {
        vec![]
    }
}

/// Which value of the chosen integer a decision tries (`P = v`; on backtracking `P != v`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ValueChoice {
    /// A random value of the domain, from the seeded generator: after a restart the search
    /// tries other placements instead of the same smallest ones again.
    Random,
    Min,
}

/// When the search restarts (keeping what it learnt).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Restarts {
    /// Luby's sequence times this many conflicts, from the first conflict on.
    Luby(u64),
    /// pumpkin's own policy (Glucose's): none in the first 10,000 conflicts, then only when
    /// the learnt nogoods' LBD trend is bad. On icosoku-sized runs that means almost never.
    Pumpkin,
    Never,
}

/// The seed of the random value choice when `--seed` gives none, so that runs repeat.
pub const DEFAULT_SEED: u64 = 42;

impl CpOptions {
    /// These settings, changed by `SOKUC_CP_OPTS` (`name=value,...`:
    /// `order=smallest-domain|first-fail|activity`, `value=random|min`,
    /// `restarts=luby|pumpkin|never`, `restart-base=N` for Luby), for tuning experiments
    /// without a rebuild.
    pub fn with_env(self) -> Result<CpOptions, BackendError> {
        match std::env::var("SOKUC_CP_OPTS") {
            Ok(spec) => self.with_spec(&spec),
            Err(_) => Ok(self),
        }
    }

    /// These settings changed by a `name=value,...` list (see [`CpOptions::with_env`]).
    pub fn with_spec(mut self, spec: &str) -> Result<CpOptions, BackendError> {
        let bad = |what: &str| BackendError::Solver {
            backend: "cp",
            message: format!(
                "SOKUC_CP_OPTS: {what} (expected order=smallest-domain|first-fail|activity, value=random|min, restarts=luby|pumpkin|never, restart-base=N)"
            ),
        };
        let mut base = None;
        for kv in spec.split(',').map(str::trim).filter(|s| !s.is_empty()) {
            let (k, v) = kv
                .split_once('=')
                .map(|(k, v)| (k.trim(), v.trim()))
                .ok_or_else(|| bad(&format!("expected name=value, found `{kv}`")))?;
            match (k, v) {
                ("order", "smallest-domain") => self.order = Order::SmallestDomain,
                ("order", "first-fail") => self.order = Order::FirstFail,
                ("order", "activity") => self.order = Order::Activity,
                ("value", "random") => self.value = ValueChoice::Random,
                ("value", "min") => self.value = ValueChoice::Min,
                ("restarts", "luby") => self.restarts = Restarts::Luby(50),
                ("restarts", "pumpkin") => self.restarts = Restarts::Pumpkin,
                ("restarts", "never") => self.restarts = Restarts::Never,
                ("restart-base", n) => {
                    base = Some(
                        n.parse::<u64>()
                            .ok()
                            .filter(|&b| b > 0)
                            .ok_or_else(|| bad(&format!("restart-base `{n}` is not a positive integer")))?,
                    )
                }
                _ => return Err(bad(&format!("unknown setting `{kv}`"))),
            }
        }
        if let (Some(b), Restarts::Luby(_)) = (base, self.restarts) {
            self.restarts = Restarts::Luby(b);
        }
        Ok(self)
    }

    /// pumpkin's solver options for these settings and `seed`.
    fn solver_options(&self, seed: u64) -> SolverOptions {
        let restart_options = match self.restarts {
            // pumpkin restarts only past its first-restart threshold, only when the LBD
            // trend is bad (`lbd_coef`: long-term average times it <= short-term average),
            // and blocks a restart when more is assigned than of late (`num_assigned_coef`).
            // With 0, 0 and infinity it restarts exactly when the sequence says.
            Restarts::Luby(base) => RestartOptions {
                sequence_generator_type: SequenceGeneratorType::Luby,
                base_interval: base,
                min_num_conflicts_before_first_restart: 0,
                lbd_coef: 0.0,
                num_assigned_coef: f64::INFINITY,
                ..RestartOptions::default()
            },
            Restarts::Pumpkin => RestartOptions::default(),
            Restarts::Never => RestartOptions {
                no_restarts: true,
                ..RestartOptions::default()
            },
        };
        SolverOptions {
            restart_options,
            random_generator: SmallRng::seed_from_u64(seed),
            ..SolverOptions::default()
        }
    }
}

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
    /// Calls so far: pumpkin asks once per step of its search (a decision, or a conflict
    /// and its backjump), so this counts the search's work independently of the clock.
    steps: u64,
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

/// The exactly-one groups that [`Cp`] turns into integer variables, as their literals, in
/// the order of the formula's constraints. (Exposed so that tests can check the shape of the
/// model: for 3SoKu, one placement integer per face.)
pub fn integer_groups(f: &PbFormula) -> Vec<Vec<Lit>> {
    choose_groups(f)
        .into_iter()
        .map(|(_, vars)| vars.into_iter().map(Var::pos).collect())
        .collect()
}

/// The exactly-one groups (over positive literals of distinct variables) that become integer
/// variables, as (constraint index, variables), in constraint order. They must be disjoint:
/// a variable is the view `[P = i]` of one integer only.
///
/// The aim is to cover as many variables as possible: a variable in no chosen group stays a
/// bare 0/1 literal, and every row over it a pseudo-Boolean sum instead of a sum of small
/// integers. Largest-first is wrong for this: when groups overlap, one large group can push
/// out many smaller ones that would together cover more (3SoKu: the exactly-one "tile type
/// used once" rows span up to 60 placements, more than any face's 34, and taking them first
/// left every face that can hold such a type as loose literals).
///
/// The rule is that of exact cover (Knuth's Algorithm X, without backtracking): repeatedly
/// take the uncovered variable that the fewest remaining groups contain. One group: it is
/// the only way to cover that variable, so it is taken. Several: the one that strands the
/// fewest other variables (leaves them in no remaining group); then the one that meets the
/// fewest other rows, since each row it meets gets one integer term from it, so the rows
/// become short sums (a group spread over many rows splits each into more terms); then the
/// larger; then the earlier constraint. A taken group removes every remaining group it
/// overlaps. The result depends only on the formula.
///
/// For 3SoKu this takes exactly the faces: a placement of a type with several copies is in
/// its face's group only, so that face is forced, and it overlaps (and removes) the group of
/// every once-only type it can hold. Once-only types that survive that (all tiles different,
/// or presolve left some face only once-only types) tie with the faces they meet, and both
/// families partition the placements; a face meets its 3 vertex rows (and the count rows of
/// the types with several copies), a type every vertex it can reach.
fn choose_groups(f: &PbFormula) -> Vec<(usize, Vec<Var>)> {
    let n = f.num_vars as usize;
    let cands: Vec<(usize, Vec<Var>)> = f
        .constraints
        .iter()
        .enumerate()
        .filter_map(|(i, (_, c))| match c {
            // A single literal counts too: it is a group all the same (an integer with one
            // value), and without it the variable would be left to another group it is in,
            // which may then push out the rest of its family (a tile fixed on a face, when
            // all tiles differ, would make its type's group forced, and with it all types).
            Constraint::ExactlyOne(ls) if !ls.is_empty() && ls.iter().all(|l| l.is_positive()) => {
                let vars: Vec<Var> = ls.iter().map(|l| l.var()).collect();
                let mut uniq = vars.clone();
                uniq.sort();
                uniq.dedup();
                (uniq.len() == vars.len()).then_some((i, vars))
            }
            _ => None,
        })
        .collect();
    // containing[v]: the candidate groups with variable v.
    let mut containing: Vec<Vec<usize>> = vec![Vec::new(); n];
    for (g, (_, vars)) in cands.iter().enumerate() {
        for v in vars {
            containing[v.index()].push(g);
        }
    }
    let rows_met = rows_met(f, &cands);
    let mut alive = vec![true; cands.len()];
    // count[v]: alive groups with v; uncovered variables that some alive group has wait in
    // `queue`, fewest groups first, then by index.
    let mut count: Vec<usize> = containing.iter().map(Vec::len).collect();
    let mut covered = vec![false; n];
    let mut queue: BTreeSet<(usize, usize)> = (0..n).filter(|&v| count[v] > 0).map(|v| (count[v], v)).collect();
    let mut scratch = Scratch {
        in_group: vec![false; n],
        hits: vec![0; n],
        seen: vec![usize::MAX; cands.len()],
    };
    let mut chosen = Vec::new();
    while let Some((_, v)) = queue.pop_first() {
        let options: Vec<usize> = containing[v].iter().copied().filter(|&g| alive[g]).collect();
        let best = match options[..] {
            [only] => only,
            _ => *options
                .iter()
                .min_by_key(|&&g| {
                    let stranded = scratch.stranded(g, &cands, &containing, &alive, &count, &covered);
                    (stranded, rows_met[g], std::cmp::Reverse(cands[g].1.len()), g)
                })
                .expect("a queued variable is in some alive group"),
        };
        alive[best] = false;
        let mut dead = vec![best];
        for u in &cands[best].1 {
            for &k in &containing[u.index()] {
                if alive[k] {
                    alive[k] = false;
                    dead.push(k);
                }
            }
        }
        for u in &cands[best].1 {
            queue.remove(&(count[u.index()], u.index()));
            covered[u.index()] = true;
        }
        for k in dead {
            for u in &cands[k].1 {
                let u = u.index();
                if !covered[u] {
                    queue.remove(&(count[u], u));
                    if count[u] > 1 {
                        queue.insert((count[u] - 1, u));
                    }
                }
                count[u] -= 1;
            }
        }
        chosen.push(best);
    }
    chosen.sort_unstable();
    chosen.into_iter().map(|g| cands[g].clone()).collect()
}

/// For each candidate group, how many other constraints (not candidates) have some of its
/// variables: the rows it would bring an integer term to.
fn rows_met(f: &PbFormula, cands: &[(usize, Vec<Var>)]) -> Vec<usize> {
    let mut is_cand = vec![false; f.constraints.len()];
    for (i, _) in cands {
        is_cand[*i] = true;
    }
    let mut rows_of: Vec<Vec<usize>> = vec![Vec::new(); f.num_vars as usize];
    for (i, (_, c)) in f.constraints.iter().enumerate() {
        let vars: Vec<Var> = match c {
            _ if is_cand[i] => continue,
            Constraint::Clause(ls) | Constraint::AtMostOne(ls) | Constraint::ExactlyOne(ls) => {
                ls.iter().map(|l| l.var()).collect()
            }
            Constraint::Linear(lin) => lin.terms.iter().map(|(_, l)| l.var()).collect(),
            Constraint::SumOf { .. } => continue,
        };
        for v in vars {
            if rows_of[v.index()].last() != Some(&i) {
                rows_of[v.index()].push(i);
            }
        }
    }
    cands
        .iter()
        .map(|(_, vars)| {
            let mut rows: Vec<usize> = vars.iter().flat_map(|v| rows_of[v.index()].iter().copied()).collect();
            rows.sort_unstable();
            rows.dedup();
            rows.len()
        })
        .collect()
}

/// Work arrays of [`choose_groups`], reset after each use.
struct Scratch {
    in_group: Vec<bool>,
    hits: Vec<usize>,
    /// The last group whose overlaps counted this one (so each overlap counts once).
    seen: Vec<usize>,
}

impl Scratch {
    /// How many uncovered variables outside group `g` taking `g` would leave in no alive
    /// group: those all of whose alive groups overlap `g`.
    fn stranded(
        &mut self,
        g: usize,
        cands: &[(usize, Vec<Var>)],
        containing: &[Vec<usize>],
        alive: &[bool],
        count: &[usize],
        covered: &[bool],
    ) -> usize {
        let vars = &cands[g].1;
        for v in vars {
            self.in_group[v.index()] = true;
        }
        let mut touched = Vec::new();
        for v in vars {
            for &k in &containing[v.index()] {
                if k == g || !alive[k] || self.seen[k] == g {
                    continue;
                }
                self.seen[k] = g;
                for u in &cands[k].1 {
                    let u = u.index();
                    if !self.in_group[u] && !covered[u] {
                        if self.hits[u] == 0 {
                            touched.push(u);
                        }
                        self.hits[u] += 1;
                    }
                }
            }
        }
        let stranded = touched.iter().filter(|&&u| self.hits[u] == count[u]).count();
        for u in touched {
            self.hits[u] = 0;
        }
        for v in vars {
            self.in_group[v.index()] = false;
        }
        for v in vars {
            for &k in &containing[v.index()] {
                self.seen[k] = usize::MAX;
            }
        }
        stranded
    }
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
        ints.push(solver.new_bounded_integer(0, vars.len() as i32 - 1));
        group_len.push(vars.len());
        for (i, v) in vars.iter().enumerate() {
            place[v.index()] = Some((g, i as i32));
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
    let mut m = Posting {
        solver,
        tag,
        lits: vec![None; f.num_vars as usize],
        place,
        group_len,
        ints,
        made: 0,
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
        decisions: m.ints,
        constant_false,
    })
}

type Tag = pumpkin_solver::core::proof::ConstraintTag;

/// pumpkin's model while it is built.
struct Posting {
    solver: Solver,
    tag: Tag,
    /// `place[v]`: the chosen group of variable `v` and its value there.
    place: Vec<Option<(usize, i32)>>,
    group_len: Vec<usize>,
    /// The groups' integers.
    ints: Vec<DomainId>,
    /// Each variable's literal, made when a constraint first needs it: for a group's variable
    /// the view `[P = i]` (pumpkin ties it to P with two clauses), otherwise a fresh 0/1
    /// variable. A group's variables that only rows' `element`s see need none.
    lits: Vec<Option<Literal>>,
    /// Integers made besides the groups'.
    made: usize,
}

impl Posting {
    fn lit(&mut self, l: Lit) -> Literal {
        let v = l.var().index();
        let x = match self.lits[v] {
            Some(x) => x,
            None => {
                let x = match self.place[v] {
                    Some((g, value)) => {
                        let p = self.ints[g];
                        self.solver.new_literal_for_predicate(predicate![p == value], self.tag)
                    }
                    None => self.solver.new_literal(),
                };
                self.lits[v] = Some(x);
                x
            }
        };
        if l.is_positive() { x } else { !x }
    }

    /// Posts `lin` plus the integer terms `extra` (coefficient 1). Returns with `want_sum`
    /// an integer equal to the row's left side, and false when the row has no variables and
    /// does not hold.
    fn post(&mut self, lin: &Linear, extra: &[DomainId], want_sum: bool) -> (Option<DomainId>, bool) {
        let tag = self.tag;
        // The row's terms on each group: (group, (value, coefficient, literal) of each).
        type Terms = Vec<(i32, i64, Lit)>;
        let mut per_group: Vec<(usize, Terms)> = Vec::new();
        // Where each group is in `per_group` (a row can span thousands of groups).
        let mut slot: HashMap<usize, usize> = HashMap::new();
        let mut loose: Vec<(i64, Lit)> = Vec::new();
        for &(c, l) in &lin.terms {
            match self.place[l.var().index()] {
                Some((g, i)) if l.is_positive() => {
                    let k = *slot.entry(g).or_insert_with(|| {
                        per_group.push((g, Vec::new()));
                        per_group.len() - 1
                    });
                    per_group[k].1.push((i, c, l));
                }
                _ => loose.push((c, l)),
            }
        }
        let mut terms: Vec<AffineView<DomainId>> = extra.iter().map(|d| d.scaled(1)).collect();
        // Bounds of the left side, for the optional sum variable.
        let (mut lo, mut hi) = (0i64, 0i64);
        for d in extra {
            lo += self.solver.lower_bound(d) as i64;
            hi += self.solver.upper_bound(d) as i64;
        }
        for (g, entries) in per_group {
            // Few terms on a group stay literal views; more become one integer, the group's
            // contribution `W = table[P]`.
            if entries.len() < 2 {
                loose.extend(entries.into_iter().map(|(_, c, l)| (c, l)));
                continue;
            }
            let mut table = vec![0i32; self.group_len[g]];
            for (i, c, _) in entries {
                table[i as usize] += c as i32;
            }
            let (a, b) = (*table.iter().min().unwrap_or(&0), *table.iter().max().unwrap_or(&0));
            lo += a as i64;
            hi += b as i64;
            let w = self.solver.new_bounded_integer(a, b);
            self.made += 1;
            let _ = self.solver.add_propagator(TableElementArgs {
                index: self.ints[g],
                table: table.into(),
                rhs: w,
                tag,
            });
            terms.push(w.scaled(1));
        }
        for (c, l) in loose {
            terms.push(self.lit(l).get_integer_variable().scaled(c as i32));
            lo += c.min(0);
            hi += c.max(0);
        }
        let rhs = lin.rhs as i32;
        if want_sum {
            let s = self.solver.new_bounded_integer(lo as i32, hi as i32);
            self.made += 1;
            let mut t = terms.clone();
            t.push(s.scaled(-1));
            self.solver.add_constraint(pumpkin_solver::equals(t, 0, tag)).post();
            post_cmp(&mut self.solver, vec![s.scaled(1)], lin.cmp, rhs, tag);
            return (Some(s), true);
        }
        if terms.is_empty() {
            return (None, lin.cmp.holds(0, lin.rhs));
        }
        post_cmp(&mut self.solver, terms, lin.cmp, rhs, tag);
        (None, true)
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
            seed: true,
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
    options: CpOptions,
    seed: u64,
    t0: Instant,
    tx: &mpsc::Sender<Result<Outcome, Cut>>,
) {
    // The receiver is gone when the caller stopped waiting; then nothing is sent.
    let mut guard = Guard::new(limit, 256);
    let built = match build(formula, &options, seed, &deadline, &mut guard) {
        Ok(b) => b,
        Err(cut) => {
            let _ = tx.send(Err(cut));
            return;
        }
    };
    let Built {
        mut solver,
        read,
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
        steps: 0,
    };
    let mut resolver = ResolutionResolver::default();
    let result = if constant_false {
        Some((Status::Unsat, None))
    } else if stop.deadline.passed() {
        None
    } else {
        let rest: Box<dyn Brancher> = Box::new(solver.default_brancher());
        let mut brancher = DynamicBrancher::new(match options.order {
            Order::SmallestDomain => vec![placements(SmallestDomain(decisions), options.value), rest],
            Order::FirstFail => vec![placements(FirstFail::new(&decisions), options.value), rest],
            Order::Activity => vec![rest],
        });
        Some(solve_with(&mut solver, &mut brancher, &mut stop, &mut resolver, &read))
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
        extra: [("steps".to_string(), stop.steps.into())].into_iter().collect(),
    };
    let _ = tx.send(Ok(Outcome {
        status,
        assignment,
        stats,
    }));
    drop(solver);
}

/// Branching on the placement integers chosen by `order`, with the value `value`.
fn placements<S: VariableSelector<DomainId> + 'static>(order: S, value: ValueChoice) -> Box<dyn Brancher> {
    match value {
        ValueChoice::Random => Box::new(IndependentVariableValueBrancher::new(order, InDomainRandom)),
        ValueChoice::Min => Box::new(IndependentVariableValueBrancher::new(order, InDomainMin)),
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
