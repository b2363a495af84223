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
    /// How many more clauses this sink takes (see [`Budgeted`]); encoders about to write
    /// more than this call [`ClauseSink::exhaust`] instead.
    fn room(&self) -> u64 {
        u64::MAX
    }
    /// Marks the budget as spent: the encoding is abandoned.
    fn exhaust(&mut self) {}
}

/// A sink with a clause budget, so that a model whose CNF would be enormous (sums over
/// large, distinct weights) fails fast with a clear error instead of exhausting memory.
pub struct Budgeted<'a> {
    inner: &'a mut dyn ClauseSink,
    left: u64,
    pub over: bool,
}

impl<'a> Budgeted<'a> {
    pub fn new(inner: &'a mut dyn ClauseSink, limit: u64) -> Budgeted<'a> {
        Budgeted {
            inner,
            left: limit,
            over: false,
        }
    }
}

impl ClauseSink for Budgeted<'_> {
    fn new_var(&mut self) -> Var {
        self.inner.new_var()
    }
    fn add_clause(&mut self, lits: &[Lit]) {
        if self.left == 0 {
            self.over = true;
        }
        if self.over {
            return;
        }
        self.left -= 1;
        self.inner.add_clause(lits);
    }
    fn reserve_vars(&mut self, n: u32) {
        self.inner.reserve_vars(n)
    }
    fn num_vars(&self) -> u32 {
        self.inner.num_vars()
    }
    fn room(&self) -> u64 {
        if self.over { 0 } else { self.left }
    }
    fn exhaust(&mut self) {
        self.over = true;
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

/// Counts without storing: for sizes in reports.
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
