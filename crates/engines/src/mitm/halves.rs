//! The two halves: each enumerated in Gray-code order, the right one sorted into a table,
//! the left one walked against it.

use std::ops::ControlFlow;

use super::reduce::{GeRow, P, Reduced};
use crate::budget::Deadline;

pub(super) fn mul_mod(a: u64, b: u64) -> u64 {
    u64::try_from((u128::from(a) * u128::from(b)) % u128::from(P)).unwrap_or(0)
}

/// A fixed pseudo-random multiplier per equality row (splitmix64): the same on every run,
/// so that an answer repeats.
pub(super) fn multiplier(e: usize) -> u64 {
    let mut z = (e as u64).wrapping_add(1).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (z ^ (z >> 31)) % (P - 1) + 1
}

/// What one variable adds to a half's key, sorted-row value and objective when it is 1.
#[derive(Debug, Clone, Copy, Default)]
struct Delta {
    key: u64,
    s: i128,
    obj: i128,
}

/// One assignment of a half: its key, sorted-row value, objective and the assignment itself.
#[derive(Debug, Clone, Copy)]
pub(super) struct Entry {
    key: u64,
    mask: u64,
    s: i128,
    obj: i128,
}

/// Walks the `2^deltas.len()` assignments of a half in Gray-code order (one variable flips
/// per step), calling `visit` with each; stops early on `Break` or a passed deadline
/// (`Err`).
fn walk(deltas: &[Delta], deadline: &Deadline, mut visit: impl FnMut(Entry) -> ControlFlow<()>) -> Result<(), ()> {
    let mut e = Entry {
        key: 0,
        mask: 0,
        s: 0,
        obj: 0,
    };
    if visit(e).is_break() {
        return Ok(());
    }
    for i in 1u64..(1u64 << deltas.len()) {
        if i & 0xfff == 0 && deadline.passed() {
            return Err(());
        }
        let j = i.trailing_zeros() as usize;
        let d = deltas[j];
        e.mask ^= 1 << j;
        if e.mask & (1 << j) != 0 {
            e.key = (e.key + d.key) % P;
            e.s += d.s;
            e.obj += d.obj;
        } else {
            e.key = (e.key + P - d.key) % P;
            e.s -= d.s;
            e.obj -= d.obj;
        }
        if visit(e).is_break() {
            return Ok(());
        }
    }
    Ok(())
}

/// The right half, sorted by key, then by sorted-row value (largest first); `best[i]` is the
/// entry of least objective from the start of `i`'s key group up to `i`.
pub(super) struct Table {
    entries: Vec<Entry>,
    best: Vec<u32>,
}

impl Table {
    fn build(mut entries: Vec<Entry>) -> Table {
        entries.sort_unstable_by(|x, y| x.key.cmp(&y.key).then(y.s.cmp(&x.s)).then(x.obj.cmp(&y.obj)));
        let mut best = Vec::with_capacity(entries.len());
        for i in 0..entries.len() {
            let start_of_group = i == 0 || entries[i - 1].key != entries[i].key;
            let b = if start_of_group {
                i
            } else {
                let prev = best[i - 1] as usize;
                if entries[i].obj < entries[prev].obj { i } else { prev }
            };
            best.push(u32::try_from(b).unwrap_or(u32::MAX));
        }
        Table { entries, best }
    }

    /// The entries with key `key` and sorted-row value at least `t`.
    fn candidates(&self, key: u64, t: i128) -> std::ops::Range<usize> {
        let lo = self.entries.partition_point(|e| e.key < key);
        let hi = lo + self.entries[lo..].partition_point(|e| e.key == key);
        let end = lo + self.entries[lo..hi].partition_point(|e| e.s >= t);
        lo..end
    }
}

/// How a search ended.
pub(super) enum End {
    /// Every pair was covered.
    Complete,
    /// The time limit passed or the interrupt came.
    Stopped,
    /// The cap on checks ran out.
    OutOfChecks,
    /// The caller's callback said stop.
    Broken,
}

/// The search over one reduced formula.
pub(super) struct Split<'f> {
    pub r: &'f Reduced,
    /// Free variables `0..left` are the left half, the rest the right half.
    pub left: usize,
    /// The inequality row sorted on, `≥` its right-hand side.
    pub sorted: Option<GeRow>,
    /// Rows neither keyed nor sorted on: every candidate pair is checked pair by pair.
    pub others: bool,
    pub checks: u64,
    pub cap: Option<u64>,
}

