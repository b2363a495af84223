//! Presolve for OPB and CNF files: what the rows force at the root, and the rows that
//! leaves behind, made smaller.
//!
//! Each step keeps the set of solutions exactly (over every variable, auxiliary ones
//! included), so a model of the smaller formula is a model of the compiled one and
//! counting and `--all` see the same solutions:
//! - **Fixing.** A row forces a literal when the row cannot hold without it: in
//!   `lo <= Σ c·l <= hi` over positive `c`, a free literal with `c` above the slack
//!   (`max - lo`, or `hi - min`) has one value left. Fixings propagate to a fixpoint
//!   through every row; a row that can no longer hold refutes the formula.
//! - **Probing.** Then each variable, most occurrences first, is set true and then false,
//!   and propagated from there. A value that breaks a row fixes the other value (a failed
//!   literal); a literal that both values force is fixed. Probing stops after a fixed
//!   amount of work, so a file of millions of rows pays a bounded price.
//! - **Dropping.** A row that holds whatever the free literals do goes.
//! - **Tightening.** What is left of a `>=` row over positive coefficients has its
//!   coefficients saturated at the new right-hand side and divided by their gcd; one whose
//!   every coefficient reaches the right-hand side is a clause, and an `=` row of ones
//!   equal to one an exactly-one.
//!
//! The fixed literals stay in the formula as unit clauses, so the variables keep their
//! numbers and every backend and the decoder see the same assignment. Rows are rewritten
//! only when no other part of the formula points at rows by position (the digit columns
//! of rows too wide for 64 bits, implied sums); otherwise only the unit clauses are added.
//!
//! A refutation from here is a claim the verifier cannot check: `tests/pb_presolve.rs` and
//! the unit tests below compare it with brute force and with the plain model.

use crate::ir::{Cmp, Constraint, Linear, Lit, PbFormula, Var};
use crate::puzzle::Refutation;

/// What presolve did.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Presolved {
    /// Variables fixed at the root.
    pub fixed: usize,
    /// Of those, the ones probing fixed (a value that breaks a row, or a literal both
    /// values force).
    pub probed: usize,
    /// Rows that held whatever was left, dropped.
    pub dropped: usize,
    /// Rows rewritten smaller (fixed terms gone, coefficients tightened, a row turned into
    /// a clause or an exactly-one).
    pub rewritten: usize,
}

/// One row in the form propagation reads: `lo <= Σ c·l <= hi` with every `c > 0`, terms
/// by falling coefficient. Coefficients are kept as `u64` magnitudes (the sums, in `i128`,
/// cannot overflow): a CNF file's millions of clauses are copied here once.
struct Row {
    terms: Vec<(u64, Lit)>,
    lo: i128,
    hi: i128,
    /// The sum of the coefficients of the literals fixed true.
    min: i128,
    /// The sum of the coefficients of the literals not fixed false.
    max: i128,
    queued: bool,
}

const INF: i128 = i128::MAX / 4;

impl Row {
    /// `None` for a row propagation leaves alone (an implied sum, a variable twice).
    /// `seen[v]` holds the last row `v` was met in; `id` is this row's mark.
    fn of(c: &Constraint, seen: &mut [u32], id: u32) -> Option<Row> {
        let ones = |ls: &[Lit]| ls.iter().map(|&l| (1i64, l)).collect::<Vec<_>>();
        let (written, lo, hi): (Vec<(i64, Lit)>, i128, i128) = match c {
            Constraint::Clause(ls) => (ones(ls), 1, INF),
            Constraint::AtMostOne(ls) => (ones(ls), -INF, 1),
            Constraint::ExactlyOne(ls) => (ones(ls), 1, 1),
            Constraint::Linear(lin) => {
                let rhs = i128::from(lin.rhs);
                let (lo, hi) = match lin.cmp {
                    Cmp::Ge => (rhs, INF),
                    Cmp::Le => (-INF, rhs),
                    Cmp::Eq => (rhs, rhs),
                };
                (lin.terms.clone(), lo, hi)
            }
            Constraint::SumOf { .. } => return None,
        };
        // c·l with c < 0 is c + |c|·~l: the constant moves into the bounds.
        let mut shift = 0i128;
        let mut terms: Vec<(u64, Lit)> = Vec::with_capacity(written.len());
        for (c, l) in written {
            let slot = &mut seen[l.var().index()];
            if *slot == id {
                return None;
            }
            *slot = id;
            if c < 0 {
                shift += i128::from(c);
                terms.push((c.unsigned_abs(), !l));
            } else if c > 0 {
                terms.push((c.unsigned_abs(), l));
            }
        }
        terms.sort_by_key(|t| std::cmp::Reverse(t.0));
        let max = terms.iter().map(|t| i128::from(t.0)).sum();
        let bound = |b: i128| if b.abs() >= INF { b } else { b - shift };
        Some(Row {
            terms,
            lo: bound(lo),
            hi: bound(hi),
            min: 0,
            max,
            queued: true,
        })
    }
}

