//! Where encoders write ([`ClauseSink`]): [`Budgeted`] around another sink keeps the clause
//! budget, the memory limit (by the sink's [`Cost`]) and the deadline; [`Cnf`] is an
//! in-memory CNF (for DIMACS and the tests); [`Counting`] only counts, for estimates before
//! a model is built.

use super::options::DEFAULT_MAX_CLAUSES;
use crate::budget::Deadline;
use crate::budget::memory::Guard;
use crate::ir::{Lit, Var};

/// Where encoders put variables and clauses (cf. varisat's `ExtendFormula`).
pub trait ClauseSink {
    /// A fresh auxiliary variable.
    fn new_var(&mut self) -> Var;
    fn add_clause(&mut self, lits: &[Lit]);
    /// Makes sure variables `0..n` exist (the primary variables of the IR).
    fn reserve_vars(&mut self, n: u32);
    /// Variables so far (primary and auxiliary).
    fn num_vars(&self) -> u32;
    /// How many more clauses this sink takes (see `Budgeted`); encoders about to write
    /// `n` more than this call [`ClauseSink::exhaust`] with `n` instead.
    fn room(&self) -> u64 {
        u64::MAX
    }
    /// The room `--pb-encoding auto` chooses a row's encoding by: [`ClauseSink::room`], but
    /// counted as if the budget were at most the default one. A larger budget lets larger
    /// CNFs through, and must never change the encoding of a row that the default budget
    /// encodes: with the room of a budget of 10^13, `auto` once gave a 24-face Partition
    /// instance's vertex rows the domain encoding (it fit half the room), whose kept sums
    /// then made the global sum need 65 TiB. `sat` refused it, and HiGHS alone ran for over
    /// 22 minutes, where the default budget's encoding (7.1 million clauses) is refuted at
    /// once.
    fn choice_room(&self) -> u64 {
        self.room()
    }
    /// Marks the budget as spent by a step that would write `more` clauses: the encoding
    /// is abandoned.
    fn exhaust(&mut self, _more: u64) {}
    /// Whether encoding should stop now (the deadline passed, or a budget is spent); for
    /// steps that take long without writing clauses.
    fn should_stop(&mut self) -> bool {
        false
    }
    /// What this sink keeps per clause, literal and variable, for the memory limit.
    fn cost(&self) -> Cost {
        Cost::CNF
    }
}

/// Bytes a sink keeps per clause, per literal and per variable: the memory model behind
/// `--max-memory` for CNF. The solvers' figures are measured (see their backends).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Cost {
    pub clause: u64,
    pub lit: u64,
    pub var: u64,
}

impl Cost {
    /// [`Cnf`]: a 4-byte literal, an 8-byte clause end.
    pub const CNF: Cost = Cost {
        clause: 8,
        lit: 4,
        var: 0,
    };

    pub fn bytes(&self, vars: u64, clauses: u64, lits: u64) -> u64 {
        vars.saturating_mul(self.var)
            .saturating_add(clauses.saturating_mul(self.clause))
            .saturating_add(lits.saturating_mul(self.lit))
    }
}

/// Why a [`Budgeted`] sink stopped taking clauses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Over {
    /// The clause budget (`--max-clauses`).
    Clauses,
    /// The memory limit: this many bytes would be needed (an estimate, or the resident size
    /// when the runtime guard saw it).
    Memory(u64),
    /// The deadline passed or the search was interrupted.
    Time,
}

/// How often (in clauses) a [`Budgeted`] sink looks at the clock.
const CLOCK_EVERY: u64 = 1024;

/// A sink with budgets, so that a model whose CNF would be enormous (sums over large,
/// distinct weights) fails fast with a clear error instead of exhausting memory: a clause
/// budget, a memory limit (bytes by the sink's [`Cost`]; the resident size of the process is
/// polled as well), and a deadline.
pub struct Budgeted<'a> {
    inner: &'a mut dyn ClauseSink,
    max_clauses: u64,
    max_bytes: u64,
    cost: Cost,
    deadline: &'a Deadline,
    guard: Guard,
    pub clauses: u64,
    pub lits: u64,
    pub over: Option<Over>,
}

// By hand: the sink it fills is a trait object; the budget and what was spent are shown.
impl std::fmt::Debug for Budgeted<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Budgeted")
            .field("max_clauses", &self.max_clauses)
            .field("max_bytes", &self.max_bytes)
            .field("clauses", &self.clauses)
            .field("lits", &self.lits)
            .field("over", &self.over)
            .finish_non_exhaustive()
    }
}

impl<'a> Budgeted<'a> {
    pub fn new(
        inner: &'a mut dyn ClauseSink,
        max_clauses: u64,
        max_bytes: u64,
        cost: Cost,
        deadline: &'a Deadline,
    ) -> Budgeted<'a> {
        Budgeted {
            inner,
            max_clauses,
            max_bytes,
            cost,
            deadline,
            // The resident size is read every 64k clauses (a few milliseconds of encoding).
            guard: Guard::new(max_bytes, 1 << 6),
            clauses: 0,
            lits: 0,
            over: None,
        }
    }

    /// Bytes in use by the model so far (by the cost model).
    pub fn bytes(&self) -> u64 {
        self.cost.bytes(self.inner.num_vars() as u64, self.clauses, self.lits)
    }

    /// Whether the deadline passed, or the compile stop of this thread
    /// ([`crate::budget::compiling_within`]) says to stop: [`crate::encode::encode`] takes no
    /// deadline, and an export that must end at one (the page's) encodes within it.
    pub fn time_up(&self) -> bool {
        self.deadline.passed() || crate::budget::compile_stop()
    }

    /// Bytes of a typical clause written by the sum encodings (three literals).
    fn clause_bytes(&self) -> u64 {
        (self.cost.clause + 3 * self.cost.lit).max(1)
    }
}

