//! The counting engine: DPLL with unit propagation (two watched literals), decomposition of
//! the residual formula into components, and a component cache (see `cache.rs`).
//!
//! A component is a set of unassigned variables linked by unsatisfied clauses. Components
//! share neither variables nor clauses, so the projected count of the residual formula is the
//! product of theirs: the existential (non-projection) variables of one component appear in
//! no other, so each component can choose their values on its own.
//!
//! Inside a component that still has projection variables the search branches on those only
//! and adds the two branches' counts. A component without projection variables counts 1 if
//! it is satisfiable and 0 if not; the same search decides that, branching on its
//! existential variables and stopping at the first branch that counts 1, with the same
//! decomposition and cache (a satisfiability check that splits into independent parts, as a
//! plain SAT solver would not).
//!
//! No clause learning: backtracking is chronological, so two watched literals need no undo.

use num_bigint::BigUint;

use super::cache::Cache;
use crate::budget::Deadline;
use crate::ir::{Lit, Var};

/// How a count was found.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Stats {
    /// Branches taken (two per component searched, fewer where one model settled it).
    pub decisions: u64,
    /// Components met (searched or found in the cache).
    pub components: u64,
    pub cache_hits: u64,
    /// Entries in the cache at the end.
    pub cache_entries: u64,
    /// Entries dropped to stay within the memory limit.
    pub evictions: u64,
    pub peak_cache_bytes: u64,
}

/// Why no count came back: the count is unknown, not zero.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum Stopped {
    #[error("the time limit was reached (or the count was interrupted) before the count was complete")]
    Time,
    #[error(
        "counting needs more than the memory limit: {needed} bytes are in use by the formula and the search, the limit is {limit}"
    )]
    Memory { needed: u64, limit: u64 },
    /// More variables, clauses or literals than the counter's `u32` indices reach: past
    /// 2^32 of them, whatever the memory limit.
    #[error("the formula has more {what} than the counter can index (2^32)")]
    TooLarge { what: &'static str },
}

/// How many component searches between looks at the clock.
const CLOCK_EVERY: u64 = 256;

/// One component: its unassigned variables (sorted) and, sorted, those of its unsatisfied
/// clauses that have a false literal (the others are implied by the variables).
struct Component {
    vars: Vec<u32>,
    touched: Vec<u32>,
    has_projection: bool,
}

/// Appends a sorted list of distinct numbers as LEB128 gaps (each at least 1, so no byte of
/// them is 0) and a 0 byte: keys take 1-2 bytes per entry instead of 4.
fn push_gaps(key: &mut Vec<u8>, xs: &[u32]) {
    // One more than the previous number: the first gap is from -1.
    let mut next = 0u64;
    for &x in xs {
        let mut gap = u64::from(x) + 1 - next;
        next = u64::from(x) + 1;
        while gap >= 0x80 {
            key.push(low_seven(gap) | 0x80);
            gap >>= 7;
        }
        key.push(low_seven(gap));
    }
    key.push(0);
}

/// The low seven bits of `x`, a LEB128 digit.
fn low_seven(x: u64) -> u8 {
    u8::try_from(x & 0x7f).expect("seven bits fit in a byte")
}

/// An index into the engine's tables as the `u32` they store: [`Engine::new`] refuses a
/// formula with 2^32 or more variables, clauses or literals, so every index fits.
fn index(i: usize) -> u32 {
    u32::try_from(i).expect("Engine::new keeps the tables under 2^32 entries")
}

impl Component {
    /// The cache key: variables, then touched clauses. With the static formula they fix the
    /// residual formula (see `cache.rs`).
    fn key(&self) -> Box<[u8]> {
        let mut k = Vec::with_capacity(2 * (self.vars.len() + self.touched.len()) + 2);
        push_gaps(&mut k, &self.vars);
        push_gaps(&mut k, &self.touched);
        k.into_boxed_slice()
    }

    fn bytes(&self) -> u64 {
        4 * (self.vars.capacity() + self.touched.capacity()) as u64 + 64
    }
}

/// The index of a literal in per-literal tables.
fn code(l: Lit) -> usize {
    l.var().index() * 2 + usize::from(!l.is_positive())
}