/// The value of `l` under `val` (0 free, 1 true, -1 false by variable).
fn value(val: &[i8], l: Lit) -> i8 {
    let v = val[l.var().index()];
    if l.is_positive() { v } else { -v }
}

/// How much probing may do after the root fixpoint, in occurrence visits and rows read:
/// at most about 0.6 s (a random 3-CNF of 1.2 million clauses), whatever the size of the file.
const PROBE_WORK: u64 = 20_000_000;

/// Why propagation stopped early.
enum Stop {
    /// This row cannot hold under the values set.
    Conflict(usize),
    /// The time limit.
    Clock,
}

/// The rows as propagation reads them, the values set so far and the order they were set
/// in, so that a probe can be taken back.
struct Prop {
    rows: Vec<Option<Row>>,
    /// Where each variable occurs, (row, position in the row's terms), in one array:
    /// variable v's entries are `occurs[start[v]..start[v + 1]]`.
    start: Vec<u32>,
    occurs: Vec<(u32, u32)>,
    val: Vec<i8>,
    trail: Vec<Lit>,
    queue: Vec<usize>,
    forced: Vec<Lit>,
    pops: u32,
    /// Occurrence visits and rows read: probing's budget.
    work: u64,
}

impl Prop {
    fn new(f: &PbFormula) -> Prop {
        let n = f.num_vars() as usize;
        let mut seen = vec![u32::MAX; n];
        let rows: Vec<Option<Row>> = f
            .constraints()
            .iter()
            .enumerate()
            .map(|(r, (_, c))| Row::of(c, &mut seen, r as u32))
            .collect();
        drop(seen);
        let mut start = vec![0u32; n + 1];
        for t in rows.iter().flatten().flat_map(|row| &row.terms) {
            start[t.1.var().index() + 1] += 1;
        }
        for v in 0..n {
            start[v + 1] += start[v];
        }
        let mut occurs = vec![(0u32, 0u32); start[n] as usize];
        let mut next = start.clone();
        for (r, row) in rows.iter().enumerate() {
            for (i, t) in row.iter().flat_map(|row| row.terms.iter().enumerate()) {
                let slot = &mut next[t.1.var().index()];
                occurs[*slot as usize] = (r as u32, i as u32);
                *slot += 1;
            }
        }
        let queue = (0..rows.len()).filter(|&r| rows[r].is_some()).collect();
        Prop {
            rows,
            start,
            occurs,
            val: vec![0; n],
            trail: Vec::new(),
            queue,
            forced: Vec::new(),
            pops: 0,
            work: 0,
        }
    }

    fn occurrences(&self, v: usize) -> std::ops::Range<usize> {
        self.start[v] as usize..self.start[v + 1] as usize
    }

    /// Sets the free literal `l` true and queues the rows it occurs in.
    fn assign(&mut self, l: Lit) {
        let v = l.var().index();
        self.val[v] = if l.is_positive() { 1 } else { -1 };
        self.trail.push(l);
        for k in self.occurrences(v) {
            let (o, i) = self.occurs[k];
            self.work += 1;
            let Some(other) = self.rows[o as usize].as_mut() else {
                continue;
            };
            let (c, lit) = other.terms[i as usize];
            if lit == l {
                other.min += i128::from(c);
            } else {
                other.max -= i128::from(c);
            }
            if !other.queued {
                other.queued = true;
                self.queue.push(o as usize);
            }
        }
    }

