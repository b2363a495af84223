//! The cp backend's search: which variable and value to branch on, and when to restart.

use pumpkin_conflict_resolvers::resolvers::{AnalysisMode, ResolutionResolver};
use pumpkin_core::branching::branchers::dynamic_brancher::DynamicBrancher;
use pumpkin_core::branching::branchers::independent_variable_value_brancher::IndependentVariableValueBrancher;
use pumpkin_core::branching::value_selection::{InDomainMin, InDomainRandom};
use pumpkin_core::branching::variable_selection::{FirstFail, VariableSelector};
use pumpkin_core::branching::{Brancher, BrancherEvent, SelectionContext};
use pumpkin_core::options::{RestartOptions, SequenceGeneratorType, SolverOptions};
use pumpkin_core::predicate;
use pumpkin_core::predicates::Predicate;
use pumpkin_core::rand::SeedableRng;
use pumpkin_core::rand::rngs::SmallRng;
use pumpkin_core::variables::DomainId;

use crate::contract::BackendError;

/// How [`super::Cp`] searches. The defaults were measured best on icosoku100 and the hard-unsat
/// batch (encodings/cp.md has the numbers); `SOKUC_CP_OPTS` overrides them for experiments
/// ([`CpOptions::tuned`], through [`crate::SolveOptions::tuning`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CpOptions {
    pub order: Order,
    /// Which value of a placement integer is tried first (with `Order::SmallestDomain` and
    /// `Order::FirstFail`).
    pub value: ValueChoice,
    pub restarts: Restarts,
    /// How learnt nogoods are shortened.
    pub minimise: Minimise,
    /// Cardinality rows over the groups' values (3SoKu's tile types) as counts of one label
    /// integer per group (`counts=labels`, `super::counts`) instead of linear rows over one
    /// indicator per group and row (`counts=rows`).
    pub labels: bool,
    /// With `labels`: also fail when some groups can take only labels that have too little
    /// room left for them (a Hall set, `hall=on|off`).
    pub hall: bool,
}

/// pumpkin's nogood minimisation (its `ResolutionResolver`): the iterative one merges
/// predicates on one integer as they enter the nogood, the recursive one drops those implied by
/// the rest.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Minimise {
    Iterative,
    Recursive,
    Both,
    None,
}

impl Default for CpOptions {
    fn default() -> Self {
        CpOptions {
            order: Order::SmallestDomain,
            value: ValueChoice::Random,
            restarts: Restarts::Luby(10),
            minimise: Minimise::None,
            labels: true,
            hall: true,
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
            // Counting stops at the best size so far (thousands of groups on large models).
            let limit = best.map_or(usize::MAX, |(s, _)| s);
            let mut size = 0;
            for v in context.lower_bound(x)..=context.upper_bound(x) {
                if context.contains(x, v) {
                    size += 1;
                    if size >= limit {
                        break;
                    }
                }
            }
            if size < limit {
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
    /// These settings, changed by the solve's tuning (the `cp` list of
    /// [`crate::contract::Tuning`]), for tuning experiments without a rebuild.
    pub fn tuned(self, tuning: &crate::contract::Tuning) -> Result<CpOptions, BackendError> {
        match &tuning.cp {
            Some(spec) => self.with_spec(spec),
            None => Ok(self),
        }
    }

    /// These settings changed by a `name=value,...` list (see [`CpOptions::tuned`]).
    pub fn with_spec(mut self, spec: &str) -> Result<CpOptions, BackendError> {
        let bad = |what: &str| BackendError::Tuning {
            list: "SOKUC_CP_OPTS",
            message: format!(
                "{what} (expected order=smallest-domain|first-fail|activity, value=random|min, restarts=luby|pumpkin|never, restart-base=N, minimise=iterative|recursive|both|none, counts=labels|rows, hall=on|off)"
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
                ("minimise", "iterative") => self.minimise = Minimise::Iterative,
                ("minimise", "recursive") => self.minimise = Minimise::Recursive,
                ("minimise", "both") => self.minimise = Minimise::Both,
                ("minimise", "none") => self.minimise = Minimise::None,
                ("counts", "labels") => self.labels = true,
                ("counts", "rows") => self.labels = false,
                ("hall", "on") => self.hall = true,
                ("hall", "off") => self.hall = false,
                ("restarts", "luby") => self.restarts = Restarts::Luby(10),
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

    /// The conflict analysis for these settings.
    pub(super) fn resolver(&self) -> ResolutionResolver {
        let (recursive, iterative) = match self.minimise {
            Minimise::Iterative => (false, true),
            Minimise::Recursive => (true, false),
            Minimise::Both => (true, true),
            Minimise::None => (false, false),
        };
        ResolutionResolver::new(AnalysisMode::OneUIP, recursive, iterative)
    }

    /// pumpkin's solver options for these settings and `seed`.
    pub(super) fn solver_options(&self, seed: u64) -> SolverOptions {
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

impl CpOptions {
    /// The brancher for these settings over the placement integers `decisions`, with `rest`
    /// (pumpkin's default brancher) for whatever they leave open. When the placements
    /// determine everything (`covered`: every 0/1 variable is a view of one, and every other
    /// integer a function of them), `rest` is replaced by [`Leftover`], which keeps no
    /// activity scores: pumpkin's default brancher updates its scores at every conflict, about
    /// 5% of the run on the hard-unsat lines, for decisions it never makes.
    pub(super) fn brancher(
        &self,
        decisions: Vec<DomainId>,
        covered: bool,
        rest: impl FnOnce() -> Box<dyn Brancher>,
    ) -> DynamicBrancher {
        let rest = if covered && self.order != Order::Activity {
            Box::new(Leftover)
        } else {
            rest()
        };
        DynamicBrancher::new(match self.order {
            Order::SmallestDomain => vec![placements(SmallestDomain(decisions), self.value), rest],
            Order::FirstFail => vec![placements(FirstFail::new(&decisions), self.value), rest],
            Order::Activity => vec![rest],
        })
    }
}

/// The first unfixed integer at its lower bound: the branching after the placements when
/// those fix everything (it is there for completeness, and should never decide).
#[derive(Debug)]
struct Leftover;

impl Brancher for Leftover {
    fn next_decision(&mut self, context: &mut SelectionContext) -> Option<Predicate> {
        context
            .get_domains()
            .find(|&d| !context.is_integer_fixed(d))
            .map(|d| predicate![d <= context.lower_bound(d)])
    }

    fn subscribe_to_events(&self) -> Vec<BrancherEvent> {
        vec![]
    }
}

/// Branching on the placement integers chosen by `order`, with the value `value`.
fn placements<S: VariableSelector<DomainId> + 'static>(order: S, value: ValueChoice) -> Box<dyn Brancher> {
    match value {
        ValueChoice::Random => Box::new(IndependentVariableValueBrancher::new(order, InDomainRandom)),
        ValueChoice::Min => Box::new(IndependentVariableValueBrancher::new(order, InDomainMin)),
    }
}