pub(super) struct Engine<'a> {
    /// Clause literals, flat: clause `c` is `lits[start[c]..start[c + 1]]`, its first two
    /// literals watched. Only clauses of two or more literals are here.
    lits: Vec<Lit>,
    start: Vec<u32>,
    /// Per literal: the clauses watching it, visited when it becomes false.
    watches: Vec<Vec<u32>>,
    /// Per variable: the clauses it occurs in.
    occurs: Vec<Vec<u32>>,
    projection: Vec<bool>,
    /// Per variable: 0 unassigned, 1 true, -1 false.
    value: Vec<i8>,
    trail: Vec<Lit>,
    head: usize,
    /// Marks for the breadth-first search of components (equal to `stamp`: seen).
    var_seen: Vec<u32>,
    clause_seen: Vec<u32>,
    stamp: u32,
    /// Per variable: occurrences in the component being branched on (scratch).
    score: Vec<u32>,
    cache: Cache,
    deadline: &'a Deadline,
    max_bytes: u64,
    /// Bytes of the fixed structures above, and of the components alive on the stack.
    base_bytes: u64,
    live_bytes: u64,
    /// The formula is unsatisfiable before any decision (empty clause, clashing units).
    unsat: bool,
    pub stats: Stats,
}

impl<'a> Engine<'a> {
    /// Loads `clauses` over `num_vars` variables; clauses are cleaned (repeated literals
    /// merged, tautologies dropped) and unit clauses assigned.
    pub fn new(
        num_vars: u32,
        clauses: &mut dyn Iterator<Item = &[Lit]>,
        projection: &[Var],
        max_bytes: u64,
        deadline: &'a Deadline,
    ) -> Result<Engine<'a>, Stopped> {
        let mut n = num_vars as usize;
        for v in projection {
            n = n.max(v.index() + 1);
        }
        let mut e = Engine {
            lits: Vec::new(),
            start: vec![0],
            watches: Vec::new(),
            occurs: Vec::new(),
            projection: vec![false; n],
            value: vec![0; n],
            trail: Vec::with_capacity(n),
            head: 0,
            var_seen: vec![0; n],
            clause_seen: Vec::new(),
            stamp: 0,
            score: vec![0; n],
            cache: Cache::new(),
            deadline,
            max_bytes,
            base_bytes: 0,
            live_bytes: 0,
            unsat: false,
            stats: Stats::default(),
        };
        for v in projection {
            e.projection[v.index()] = true;
        }
        let mut units = Vec::new();
        let mut clause: Vec<Lit> = Vec::new();
        for c in clauses {
            clause.clear();
            clause.extend_from_slice(c);
            clause.sort_unstable();
            clause.dedup();
            // Sorted by code, a literal and its negation are neighbours.
            if clause.windows(2).any(|w| w[0].var() == w[1].var()) {
                continue;
            }
            for l in &clause {
                n = n.max(l.var().index() + 1);
            }
            match clause.len() {
                0 => e.unsat = true,
                1 => units.push(clause[0]),
                _ => {
                    e.lits.extend_from_slice(&clause);
                    let end = u32::try_from(e.lits.len()).map_err(|_| Stopped::TooLarge { what: "literals" })?;
                    e.start.push(end);
                }
            }
            if e.lits.len() as u64 * 4 > max_bytes {
                return Err(Stopped::Memory {
                    needed: e.lits.len() as u64 * 4,
                    limit: max_bytes,
                });
            }
        }
        // Variables and clauses are stored as u32 indices (`index`).
        if u32::try_from(n).is_err() {
            return Err(Stopped::TooLarge { what: "variables" });
        }
        // Variables that only a clause names (beyond the declared count) exist too.
        e.projection.resize(n, false);
        e.value.resize(n, 0);
        e.var_seen.resize(n, 0);
        e.score.resize(n, 0);
        e.watches = vec![Vec::new(); 2 * n];
        e.occurs = vec![Vec::new(); n];
        let num_clauses = e.start.len() - 1;
        if u32::try_from(num_clauses).is_err() {
            return Err(Stopped::TooLarge { what: "clauses" });
        }
        e.clause_seen = vec![0; num_clauses];
        for c in 0..num_clauses {
            let (s, t) = (e.start[c] as usize, e.start[c + 1] as usize);
            e.watches[code(e.lits[s])].push(index(c));
            e.watches[code(e.lits[s + 1])].push(index(c));
            for &l in &e.lits[s..t] {
                e.occurs[l.var().index()].push(index(c));
            }
        }
        let lists = |v: &Vec<Vec<u32>>| v.iter().map(|w| 24 + 4 * w.capacity() as u64).sum::<u64>();
        e.base_bytes = 4 * (e.lits.capacity() + e.start.capacity() + e.clause_seen.capacity()) as u64
            + lists(&e.watches)
            + lists(&e.occurs)
            + (4 + 1 + 1 + 4 + 4 + 4) * n as u64;
        if e.base_bytes > max_bytes {
            return Err(Stopped::Memory {
                needed: e.base_bytes,
                limit: max_bytes,
            });
        }
        for l in units {
            match e.lit_value(l) {
                0 => e.assign(l),
                1 => {}
                _ => e.unsat = true,
            }
        }
        if !e.unsat && !e.propagate() {
            e.unsat = true;
        }
        Ok(e)
    }

    /// The projected count of the whole formula.
    pub fn count(&mut self) -> Result<BigUint, Stopped> {
        if self.unsat {
            return Ok(BigUint::ZERO);
        }
        let all: Vec<u32> = (0..index(self.value.len())).collect();
        let n = self.count_residual(&all)?;
        self.stats.cache_entries = self.cache.len() as u64;
        self.stats.cache_hits = self.cache.hits;
        self.stats.evictions = self.cache.evictions;
        self.stats.peak_cache_bytes = self.cache.peak_bytes;
        Ok(n)
    }

    fn lit_value(&self, l: Lit) -> i8 {
        let v = self.value[l.var().index()];
        if l.is_positive() { v } else { -v }
    }

    fn assign(&mut self, l: Lit) {
        self.value[l.var().index()] = if l.is_positive() { 1 } else { -1 };
        self.trail.push(l);
    }

    fn undo(&mut self, mark: usize) {
        for l in &self.trail[mark..] {
            self.value[l.var().index()] = 0;
        }
        self.trail.truncate(mark);
        self.head = mark;
    }

    /// Unit propagation from the trail's unpropagated literals; false on a conflict.
    fn propagate(&mut self) -> bool {
        while self.head < self.trail.len() {
            let falsified = !self.trail[self.head];
            self.head += 1;
            let mut ws = std::mem::take(&mut self.watches[code(falsified)]);
            let (mut i, mut j) = (0, 0);
            let mut ok = true;
            while i < ws.len() {
                let c = ws[i];
                i += 1;
                let (s, t) = (self.start[c as usize] as usize, self.start[c as usize + 1] as usize);
                // The falsified watch goes second, so the other watch is lits[s].
                if self.lits[s] == falsified {
                    self.lits.swap(s, s + 1);
                }
                let other = self.lits[s];
                if self.lit_value(other) == 1 {
                    ws[j] = c;
                    j += 1;
                    continue;
                }
                if let Some(k) = (s + 2..t).find(|&k| self.lit_value(self.lits[k]) != -1) {
                    self.lits.swap(s + 1, k);
                    // The new watch is not `falsified` (it is not false), so `ws` is not it.
                    self.watches[code(self.lits[s + 1])].push(c);
                    continue;
                }
                ws[j] = c;
                j += 1;
                if self.lit_value(other) == -1 {
                    ok = false;
                    break;
                }
                self.assign(other);
            }
            // Keep the watches not yet visited after a conflict.
            while i < ws.len() {
                ws[j] = ws[i];
                i += 1;
                j += 1;
            }
            ws.truncate(j);
            self.watches[code(falsified)] = ws;
            if !ok {
                return false;
            }
        }
        true
    }

    fn next_stamp(&mut self) -> u32 {
        if self.stamp == u32::MAX {
            self.var_seen.iter_mut().for_each(|x| *x = 0);
            self.clause_seen.iter_mut().for_each(|x| *x = 0);
            self.stamp = 0;
        }
        self.stamp += 1;
        self.stamp
    }

    /// Splits the unassigned variables among `vars` into components; returns them and the
    /// number of projection variables that are in no unsatisfied clause (free: factor 2).
    fn decompose(&mut self, vars: &[u32]) -> (Vec<Component>, u64) {
        let stamp = self.next_stamp();
        let mut comps = Vec::new();
        let mut free = 0;
        for &v in vars {
            if self.value[v as usize] != 0 || self.var_seen[v as usize] == stamp {
                continue;
            }
            self.var_seen[v as usize] = stamp;
            self.score[v as usize] = 0;
            let mut queue = vec![v];
            let mut touched = Vec::new();
            let mut any_clause = false;
            let mut qi = 0;
            while qi < queue.len() {
                let u = queue[qi] as usize;
                qi += 1;
                for oi in 0..self.occurs[u].len() {
                    let c = self.occurs[u][oi] as usize;
                    if self.clause_seen[c] == stamp {
                        continue;
                    }
                    self.clause_seen[c] = stamp;
                    let (s, t) = (self.start[c] as usize, self.start[c + 1] as usize);
                    let mut open = 0;
                    let mut satisfied = false;
                    for &l in &self.lits[s..t] {
                        match self.lit_value(l) {
                            1 => {
                                satisfied = true;
                                break;
                            }
                            0 => open += 1,
                            _ => {}
                        }
                    }
                    if satisfied {
                        continue;
                    }
                    any_clause = true;
                    // A clause with every literal open is in the component exactly when its
                    // variables are: the variable list already says it, and the key leaves
                    // it out (the keys of the cache shrink by most of their clauses).
                    if open < t - s {
                        touched.push(index(c));
                    }
                    // Branching score: occurrences in open clauses, those about to propagate
                    // (two open literals) weighing more, as they split components sooner.
                    let weight = if open <= 2 { 3 } else { 1 };
                    for k in s..t {
                        let w = self.lits[k].var().index();
                        if self.value[w] != 0 {
                            continue;
                        }
                        if self.var_seen[w] != stamp {
                            self.var_seen[w] = stamp;
                            self.score[w] = 0;
                            queue.push(index(w));
                        }
                        self.score[w] += weight;
                    }
                }
            }
            if !any_clause {
                free += u64::from(self.projection[v as usize]);
                continue;
            }
            queue.sort_unstable();
            touched.sort_unstable();
            let has_projection = queue.iter().any(|&u| self.projection[u as usize]);
            comps.push(Component {
                vars: queue,
                touched,
                has_projection,
            });
        }
        (comps, free)
    }

    /// The projected count of what is left of `vars` under the current assignment (after a
    /// propagation without conflict): the product over its components.
    fn count_residual(&mut self, vars: &[u32]) -> Result<BigUint, Stopped> {
        let (mut comps, free) = self.decompose(vars);
        // Satisfiability checks first (a 0 among them ends the product), then small ones.
        comps.sort_by_key(|c| (c.has_projection, c.vars.len()));
        let frame: u64 = comps.iter().map(Component::bytes).sum::<u64>() + 64;
        self.reserve(frame)?;
        let mut product = BigUint::from(1u32) << free;
        let mut result = Ok(());
        for c in &comps {
            match self.count_component(c) {
                Ok(n) if n == BigUint::ZERO => {
                    product = n;
                    break;
                }
                Ok(n) => product *= n,
                Err(e) => {
                    result = Err(e);
                    break;
                }
            }
        }
        self.live_bytes -= frame;
        result.map(|()| product)
    }

    /// Takes `bytes` more for components on the stack, evicting cache entries to make room.
    fn reserve(&mut self, bytes: u64) -> Result<(), Stopped> {
        self.live_bytes += bytes;
        let fixed = self.base_bytes + self.live_bytes;
        if fixed > self.max_bytes || !self.cache.shrink_to(self.max_bytes - fixed) {
            return Err(Stopped::Memory {
                needed: fixed,
                limit: self.max_bytes,
            });
        }
        Ok(())
    }

    fn count_component(&mut self, comp: &Component) -> Result<BigUint, Stopped> {
        self.stats.components += 1;
        if self.stats.components % CLOCK_EVERY == 1 && self.deadline.passed() {
            return Err(Stopped::Time);
        }
        let key = comp.key();
        if let Some(n) = self.cache.get(&key) {
            return Ok(n);
        }
        let v = self.branch_variable(comp);
        let mut total = BigUint::ZERO;
        for l in [v.pos(), v.negative()] {
            self.stats.decisions += 1;
            let mark = self.trail.len();
            self.assign(l);
            if self.propagate() {
                total += self.count_residual(&comp.vars)?;
            }
            self.undo(mark);
            // Without projection variables only satisfiability matters: one model is enough.
            if !comp.has_projection && total != BigUint::ZERO {
                break;
            }
        }
        let room = self.max_bytes.saturating_sub(self.base_bytes + self.live_bytes);
        self.cache.insert(key, total.clone(), room);
        Ok(total)
    }

    /// The variable of `comp` with the best score (see `decompose`), among its projection
    /// variables if it has any (counting branches on those only). The scores are those of
    /// the decomposition that made `comp`: the searches of its sibling components since then
    /// touched only their own variables, and undid their assignments.
    fn branch_variable(&self, comp: &Component) -> Var {
        let mut best = comp.vars[0];
        let mut best_score = 0;
        for &v in &comp.vars {
            let eligible = !comp.has_projection || self.projection[v as usize];
            if eligible && self.score[v as usize] > best_score {
                best = v;
                best_score = self.score[v as usize];
            }
        }
        debug_assert!(best_score > 0);
        Var(best)
    }
}