    /// Takes back every value set after the first `mark` of the trail.
    fn undo(&mut self, mark: usize) {
        for r in self.queue.drain(..) {
            if let Some(row) = self.rows[r].as_mut() {
                row.queued = false;
            }
        }
        while self.trail.len() > mark {
            let l = self.trail.pop().expect("longer than mark");
            let v = l.var().index();
            self.val[v] = 0;
            for k in self.occurrences(v) {
                let (o, i) = self.occurs[k];
                let Some(other) = self.rows[o as usize].as_mut() else {
                    continue;
                };
                let (c, lit) = other.terms[i as usize];
                if lit == l {
                    other.min -= i128::from(c);
                } else {
                    other.max += i128::from(c);
                }
            }
        }
    }

    /// Sets what the queued rows force until nothing changes.
    fn propagate(&mut self) -> Result<(), Stop> {
        while let Some(r) = self.queue.pop() {
            // The clock is read every 4,096 rows, not per row: a CNF file has millions.
            self.pops = self.pops.wrapping_add(1);
            if self.pops.is_multiple_of(4096) && crate::budget::compile_stop() {
                return Err(Stop::Clock);
            }
            self.work += 1;
            let mut forced = std::mem::take(&mut self.forced);
            forced.clear();
            let Some(row) = self.rows[r].as_mut() else { continue };
            row.queued = false;
            if row.max < row.lo || row.min > row.hi {
                self.forced = forced;
                return Err(Stop::Conflict(r));
            }
            let slack = (row.max - row.lo).min(row.hi - row.min);
            for &(c, l) in &row.terms {
                let c = i128::from(c);
                if c <= slack {
                    break;
                }
                self.work += 1;
                if value(&self.val, l) != 0 {
                    continue;
                }
                // Without l the row misses `lo`; with it, it passes `hi`.
                if row.max - c < row.lo {
                    forced.push(l);
                } else if row.min + c > row.hi {
                    forced.push(!l);
                }
            }
            for &l in &forced {
                match value(&self.val, l) {
                    1 => {}
                    -1 => {
                        self.forced = forced;
                        return Err(Stop::Conflict(r));
                    }
                    _ => self.assign(l),
                }
            }
            self.forced = forced;
        }
        Ok(())
    }

    /// Failed literals and shared consequences: each variable, most occurrences first, is
    /// set true and then false. A value that breaks a row fixes the other one; a literal
    /// both values force is fixed. Stops when [`PROBE_WORK`] is spent. A conflict at the
    /// root (both values break a row) is returned.
    fn probe(&mut self) -> Result<(), Stop> {
        let n = self.val.len();
        let mut order: Vec<usize> = (0..n).filter(|&v| self.occurrences(v).len() >= 2).collect();
        order.sort_by_key(|&v| (std::cmp::Reverse(self.occurrences(v).len()), v));
        // `first[v]` is the value the probe numbered `stamp[v]` gave v when set true.
        let mut stamp = vec![usize::MAX; n];
        let mut first = vec![0i8; n];
        let limit = self.work + PROBE_WORK;
        for (k, v) in order.into_iter().enumerate() {
            if self.work > limit {
                break;
            }
            if self.val[v] != 0 {
                continue;
            }
            let root = self.trail.len();
            let x = Var(v as u32).pos();
            let mut failed = None;
            for probe in [x, !x] {
                self.assign(probe);
                match self.propagate() {
                    Err(Stop::Clock) => return Err(Stop::Clock),
                    Err(Stop::Conflict(_)) => failed = Some(probe),
                    Ok(()) if probe == x => {
                        for &l in &self.trail[root + 1..] {
                            stamp[l.var().index()] = k;
                            first[l.var().index()] = if l.is_positive() { 1 } else { -1 };
                        }
                    }
                    Ok(()) => {
                        self.forced.clear();
                        for &l in &self.trail[root + 1..] {
                            let w = l.var().index();
                            if stamp[w] == k && first[w] == if l.is_positive() { 1 } else { -1 } {
                                self.forced.push(l);
                            }
                        }
                    }
                }
                if failed.is_some() {
                    break;
                }
                self.undo(root);
            }
            let both = if let Some(l) = failed {
                self.undo(root);
                vec![!l]
            } else {
                std::mem::take(&mut self.forced)
            };
            for l in both {
                match value(&self.val, l) {
                    0 => self.assign(l),
                    1 => {}
                    _ => unreachable!("the probes ran from the same root"),
                }
            }
            self.propagate()?;
        }
        Ok(())
    }
}