impl Split<'_> {
    fn deltas(&self, vars: std::ops::Range<usize>) -> Vec<Delta> {
        let mut d = vec![Delta::default(); vars.len()];
        for (e, row) in self.r.eq.iter().enumerate() {
            let m = multiplier(e);
            for &(c, v) in &row.terms {
                if vars.contains(&v) {
                    let x = &mut d[v - vars.start];
                    x.key = (x.key + mul_mod(m, c)) % P;
                }
            }
        }
        if let Some(s) = &self.sorted {
            for &(c, v) in &s.terms {
                if vars.contains(&v) {
                    d[v - vars.start].s += c;
                }
            }
        }
        if let Some(o) = &self.r.objective {
            for v in vars.clone() {
                d[v - vars.start].obj = o[v];
            }
        }
        d
    }

    /// The right half's table (`None`: the deadline passed while building it).
    pub fn table(&self, deadline: &Deadline) -> Option<Table> {
        let f = self.r.free.len();
        let right = self.deltas(self.left..f);
        let mut entries = Vec::with_capacity(1 << right.len());
        let walked = walk(&right, deadline, |e| {
            entries.push(e);
            ControlFlow::Continue(())
        });
        walked.ok().map(|()| Table::build(entries))
    }

    /// The assignment of left half `a` and right half `b` (auxiliary bits still unset).
    fn assignment(&self, a: u64, b: u64) -> Vec<bool> {
        let mut x = self.r.base.clone();
        for (i, &v) in self.r.free.iter().enumerate() {
            x[v] = if i < self.left {
                a >> i & 1 == 1
            } else {
                b >> (i - self.left) & 1 == 1
            };
        }
        x
    }

    /// The pair's assignment when it satisfies every row, exactly.
    fn holds(&mut self, a: u64, b: u64) -> Option<Vec<bool>> {
        self.checks += 1;
        let x = self.assignment(a, b);
        let ok = self.r.narrow.iter().all(|r| r.holds(&x)) && self.r.whole.iter().all(|w| w.holds(&x));
        ok.then_some(x)
    }

    fn out_of_checks(&self) -> bool {
        self.cap.is_some_and(|c| self.checks >= c)
    }

    /// Calls `found` with each pair that satisfies every row and whose objective is below
    /// what `bound` says, until `found` breaks.
    pub fn run(
        &mut self,
        table: &Table,
        deadline: &Deadline,
        bound: &mut dyn FnMut() -> Option<i128>,
        found: &mut dyn FnMut(Vec<bool>, i128) -> ControlFlow<()>,
    ) -> End {
        let left = self.deltas(0..self.left);
        let k = self.sorted.as_ref().map_or(i128::MIN / 4, |s| s.rhs);
        let target = self
            .r
            .eq
            .iter()
            .enumerate()
            .fold(0, |t, (e, row)| (t + mul_mod(multiplier(e), row.rhs)) % P);
        let mut end = End::Complete;
        let walked = walk(&left, deadline, |a| {
            // The right half must make up what the left half leaves of each equality.
            let key = (target + P - a.key) % P;
            let range = table.candidates(key, k - a.s);
            if range.is_empty() {
                return ControlFlow::Continue(());
            }
            // Without other rows the best entry of the prefix is the answer for `a`, unless
            // its key only collided: then the whole prefix is checked.
            if !self.others {
                let b = table.entries[table.best[range.end - 1] as usize];
                if bound().is_some_and(|v| a.obj + b.obj >= v) {
                    return ControlFlow::Continue(());
                }
                if let Some(x) = self.holds(a.mask, b.mask) {
                    if found(x, a.obj + b.obj).is_break() {
                        end = End::Broken;
                        return ControlFlow::Break(());
                    }
                    return ControlFlow::Continue(());
                }
            }
            for (i, b) in table.entries[range].iter().enumerate() {
                if i & 0x3ff == 0x3ff && deadline.passed() {
                    end = End::Stopped;
                    return ControlFlow::Break(());
                }
                if self.out_of_checks() {
                    end = End::OutOfChecks;
                    return ControlFlow::Break(());
                }
                if bound().is_some_and(|v| a.obj + b.obj >= v) {
                    continue;
                }
                if let Some(x) = self.holds(a.mask, b.mask)
                    && found(x, a.obj + b.obj).is_break()
                {
                    end = End::Broken;
                    return ControlFlow::Break(());
                }
            }
            ControlFlow::Continue(())
        });
        match walked {
            Err(()) => End::Stopped,
            Ok(()) => end,
        }
    }
}