impl ClauseSink for Budgeted<'_> {
    fn new_var(&mut self) -> Var {
        self.inner.new_var()
    }
    fn add_clause(&mut self, lits: &[Lit]) {
        if self.over.is_some() {
            return;
        }
        if self.clauses >= self.max_clauses {
            self.over = Some(Over::Clauses);
            return;
        }
        self.clauses += 1;
        self.lits += lits.len() as u64;
        // The rest is looked at every 1,024 clauses (about 100 KB of CNF): this runs once per
        // clause, and counting a hopeless CNF to its limit should take well under a second.
        if self.clauses.is_multiple_of(CLOCK_EVERY) {
            let bytes = self.bytes();
            if bytes > self.max_bytes {
                self.over = Some(Over::Memory(bytes));
                return;
            }
            if self.time_up() {
                self.over = Some(Over::Time);
                return;
            }
            if let Some(rss) = self.guard.over() {
                self.over = Some(Over::Memory(rss));
                return;
            }
        }
        self.inner.add_clause(lits);
    }
    fn reserve_vars(&mut self, n: u32) {
        self.inner.reserve_vars(n)
    }
    fn num_vars(&self) -> u32 {
        self.inner.num_vars()
    }
    fn room(&self) -> u64 {
        if self.over.is_some() {
            return 0;
        }
        let by_count = self.max_clauses.saturating_sub(self.clauses);
        let by_bytes = self.max_bytes.saturating_sub(self.bytes()) / self.clause_bytes();
        by_count.min(by_bytes)
    }
    fn choice_room(&self) -> u64 {
        let default = self.max_clauses.min(DEFAULT_MAX_CLAUSES);
        self.room().min(default.saturating_sub(self.clauses))
    }
    fn exhaust(&mut self, more: u64) {
        if self.over.is_some() {
            return;
        }
        let by_count = self.max_clauses.saturating_sub(self.clauses);
        self.over = Some(if more > by_count {
            Over::Clauses
        } else {
            Over::Memory(self.bytes().saturating_add(more.saturating_mul(self.clause_bytes())))
        });
    }
    fn should_stop(&mut self) -> bool {
        if self.over.is_none() && self.time_up() {
            self.over = Some(Over::Time);
        }
        self.over.is_some()
    }
    fn cost(&self) -> Cost {
        self.cost
    }
}

/// An in-memory CNF, stored flat.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Cnf {
    pub num_vars: u32,
    lits: Vec<Lit>,
    ends: Vec<usize>,
}

impl Cnf {
    pub fn new() -> Self {
        Self::default()
    }

    pub fn num_clauses(&self) -> usize {
        self.ends.len()
    }

    pub fn clauses(&self) -> impl Iterator<Item = &[Lit]> {
        let mut start = 0;
        self.ends.iter().map(move |&e| {
            let c = &self.lits[start..e];
            start = e;
            c
        })
    }

    /// Appends a clause (also available through [`ClauseSink`]).
    pub fn add_clause_public(&mut self, lits: &[Lit]) {
        ClauseSink::add_clause(self, lits)
    }

    /// Whether a full assignment satisfies every clause.
    pub fn satisfied_by(&self, a: &[bool]) -> bool {
        self.clauses().all(|c| c.iter().any(|l| l.eval(a)))
    }
}

impl ClauseSink for Cnf {
    fn new_var(&mut self) -> Var {
        self.num_vars += 1;
        Var(self.num_vars - 1)
    }
    fn add_clause(&mut self, lits: &[Lit]) {
        self.lits.extend_from_slice(lits);
        self.ends.push(self.lits.len());
    }
    fn reserve_vars(&mut self, n: u32) {
        self.num_vars = self.num_vars.max(n);
    }
    fn num_vars(&self) -> u32 {
        self.num_vars
    }
}

/// Counts without storing: for sizes in reports and for estimates before building.
#[derive(Debug, Clone, Copy, Default)]
pub struct Counting {
    pub num_vars: u32,
    pub num_clauses: usize,
    pub num_lits: usize,
}

impl ClauseSink for Counting {
    fn new_var(&mut self) -> Var {
        self.num_vars += 1;
        Var(self.num_vars - 1)
    }
    fn add_clause(&mut self, lits: &[Lit]) {
        self.num_clauses += 1;
        self.num_lits += lits.len();
    }
    fn reserve_vars(&mut self, n: u32) {
        self.num_vars = self.num_vars.max(n);
    }
    fn num_vars(&self) -> u32 {
        self.num_vars
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::encode::{Cost, DEFAULT_MAX_CLAUSES};

    /// `auto`'s choices see the same room under any budget from the default up, so a larger
    /// budget never changes how a row is encoded (see [`ClauseSink::choice_room`]).
    #[test]
    fn choices_see_no_more_room_than_the_default_budget_gives() {
        let deadline = Deadline::default();
        let room_after = |budget: u64, clauses: u64| {
            let mut inner = Counting::default();
            let mut b = Budgeted::new(&mut inner, budget, u64::MAX, Cost::CNF, &deadline);
            for _ in 0..clauses {
                b.add_clause(&[Var(0).pos()]);
            }
            (b.room(), b.choice_room())
        };
        for clauses in [0, 1_000, 100_000] {
            let (_, default) = room_after(DEFAULT_MAX_CLAUSES, clauses);
            let (room, larger) = room_after(10_000_000_000_000, clauses);
            assert_eq!(larger, default);
            assert!(room > default);
            // A smaller budget still counts as it is.
            assert_eq!(room_after(500_000, clauses).1, 500_000 - clauses);
        }
    }
}