/// Fixes what the rows force and rewrites the formula smaller (see the module comment).
/// A row that cannot hold is a refutation naming it.
pub fn presolve(f: &mut PbFormula) -> Result<Presolved, Refutation> {
    let n = f.num_vars() as usize;
    let mut p = Prop::new(f);
    let stopped = |why: Stop| match why {
        Stop::Clock => Refutation::stopped(),
        Stop::Conflict(r) => Refutation(format!("the rows force a contradiction at {}", f.constraints()[r].0)),
    };
    p.propagate().map_err(stopped)?;
    let at_root = p.trail.len();
    p.probe().map_err(stopped)?;
    let Prop {
        rows,
        val,
        trail: mut fixed,
        ..
    } = p;
    let mut done = Presolved {
        fixed: fixed.len(),
        probed: fixed.len() - at_root,
        ..Presolved::default()
    };
    if fixed.is_empty() {
        return Ok(done);
    }
    let positional = !f.wide_rows().is_empty()
        || f.constraints()
            .iter()
            .any(|(_, c)| matches!(c, Constraint::SumOf { .. }));
    if !positional {
        let old = f.take_constraints();
        for ((label, c), row) in old.into_iter().zip(&rows) {
            // A row propagation left alone (a variable twice) stays as it is.
            let simpler = if row.is_some() {
                simplify(&c, &val)
            } else {
                Simpler::Same
            };
            match simpler {
                Simpler::Same => {
                    f.add(label, c);
                }
                Simpler::Holds => done.dropped += 1,
                Simpler::Row(s) => {
                    done.rewritten += 1;
                    f.add(label, s);
                }
            }
        }
    }
    // The bits of a wide row's digit columns stay free of other rows: an engine that takes
    // the row whole (`mitm`) fills them in itself, and the columns force them anyway.
    let mut aux = vec![false; n];
    for v in f.wide_rows().iter().flat_map(|w| w.aux.clone()) {
        aux[v as usize] = true;
    }
    fixed.retain(|l| !aux[l.var().index()]);
    done.fixed = fixed.len();
    fixed.sort_unstable();
    for l in fixed {
        f.add("presolve: fixed", Constraint::Clause(vec![l]));
    }
    Ok(done)
}

enum Simpler {
    Same,
    Holds,
    Row(Constraint),
}

/// The row with the fixed literals taken out. Propagation has reached its fixpoint, so a
/// row has no single free literal left to force.
fn simplify(c: &Constraint, val: &[i8]) -> Simpler {
    let lits = |ls: &[Lit]| -> Option<Vec<Lit>> {
        if ls.iter().any(|&l| value(val, l) == 1) {
            return None;
        }
        Some(ls.iter().copied().filter(|&l| value(val, l) == 0).collect())
    };
    match c {
        Constraint::Clause(ls) | Constraint::AtMostOne(ls) | Constraint::ExactlyOne(ls)
            if ls.iter().all(|&l| value(val, l) == 0) =>
        {
            Simpler::Same
        }
        Constraint::Clause(ls) => match lits(ls) {
            None => Simpler::Holds,
            Some(free) => Simpler::Row(Constraint::Clause(free)),
        },
        // A true literal in an at-most-one fixed the others false.
        Constraint::AtMostOne(ls) => match lits(ls) {
            Some(free) if free.len() > 1 => Simpler::Row(Constraint::AtMostOne(free)),
            _ => Simpler::Holds,
        },
        Constraint::ExactlyOne(ls) => match lits(ls) {
            Some(free) => Simpler::Row(Constraint::ExactlyOne(free)),
            None => Simpler::Holds,
        },
        Constraint::Linear(lin) => linear(lin, val),
        Constraint::SumOf { .. } => Simpler::Same,
    }
}

fn linear(lin: &Linear, val: &[i8]) -> Simpler {
    if lin.terms.iter().all(|&(_, l)| value(val, l) == 0) {
        return Simpler::Same;
    }
    let mut rhs = lin.rhs;
    let mut terms: Vec<(i64, Lit)> = Vec::new();
    for &(c, l) in &lin.terms {
        match value(val, l) {
            1 => rhs -= c,
            -1 => {}
            _ => terms.push((c, l)),
        }
    }
    let low: i64 = terms.iter().map(|t| t.0.min(0)).sum();
    let high: i64 = terms.iter().map(|t| t.0.max(0)).sum();
    let holds = match lin.cmp {
        Cmp::Ge => low >= rhs,
        Cmp::Le => high <= rhs,
        Cmp::Eq => low == rhs && high == rhs,
    };
    if holds {
        return Simpler::Holds;
    }
    if terms.is_empty() {
        return Simpler::Row(Constraint::Clause(Vec::new()));
    }
    let positive = terms.iter().all(|t| t.0 > 0);
    if positive && lin.cmp == Cmp::Ge {
        // Saturation and the gcd, as the compiler does for a row as written.
        let terms: Vec<(i64, Lit)> = terms.into_iter().map(|(c, l)| (c.min(rhs), l)).collect();
        let g = terms.iter().fold(0, |g, t| gcd(g, t.0));
        let rhs = (rhs + g - 1) / g;
        if terms.iter().all(|t| t.0 / g >= rhs) {
            return Simpler::Row(Constraint::Clause(terms.into_iter().map(|t| t.1).collect()));
        }
        return Simpler::Row(Constraint::Linear(Linear::new(
            terms.into_iter().map(|(c, l)| (c / g, l)).collect(),
            Cmp::Ge,
            rhs,
        )));
    }
    if positive && lin.cmp == Cmp::Eq && rhs == 1 && terms.iter().all(|t| t.0 == 1) {
        return Simpler::Row(Constraint::ExactlyOne(terms.into_iter().map(|t| t.1).collect()));
    }
    Simpler::Row(Constraint::Linear(Linear::new(terms, lin.cmp, rhs)))
}

fn gcd(a: i64, b: i64) -> i64 {
    if b == 0 { a } else { gcd(b, a % b) }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::Var;
    use crate::rng::Rng;

    fn models(f: &PbFormula) -> Vec<u32> {
        let n = f.num_vars();
        (0..1u32 << n)
            .filter(|&bits| {
                let a: Vec<bool> = (0..n).map(|i| bits >> i & 1 == 1).collect();
                f.evaluate(&a).is_ok()
            })
            .collect()
    }

    fn random_formula(rng: &mut Rng, n: u32) -> PbFormula {
        let mut f = PbFormula::new(n);
        let lit = |rng: &mut Rng| Lit::new(Var(rng.below(n as usize) as u32), rng.below(2) == 0);
        for _ in 0..1 + rng.below(6) {
            let mut vars: Vec<u32> = (0..n).collect();
            rng.shuffle(&mut vars);
            let k = 1 + rng.below(n as usize);
            let ls: Vec<Lit> = vars[..k].iter().map(|&v| Lit::new(Var(v), rng.below(2) == 0)).collect();
            let c = match rng.below(5) {
                0 => Constraint::Clause(ls),
                1 => Constraint::AtMostOne(ls),
                2 => Constraint::ExactlyOne(ls),
                _ => {
                    let terms: Vec<(i64, Lit)> = ls.into_iter().map(|l| (rng.below(13) as i64 - 4, l)).collect();
                    let cmp = [Cmp::Ge, Cmp::Le, Cmp::Eq][rng.below(3)];
                    Constraint::Linear(Linear::new(terms, cmp, rng.below(12) as i64 - 3))
                }
            };
            f.add("row", c);
        }
        if rng.below(3) == 0 {
            let l = lit(rng);
            f.add("unit", Constraint::Clause(vec![l]));
        }
        f
    }

    /// Presolve keeps the set of solutions exactly, and refutes only formulas without one.
    #[test]
    fn presolve_keeps_every_solution_and_refutes_only_unsatisfiable_formulas() {
        let mut rng = Rng::new(27);
        let (mut refuted, mut fixed, mut dropped, mut probed) = (0, 0, 0, 0);
        for _ in 0..4000 {
            let n = 1 + rng.below(7) as u32;
            let f = random_formula(&mut rng, n);
            let before = models(&f);
            let mut g = f.clone();
            match presolve(&mut g) {
                Err(why) => {
                    assert!(before.is_empty(), "refuted a satisfiable formula ({}): {f:?}", why.0);
                    refuted += 1;
                }
                Ok(done) => {
                    assert_eq!(models(&g), before, "{f:?}\nbecame\n{g:?}");
                    fixed += done.fixed;
                    dropped += done.dropped;
                    probed += done.probed;
                }
            }
        }
        // The random formulas exercise every path.
        assert!(
            refuted > 100 && fixed > 1000 && dropped > 100 && probed > 50,
            "{refuted} {fixed} {dropped} {probed}"
        );
    }

    #[test]
    fn a_row_forces_its_big_literal_and_what_follows() {
        // 5a + b + c >= 5 forces a; a -> d; then d + e >= 1 holds and goes.
        let (a, b, c, d, e) = (Var(0).pos(), Var(1).pos(), Var(2).pos(), Var(3).pos(), Var(4).pos());
        let mut f = PbFormula::new(5);
        f.add(
            "line 1",
            Constraint::Linear(Linear::new(vec![(5, a), (1, b), (1, c)], Cmp::Ge, 5)),
        );
        f.add("line 2", Constraint::Clause(vec![!a, d]));
        f.add("line 3", Constraint::Clause(vec![d, e]));
        f.add(
            "line 4",
            Constraint::Linear(Linear::new(vec![(3, b), (3, c), (3, e), (4, a)], Cmp::Ge, 7)),
        );
        let done = presolve(&mut f).unwrap();
        assert_eq!(done.fixed, 2);
        assert_eq!(done.dropped, 3);
        // 3b + 3c + 3e >= 3 after a: a clause.
        assert!(
            f.constraints()
                .iter()
                .any(|(l, row)| l == "line 4" && *row == Constraint::Clause(vec![b, c, e]))
        );
        let units: Vec<_> = f.constraints().iter().filter(|(l, _)| l == "presolve: fixed").collect();
        assert_eq!(units.len(), 2);
    }

    #[test]
    fn probing_fixes_a_failed_literal_and_what_both_values_force() {
        // a or b, a or ~b: a = 0 breaks a row, so a. ~c or d, c or d: both values of c
        // force d. Propagation alone fixes neither.
        let (a, b, c, d) = (Var(0).pos(), Var(1).pos(), Var(2).pos(), Var(3).pos());
        let mut f = PbFormula::new(4);
        for (label, row) in [
            ("line 1", [a, b]),
            ("line 2", [a, !b]),
            ("line 3", [!c, d]),
            ("line 4", [c, d]),
        ] {
            f.add(label, Constraint::Clause(row.to_vec()));
        }
        let done = presolve(&mut f).unwrap();
        assert_eq!((done.fixed, done.probed), (2, 2));
        let units: Vec<_> = f
            .constraints()
            .iter()
            .filter(|(l, _)| l == "presolve: fixed")
            .map(|(_, row)| row.clone())
            .collect();
        assert_eq!(units, [Constraint::Clause(vec![a]), Constraint::Clause(vec![d])]);
    }

    #[test]
    fn probing_refutes_when_both_values_of_a_variable_fail() {
        // The four clauses over a and b: no model, and no single row forces anything.
        let (a, b) = (Var(0).pos(), Var(1).pos());
        let mut f = PbFormula::new(2);
        for row in [[a, b], [a, !b], [!a, b], [!a, !b]] {
            f.add("row", Constraint::Clause(row.to_vec()));
        }
        assert!(presolve(&mut f).unwrap_err().0.contains("contradiction at row"));
    }

    #[test]
    fn a_contradiction_names_the_row() {
        let a = Var(0).pos();
        let mut f = PbFormula::new(1);
        f.add("line 3", Constraint::Clause(vec![a]));
        f.add("line 9", Constraint::Clause(vec![!a]));
        let why = presolve(&mut f).unwrap_err().0;
        assert!(why.contains("line 3") || why.contains("line 9"), "{why}");
    }
}
