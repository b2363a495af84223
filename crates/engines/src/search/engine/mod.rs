//! A small propagation engine over the IR: exactly-one groups become finite domains
//! (bitsets of options), every other constraint becomes a linear row over those domains.
//!
//! Propagation is bounds reasoning per row, made aware of the groups: each group adds at
//! least the smallest and at most the largest contribution among its remaining options, so
//! a face's corner weight is treated as one small integer rather than as independent 0/1
//! terms. An option whose contribution cannot fit beside the other groups' bounds is removed.
//! Contributions of one group to one row take few distinct values (corner weights 0..3, or
//! 0/1 for a tile type), so each value has a precomputed option mask and filtering is a
//! handful of AND operations.
//!
//! Search: most constrained group first (fewest options), two-way branching (option o, then
//! not o), randomised restarts with a failure limit that starts at 16 and grows by 10%. It is complete: the limit grows
//! without bound, so every instance ends sat or unsat unless the deadline stops it.
//!
//! Backtracking undoes changes from a trail: every domain word and every incidence bound
//! that changes is recorded once with its old value, and a backtrack restores them in
//! reverse. The search state exists once, so memory is the state plus the changes along
//! one branch. (It used to be copied at each decision: on bipyramid-2000, 1.7 MB per copy at
//! a depth of 4,000, 7.2 GB in all.)

mod pace;
pub mod split;
pub mod walk;

use crate::budget::Deadline;
use crate::ir::{Cmp, Constraint, Lit, PbFormula};

/// Failures allowed in the first run, and how the allowance grows per restart.
const RESTART_FIRST: u64 = 16;
const RESTART_GROWTH_PERCENT: u64 = 110;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Answer {
    Sat,
    Unsat,
    Unknown,
    /// The failure budget ([`Engine::max_failures`]) ran out first.
    GaveUp,
}

/// One group's contribution to one row.
#[derive(Debug, Clone)]
struct Incidence {
    group: u32,
    row: u32,
    /// Distinct contributions, ascending.
    vals: Vec<i64>,
    /// `le[i]`: options contributing at most `vals[i]`; `ge[i]`: at least `vals[i]`
    /// (`words` u64 each, flattened).
    le: Vec<u64>,
    ge: Vec<u64>,
    /// Options contributing exactly `vals[i]`.
    eq: Vec<u64>,
}

#[derive(Debug, Clone)]
struct Row {
    lo: i64,
    hi: i64,
    /// Constant moved out of the left side (from negative literals).
    shift: i64,
    cmp: Cmp,
    rhs: i64,
    /// For a row built from a [`Constraint::SumOf`]: its parts (IR constraint indices). The
    /// parts' own right-hand sides bound the sum too, which is how the engine sees at once
    /// that vertex capacities and tile weights cannot add up to the same total.
    parts: Vec<usize>,
    incs: Vec<u32>,
    /// The largest spread (largest minus smallest contribution) of any incidence: while both
    /// slacks are at least this, no option of the row can be filtered, and the scan is
    /// skipped. Rows over thousands of groups (a tile type's count, the global sum) mostly
    /// have ample slack, and scanning them at every change was most of the search time on
    /// large bipyramids.
    max_spread: i64,
    /// The least and the most the row's contributions can add up to. The bounds are clamped
    /// to it: a one-sided row's open end is a finite stand-in (`i64::MAX / 4`), and a row
    /// that can reach past it (contributions near 2^62) would otherwise be cut there, and a
    /// satisfiable formula called unsat (tests/wide_rows.rs found `4·2^59 x + 2^59 ~x >=
    /// 2^59 + 1`). Clamped, every bound stays within the row's width.
    reach: (i64, i64),
}

/// Where a variable lives: its group and the option that makes it true. Variables of
/// singleton groups have option 1 = true, option 0 = false.
#[derive(Debug, Clone, Copy)]
struct Home {
    group: u32,
    option: u32,
}

/// Search state: everything that changes when domains shrink; changes are undone through the
/// trail ([`Trail`]).
#[derive(Debug, Clone, PartialEq)]
struct State {
    dom: Vec<u64>,
    inc_min: Vec<i64>,
    inc_max: Vec<i64>,
    row_min: Vec<i64>,
    row_max: Vec<i64>,
}

/// Old values, to undo changes of the [`State`] on backtracking: domain words (index into
/// `dom`, old word) and incidence bounds (incidence, old min, old max). The rows' bounds are
/// sums of their incidences' bounds and are restored with them.
#[derive(Debug, Default, Clone)]
struct Trail {
    dom: Vec<(u32, u64)>,
    inc: Vec<(u32, i64, i64)>,
}

/// A point on the trail to undo to.
#[derive(Debug, Clone, Copy)]
struct Mark {
    dom: usize,
    inc: usize,
}

/// Why [`Engine::within`] built no engine.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refused {
    /// The tables would take more than this many bytes (counted so far).
    Memory(u64),
    /// The deadline passed while they were being built.
    Time,
}

/// Counters of the last solve.
#[derive(Debug, Clone, Copy, Default)]
pub struct Counters {
    pub nodes: u64,
    pub failures: u64,
    pub restarts: u64,
}

/// Cloned for parallel enumeration: each worker walks its own copy (`split`).
#[derive(Debug, Clone)]
pub struct Engine {
    words: usize,
    /// Options per group.
    sizes: Vec<u32>,
    /// Variables of each group's options (`None` for a singleton group's "false" option).
    options: Vec<Vec<Option<u32>>>,
    /// Per group: its *dense* incidences, recomputed whenever its domain changes.
    group_incs: Vec<Vec<u32>>,
    /// Per group: where its options' lists start in `sparse_list` (`sizes[g] + 1` entries
    /// from `sparse_at[g]`). A *sparse* incidence is one where at most a quarter of the
    /// group's options contribute other than the most common value (a tile type's count
    /// row, where only that type's turns count): its bounds can change only when one of
    /// those options goes, or when only such options are left, so it is listed under each
    /// of them and recomputed only then.
    sparse_at: Vec<u32>,
    sparse_off: Vec<u32>,
    sparse_list: Vec<u32>,
    /// Options removed from each group since it was last processed (`words` per group).
    removed: Vec<u64>,
    /// Per incidence: the pass that last recomputed it (so a pass does each once).
    stamp: Vec<u32>,
    epoch: u32,
    incs: Vec<Incidence>,
    rows: Vec<Row>,
    /// Row of each IR constraint (`None` for constraints that became groups).
    row_of: Vec<Option<u32>>,
    home: Vec<Home>,
    num_vars: usize,
    /// Domains before any propagation (all options of every group).
    full: Vec<u64>,
    // Scratch, kept between solves to avoid allocation.
    /// The decisions of the current branch: where the trail stood before each, the group
    /// and its option.
    stack: Vec<(Mark, u32, u32)>,
    trail: Trail,
    mask: Vec<u64>,
    /// Scratch for the filtering masks of [`Engine::propagate`].
    filter_mask: Vec<u64>,
    /// `group_incs` and each row's `incs`, flattened (`*_at`: where each one's list
    /// starts, one more entry than groups or rows): what propagation walks.
    group_inc: Vec<u32>,
    group_inc_at: Vec<u32>,
    row_inc: Vec<u32>,
    row_inc_at: Vec<u32>,
    group_queue: Vec<u32>,
    group_queued: Vec<bool>,
    row_queue: Vec<u32>,
    row_queued: Vec<bool>,
    rng: u64,
    pub counters: Counters,
    /// When the search next looks at the clock (`pace.rs`).
    pace: pace::Pace,
    /// Randomise tie-breaking from the first decision (default: only after a restart), for
    /// callers that want a random solution, such as the puzzle generator.
    pub randomize_first: bool,
    /// Phase saving across solves: when set, every solution found is remembered, and the
    /// next solve tries each group's remembered option first while it is still possible.
    /// A sweep solves long runs of neighbouring instances (capacities that differ in a few
    /// vertices), whose solutions are mostly alike: on every canonical arrangement of one of
    /// Liu's 20-type sets this cut the mean nodes per instance from 73 to 27.
    pub reuse_phase: bool,
    /// Remembered option per group (`u32::MAX`: none).
    phase: Vec<u32>,
    /// Give up (answer [`Answer::GaveUp`]) after this many failures in one solve: how
    /// `--backend auto` hands an instance this learning-free search finds hard to a CDCL
    /// solver. Counted in failures, not time, so the hand-over does not depend on the
    /// machine's speed and the same instance is always answered by the same engine.
    pub max_failures: Option<u64>,
}

/// An index of the engine's tables as the `u32` they store. Every table has at most one entry
/// per variable (a `u32` in the IR), per option of a group, per constraint, per term of a row
/// or per word of the domain masks: 2^32 entries of any of them would take over 16 GiB in the
/// formula or in tables made before this conversion (`within` counts their bytes against its
/// limit as it makes them), so every index fits.
fn idx(i: usize) -> u32 {
    u32::try_from(i).expect("the engine's tables have fewer than 2^32 entries")
}

fn bit(words: &mut [u64], i: u32) {
    words[(i / 64) as usize] |= 1 << (i % 64);
}

/// Lists as one list and where each starts (one more entry than lists).
fn flatten<'a>(lists: impl IntoIterator<Item = &'a Vec<u32>>) -> (Vec<u32>, Vec<u32>) {
    let mut flat = Vec::new();
    let mut at = vec![0u32];
    for l in lists {
        flat.extend_from_slice(l);
        at.push(idx(flat.len()));
    }
    (flat, at)
}

/// A constraint as `terms cmp rhs`.
type LinearView = (Vec<(i64, Lit)>, Cmp, i64);

fn linear_terms(formula: &PbFormula, c: &Constraint) -> LinearView {
    let unit = |ls: &[Lit]| ls.iter().map(|&l| (1, l)).collect::<Vec<_>>();
    match c {
        Constraint::Clause(ls) => (unit(ls), Cmp::Ge, 1),
        Constraint::AtMostOne(ls) => (unit(ls), Cmp::Le, 1),
        Constraint::ExactlyOne(ls) => (unit(ls), Cmp::Eq, 1),
        Constraint::Linear(l) => (l.terms.clone(), l.cmp, l.rhs),
        Constraint::SumOf { parts, cmp, rhs } => {
            let l = formula.expand_sum_of(parts, *cmp, *rhs);
            (l.terms, l.cmp, l.rhs)
        }
    }
}

/// A bound of `bounds` moved by the row's shift, as (a lower bound, an upper bound): an open
/// end (the stand-ins below) becomes the row's reach, a real one is clamped to it.
fn shifted(bound: i64, shift: i64, reach: (i64, i64)) -> (i64, i64) {
    let lo = if bound <= OPEN_BELOW {
        reach.0
    } else {
        bound.saturating_sub(shift).max(reach.0)
    };
    let hi = if bound >= OPEN_ABOVE {
        reach.1
    } else {
        bound.saturating_sub(shift).min(reach.1)
    };
    (lo, hi)
}

/// Stand-ins for a one-sided row's open end, far from any real bound (rows are narrower
/// than 2^62); [`shifted`] replaces them by the row's reach.
const OPEN_BELOW: i64 = i64::MIN / 4;
const OPEN_ABOVE: i64 = i64::MAX / 4;

fn bounds(cmp: Cmp, rhs: i64) -> (i64, i64) {
    match cmp {
        Cmp::Le => (OPEN_BELOW, rhs),
        Cmp::Ge => (rhs, OPEN_ABOVE),
        Cmp::Eq => (rhs, rhs),
    }
}

impl Engine {
    /// The engine of `formula`, with no limit on its tables (for tests: solves build theirs
    /// [`Engine::within`] a limit).
    #[cfg(feature = "testing")]
    pub fn new(formula: &PbFormula) -> Engine {
        match Engine::within(formula, u64::MAX, &Deadline::default()) {
            Ok(e) => e,
            Err(_) => unreachable!("no deadline, and no engine needs more than u64::MAX bytes"),
        }
    }

    /// Builds the engine unless its tables would take more than `max_bytes` or the deadline
    /// passes first. The tables are counted as they are made, so a hopeless model is refused
    /// before most of it is allocated (their option masks are dense: a row over groups of
    /// a thousand options takes kilobytes per group).
    pub fn within(formula: &PbFormula, max_bytes: u64, deadline: &Deadline) -> Result<Engine, Refused> {
        let n = formula.num_vars() as usize;
        let mut home: Vec<Option<Home>> = vec![None; n];
        let mut options: Vec<Vec<Option<u32>>> = Vec::new();
        let mut row_of = vec![None; formula.constraints().len()];
        let mut as_group = vec![false; formula.constraints().len()];
        // Exactly-one constraints over positive literals of still ungrouped, distinct
        // variables become groups; the rest stay rows.
        // Marks the variables of the group being looked at (a variable twice in one group
        // is not a group); cleared after each.
        let mut seen = vec![false; n];
        for (ci, (_, c)) in formula.constraints().iter().enumerate() {
            if let Constraint::ExactlyOne(ls) = c {
                let mut ok = !ls.is_empty();
                for l in ls {
                    let v = l.var().index();
                    if !ok || !l.is_positive() || home[v].is_some() || seen[v] {
                        ok = false;
                        break;
                    }
                    seen[v] = true;
                }
                for l in ls {
                    seen[l.var().index()] = false;
                }
                if ok {
                    let g = idx(options.len());
                    for (k, l) in ls.iter().enumerate() {
                        home[l.var().index()] = Some(Home {
                            group: g,
                            option: idx(k),
                        });
                    }
                    options.push(ls.iter().map(|l| Some(l.var().0)).collect());
                    as_group[ci] = true;
                }
            }
        }
        for (v, h) in home.iter_mut().enumerate() {
            if h.is_none() {
                let g = idx(options.len());
                *h = Some(Home { group: g, option: 1 });
                options.push(vec![None, Some(idx(v))]);
            }
        }
        let home: Vec<Home> = home
            .into_iter()
            .map(|h| h.expect("every variable has a group"))
            .collect();
        let max_opts = options.iter().map(Vec::len).max().unwrap_or(1);
        let words = max_opts.div_ceil(64).max(1);
        let sizes: Vec<u32> = options.iter().map(|o| idx(o.len())).collect();
        let mut full = vec![0u64; options.len() * words];
        for (g, &s) in sizes.iter().enumerate() {
            for o in 0..s {
                bit(&mut full[g * words..(g + 1) * words], o);
            }
        }
        let mut rows = Vec::new();
        let mut incs: Vec<Incidence> = Vec::new();
        // Bytes of the tables so far: domains (in the state, the full copy and the trail) and
        // a variable's home, then the incidences as they come.
        let mut bytes: u64 = (full.len() as u64 * 8 * 3).saturating_add(n as u64 * 16);
        let mut group_incs: Vec<Vec<u32>> = vec![Vec::new(); options.len()];
        let mut slot = vec![u32::MAX; options.len()];
        let mut sparse_pairs: Vec<(u32, Vec<u32>, u32)> = Vec::new();
        for (ci, (_, c)) in formula.constraints().iter().enumerate() {
            if as_group[ci] {
                continue;
            }
            if deadline.passed() {
                return Err(Refused::Time);
            }
            let (terms, cmp, rhs) = linear_terms(formula, c);
            let r = idx(rows.len());
            // Per group: the contribution of each option, in increasing group order. `slot`
            // (kept across rows, reset after each) finds a group's entry without a map: this
            // loop is most of building the engine, which every default solve does.
            let mut per_group: Vec<(u32, Vec<i64>)> = Vec::new();
            let mut shift = 0i64;
            for &(coef, l) in &terms {
                let h = home[l.var().index()];
                let at = &mut slot[h.group as usize];
                if *at == u32::MAX {
                    *at = idx(per_group.len());
                    per_group.push((h.group, vec![0; sizes[h.group as usize] as usize]));
                }
                let contrib = &mut per_group[*at as usize].1;
                if l.is_positive() {
                    contrib[h.option as usize] += coef;
                } else {
                    // coef * (1 - x): a constant plus -coef on the option that makes x true.
                    shift += coef;
                    contrib[h.option as usize] -= coef;
                }
            }
            for (g, _) in &per_group {
                slot[*g as usize] = u32::MAX;
            }
            per_group.sort_unstable_by_key(|(g, _)| *g);
            let reach = per_group.iter().fold((0i64, 0i64), |(lo, hi), (_, contrib)| {
                let least = contrib.iter().copied().min().unwrap_or(0);
                let most = contrib.iter().copied().max().unwrap_or(0);
                (lo.saturating_add(least), hi.saturating_add(most))
            });
            let mut row_incs = Vec::new();
            for (g, contrib) in per_group {
                let mut vals: Vec<i64> = contrib.clone();
                vals.sort_unstable();
                vals.dedup();
                let k = vals.len();
                let mut eq = vec![0u64; k * words];
                for (o, &c) in contrib.iter().enumerate() {
                    let i = vals.binary_search(&c).expect("value listed");
                    bit(&mut eq[i * words..(i + 1) * words], idx(o));
                }
                let mut le = eq.clone();
                for i in 1..k {
                    for w in 0..words {
                        le[i * words + w] |= le[(i - 1) * words + w];
                    }
                }
                let mut ge = eq.clone();
                for i in (0..k.saturating_sub(1)).rev() {
                    for w in 0..words {
                        ge[i * words + w] |= ge[(i + 1) * words + w];
                    }
                }
                // The masks, the values, and this incidence's bounds in the search state (twice:
                // the state and, at worst, the trail).
                bytes = bytes.saturating_add(((3 * k * words + k) * 8 + 64) as u64);
                if bytes > max_bytes {
                    return Err(Refused::Memory(bytes));
                }
                // One row can span thousands of groups (a global sum).
                if incs.len() % 256 == 255 && deadline.passed() {
                    return Err(Refused::Time);
                }
                let id = idx(incs.len());
                // The most common contribution, and the options that differ from it.
                let mode = vals
                    .iter()
                    .copied()
                    .max_by_key(|v| (contrib.iter().filter(|&&c| c == *v).count(), std::cmp::Reverse(*v)))
                    .unwrap_or(0);
                let others: Vec<u32> = (0..idx(contrib.len()))
                    .filter(|&o| contrib[o as usize] != mode)
                    .collect();
                if others.len() * 4 <= contrib.len() {
                    bytes = bytes.saturating_add(others.len() as u64 * 8);
                    sparse_pairs.push((g, others, id));
                } else {
                    group_incs[g as usize].push(id);
                }
                incs.push(Incidence {
                    group: g,
                    row: r,
                    vals,
                    le,
                    ge,
                    eq,
                });
                row_incs.push(id);
            }
            let (lo, hi) = bounds(cmp, rhs);
            let parts = match c {
                Constraint::SumOf { parts, .. } => parts.clone(),
                _ => Vec::new(),
            };
            let max_spread = row_incs
                .iter()
                .map(|&i| {
                    let v = &incs[i as usize].vals;
                    v[v.len() - 1] - v[0]
                })
                .max()
                .unwrap_or(0);
            rows.push(Row {
                max_spread,
                reach,
                lo: shifted(lo, shift, reach).0,
                hi: shifted(hi, shift, reach).1,
                shift,
                cmp,
                rhs,
                parts,
                incs: row_incs,
            });
            row_of[ci] = Some(r);
        }
        // Sum-of rows whose parts are sum-of rows are not produced by any front-end; their
        // parts are plain rows.
        for row in rows.iter().filter(|r| !r.parts.is_empty()) {
            debug_assert!(row.parts.iter().all(|&p| row_of[p].is_some()));
        }
        let g = options.len();
        let nr = rows.len();
        // Per option, the sparse incidences it differs in (counting sort by option).
        let mut sparse_at = Vec::with_capacity(g);
        let mut total = 0u32;
        for &size in &sizes {
            sparse_at.push(total);
            total += size + 1;
        }
        let mut sparse_off = vec![0u32; total as usize + 1];
        for (gr, others, _) in &sparse_pairs {
            for &o in others {
                sparse_off[(sparse_at[*gr as usize] + o) as usize + 1] += 1;
            }
        }
        for k in 1..sparse_off.len() {
            sparse_off[k] += sparse_off[k - 1];
        }
        let mut fill = sparse_off.clone();
        let mut sparse_list = vec![0u32; *sparse_off.last().unwrap_or(&0) as usize];
        for (gr, others, id) in &sparse_pairs {
            for &o in others {
                let slot = &mut fill[(sparse_at[*gr as usize] + o) as usize];
                sparse_list[*slot as usize] = *id;
                *slot += 1;
            }
        }
        let ni = incs.len();
        let mut e = Engine {
            sparse_at,
            sparse_off,
            sparse_list,
            removed: vec![0; g * words],
            stamp: vec![0; ni],
            epoch: 0,
            words,
            sizes,
            options,
            group_incs,
            incs,
            rows,
            row_of,
            home,
            num_vars: n,
            full,
            stack: Vec::new(),
            trail: Trail::default(),
            mask: vec![0; words],
            filter_mask: vec![0; words],
            group_inc: Vec::new(),
            group_inc_at: Vec::new(),
            row_inc: Vec::new(),
            row_inc_at: Vec::new(),
            group_queue: Vec::new(),
            group_queued: vec![false; g],
            row_queue: Vec::new(),
            row_queued: vec![false; nr],
            rng: 0x9e37_79b9_7f4a_7c15,
            counters: Counters::default(),
            pace: pace::Pace::default(),
            randomize_first: false,
            reuse_phase: false,
            phase: vec![u32::MAX; g],
            max_failures: None,
        };
        (e.group_inc, e.group_inc_at) = flatten(&e.group_incs);
        let row_incs: Vec<&Vec<u32>> = e.rows.iter().map(|r| &r.incs).collect();
        (e.row_inc, e.row_inc_at) = flatten(row_incs);
        e.refresh_sum_rows();
        Ok(e)
    }

    /// Bounds of sum-of rows: their own comparison, intersected with what the parts' current
    /// right-hand sides imply for the sum.
    fn refresh_sum_rows(&mut self) {
        for r in 0..self.rows.len() {
            if self.rows[r].parts.is_empty() {
                continue;
            }
            let (mut lo, mut hi) = bounds(self.rows[r].cmp, self.rows[r].rhs);
            let (mut plo, mut phi) = (0i64, 0i64);
            let (mut lo_known, mut hi_known) = (true, true);
            for &p in &self.rows[r].parts {
                let pr = &self.rows[self.row_of[p].expect("parts are rows") as usize];
                let (a, b) = bounds(pr.cmp, pr.rhs);
                lo_known &= pr.cmp != Cmp::Le;
                hi_known &= pr.cmp != Cmp::Ge;
                plo = plo.saturating_add(a);
                phi = phi.saturating_add(b);
            }
            if lo_known {
                lo = lo.max(plo);
            }
            if hi_known {
                hi = hi.min(phi);
            }
            let row = &mut self.rows[r];
            row.lo = shifted(lo, row.shift, row.reach).0;
            row.hi = shifted(hi, row.shift, row.reach).1;
        }
    }

    /// Changes the right-hand side of a linear IR constraint (same comparison), so one engine
    /// serves a family of instances that differ only there. Returns false if constraint `ci`
    /// is not a row of this engine.
    pub fn set_rhs(&mut self, ci: usize, rhs: i64) -> bool {
        let Some(Some(r)) = self.row_of.get(ci) else {
            return false;
        };
        let row = &mut self.rows[*r as usize];
        let (lo, hi) = bounds(row.cmp, rhs);
        row.rhs = rhs;
        row.lo = shifted(lo, row.shift, row.reach).0;
        row.hi = shifted(hi, row.shift, row.reach).1;
        self.refresh_sum_rows();
        true
    }

    fn dom<'a>(&self, s: &'a State, g: u32) -> &'a [u64] {
        &s.dom[g as usize * self.words..(g as usize + 1) * self.words]
    }

    fn popcount(&self, s: &State, g: u32) -> u32 {
        self.dom(s, g).iter().map(|w| w.count_ones()).sum()
    }

    fn intersects(a: &[u64], b: &[u64]) -> bool {
        a.iter().zip(b).any(|(x, y)| x & y != 0)
    }

    /// Smallest and largest contribution of incidence `i` under the current domain.
    #[inline]
    fn extremes(&self, s: &State, i: usize) -> (i64, i64) {
        let inc = &self.incs[i];
        if self.words == 1 {
            // One word per domain (groups of at most 64 options): plain word tests.
            let d = s.dom[inc.group as usize];
            let lo = inc.eq.iter().position(|&m| m & d != 0);
            let hi = inc.eq.iter().rposition(|&m| m & d != 0);
            return match (lo, hi) {
                (Some(a), Some(b)) => (inc.vals[a], inc.vals[b]),
                _ => (0, 0),
            };
        }
        let d = self.dom(s, inc.group);
        let w = self.words;
        let k = inc.vals.len();
        let lo = (0..k).find(|&j| Self::intersects(d, &inc.eq[j * w..(j + 1) * w]));
        let hi = (0..k).rev().find(|&j| Self::intersects(d, &inc.eq[j * w..(j + 1) * w]));
        match (lo, hi) {
            (Some(a), Some(b)) => (inc.vals[a], inc.vals[b]),
            _ => (0, 0), // empty domain: a conflict is reported elsewhere
        }
    }

    fn initial_state(&self) -> State {
        let mut s = State {
            dom: self.full.clone(),
            inc_min: vec![0; self.incs.len()],
            inc_max: vec![0; self.incs.len()],
            row_min: vec![0; self.rows.len()],
            row_max: vec![0; self.rows.len()],
        };
        for i in 0..self.incs.len() {
            let (a, b) = self.extremes(&s, i);
            s.inc_min[i] = a;
            s.inc_max[i] = b;
            let r = self.incs[i].row as usize;
            s.row_min[r] += a;
            s.row_max[r] += b;
        }
        s
    }

    fn enqueue_group(&mut self, g: u32) {
        if !self.group_queued[g as usize] {
            self.group_queued[g as usize] = true;
            self.group_queue.push(g);
        }
    }

    fn clear_queues(&mut self) {
        let w = self.words;
        for g in self.group_queue.drain(..) {
            self.group_queued[g as usize] = false;
            self.removed[g as usize * w..(g as usize + 1) * w].fill(0);
        }
        for r in self.row_queue.drain(..) {
            self.row_queued[r as usize] = false;
        }
    }

    /// Intersects group `g`'s domain with `mask`; false if it becomes empty.
    fn restrict(&mut self, s: &mut State, g: u32, mask: &[u64]) -> bool {
        let w = self.words;
        let first = g as usize * w;
        let d = &mut s.dom[first..first + w];
        let mut changed = false;
        let mut any = false;
        for (k, (x, m)) in d.iter_mut().zip(mask).enumerate() {
            let n = *x & m;
            if n != *x {
                changed = true;
                self.trail.dom.push((idx(first + k), *x));
                self.removed[first + k] |= *x & !m;
            }
            any |= n != 0;
            *x = n;
        }
        if changed {
            self.enqueue_group(g);
        }
        any
    }

    /// Intersects group `g`'s one-word domain with `m` (`words == 1`); false if it becomes
    /// empty. [`Engine::restrict`] without the loop.
    #[inline]
    fn restrict1(&mut self, s: &mut State, g: u32, m: u64) -> bool {
        let gi = g as usize;
        let x = s.dom[gi];
        let n = x & m;
        if n != x {
            self.trail.dom.push((g, x));
            self.removed[gi] |= x & !m;
            s.dom[gi] = n;
            self.enqueue_group(g);
        }
        n != 0
    }

    /// Runs propagation to a fixpoint; false on a conflict.
    fn propagate(&mut self, s: &mut State) -> bool {
        let w = self.words;
        let mut mask = std::mem::take(&mut self.filter_mask);
        let ok = loop {
            if let Some(g) = self.group_queue.pop() {
                self.group_queued[g as usize] = false;
                let (a, b) = (self.group_inc_at[g as usize], self.group_inc_at[g as usize + 1]);
                for k in a..b {
                    let i = self.group_inc[k as usize] as usize;
                    self.update_incidence(s, i);
                }
                self.update_sparse(s, g);
                continue;
            }
            let Some(r) = self.row_queue.pop() else {
                break true;
            };
            let r = r as usize;
            self.row_queued[r] = false;
            let (lo, hi) = (self.rows[r].lo, self.rows[r].hi);
            let (rmin, rmax) = (s.row_min[r], s.row_max[r]);
            if rmin > hi || rmax < lo || lo > hi {
                break false;
            }
            let slack_hi = hi - rmin;
            let slack_lo = rmax - lo;
            if self.rows[r].max_spread <= slack_hi.min(slack_lo) {
                continue;
            }
            let (a, b) = (self.row_inc_at[r], self.row_inc_at[r + 1]);
            let mut failed = false;
            for k in a..b {
                let i = self.row_inc[k as usize] as usize;
                let (cmin, cmax) = (s.inc_min[i], s.inc_max[i]);
                let spread = cmax - cmin;
                if spread <= slack_hi && spread <= slack_lo {
                    continue;
                }
                // Allowed contributions: v <= cmin + slack_hi and v >= cmax - slack_lo.
                let inc = &self.incs[i];
                let top = cmin + slack_hi;
                let bottom = cmax - slack_lo;
                let ti = inc.vals.partition_point(|&v| v <= top);
                let bi = inc.vals.partition_point(|&v| v < bottom);
                if ti == 0 || bi >= inc.vals.len() || bi >= ti {
                    failed = true;
                    break;
                }
                let g = inc.group;
                let ok = if w == 1 {
                    let m = inc.le[ti - 1] & inc.ge[bi];
                    self.restrict1(s, g, m)
                } else {
                    for (x, (a, b)) in mask
                        .iter_mut()
                        .zip(inc.le[(ti - 1) * w..ti * w].iter().zip(&inc.ge[bi * w..(bi + 1) * w]))
                    {
                        *x = a & b;
                    }
                    self.restrict(s, g, &mask)
                };
                if !ok {
                    failed = true;
                    break;
                }
            }
            if failed {
                break false;
            }
        };
        if !ok {
            self.clear_queues();
        }
        self.filter_mask = mask;
        ok
    }

    /// Recomputes incidence `i`'s bounds from its group's domain; queues its row if they
    /// changed.
    #[inline]
    fn update_incidence(&mut self, s: &mut State, i: usize) {
        // A group's domain only shrinks until the next undo, and a nonempty subset of
        // options that all contribute one value contributes that value: an incidence whose
        // bounds have met cannot change (an empty domain is a conflict, caught by
        // `restrict`, and never propagated).
        if s.inc_min[i] == s.inc_max[i] {
            return;
        }
        let (a, b) = self.extremes(s, i);
        let r = self.incs[i].row as usize;
        if a != s.inc_min[i] || b != s.inc_max[i] {
            self.trail.inc.push((idx(i), s.inc_min[i], s.inc_max[i]));
            s.row_min[r] += a - s.inc_min[i];
            s.row_max[r] += b - s.inc_max[i];
            s.inc_min[i] = a;
            s.inc_max[i] = b;
            if !self.row_queued[r] {
                self.row_queued[r] = true;
                self.row_queue.push(idx(r));
            }
        }
    }

    /// The sparse incidences of group `g` whose bounds may have changed: those listed
    /// under an option removed since `g` was last processed, and those of one option left
    /// (they are the ones where every option left may differ from the common value).
    fn update_sparse(&mut self, s: &mut State, g: u32) {
        let w = self.words;
        let base = self.sparse_at[g as usize];
        let first = g as usize * w;
        self.epoch = self.epoch.wrapping_add(1);
        if self.epoch == 0 {
            self.stamp.fill(0);
            self.epoch = 1;
        }
        let left = s.dom[first..first + w]
            .iter()
            .enumerate()
            .find(|(_, x)| **x != 0)
            .map(|(k, x)| idx(k) * 64 + x.trailing_zeros());
        for k in 0..w {
            let mut x = std::mem::take(&mut self.removed[first + k]);
            let next = |o: Option<u32>, this: &mut Engine, s: &mut State| {
                let Some(o) = o else { return };
                let at = (base + o) as usize;
                for j in this.sparse_off[at]..this.sparse_off[at + 1] {
                    let i = this.sparse_list[j as usize] as usize;
                    if this.stamp[i] != this.epoch {
                        this.stamp[i] = this.epoch;
                        this.update_incidence(s, i);
                    }
                }
            };
            while x != 0 {
                let o = idx(k) * 64 + x.trailing_zeros();
                x &= x - 1;
                next(Some(o), self, s);
            }
            if k == 0 {
                next(left, self, s);
            }
        }
    }

    fn mark(&self) -> Mark {
        Mark {
            dom: self.trail.dom.len(),
            inc: self.trail.inc.len(),
        }
    }

    /// Undoes every change recorded after `m`, newest first.
    fn undo(&mut self, s: &mut State, m: Mark) {
        for (i, lo, hi) in self.trail.inc.drain(m.inc..).rev() {
            let i = i as usize;
            let r = self.incs[i].row as usize;
            s.row_min[r] += lo - s.inc_min[i];
            s.row_max[r] += hi - s.inc_max[i];
            s.inc_min[i] = lo;
            s.inc_max[i] = hi;
        }
        for (k, old) in self.trail.dom.drain(m.dom..).rev() {
            s.dom[k as usize] = old;
        }
    }

    /// Restricts group `g` to `mask` and propagates; false on a conflict.
    fn decide(&mut self, s: &mut State, g: u32, mask: &[u64]) -> bool {
        if !self.restrict(s, g, mask) {
            self.clear_queues();
            return false;
        }
        self.propagate(s)
    }

    fn next_random(&mut self) -> u64 {
        // xorshift64*
        let mut x = self.rng;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.rng = x;
        x.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    /// The open group with the fewest options (ties: lowest index on the first run, random
    /// after a restart), or None when every group is down to one option.
    fn choose_group(&mut self, s: &State, randomize: bool) -> Option<u32> {
        let mut best: Option<(u32, u32)> = None;
        let mut ties = 0u64;
        for g in 0..idx(self.sizes.len()) {
            let c = self.popcount(s, g);
            if c <= 1 {
                continue;
            }
            match best {
                Some((bc, _)) if c > bc => {}
                Some((bc, _)) if c == bc => {
                    if randomize {
                        ties += 1;
                        if self.next_random().is_multiple_of(ties + 1) {
                            best = Some((c, g));
                        }
                    }
                }
                _ => {
                    best = Some((c, g));
                    ties = 0;
                }
            }
        }
        best.map(|(_, g)| g)
    }

    fn choose_option(&mut self, s: &State, g: u32, randomize: bool) -> u32 {
        let p = self.phase[g as usize];
        if self.reuse_phase && p != u32::MAX && self.dom(s, g)[(p / 64) as usize] & (1u64 << (p % 64)) != 0 {
            // After a restart the remembered option is taken three times in four: always
            // taking it gave a long tail (one instance in 20,000 needed 70,000 nodes).
            if !randomize || !self.next_random().is_multiple_of(4) {
                return p;
            }
        }
        let d = self.dom(s, g);
        let count: u32 = d.iter().map(|w| w.count_ones()).sum();
        let mut pick = if randomize {
            u32::try_from(self.next_random() % u64::from(count)).expect("below count, a u32")
        } else {
            0
        };
        for (wi, &word) in d.iter().enumerate() {
            let c = word.count_ones();
            if pick < c {
                let mut x = word;
                for _ in 0..pick {
                    x &= x - 1;
                }
                return idx(wi) * 64 + x.trailing_zeros();
            }
            pick -= c;
        }
        unreachable!("choose_option on an empty domain")
    }

    /// Restricts the root by assumptions (literals that must be true).
    fn assume(&mut self, s: &mut State, assumptions: &[Lit]) -> bool {
        let w = self.words;
        for &l in assumptions {
            let Some(h) = self.home.get(l.var().index()).copied() else {
                continue;
            };
            let mut mask = vec![0u64; w];
            if l.is_positive() {
                bit(&mut mask, h.option);
            } else {
                mask.copy_from_slice(&self.full[h.group as usize * w..(h.group as usize + 1) * w]);
                mask[(h.option / 64) as usize] &= !(1u64 << (h.option % 64));
            }
            if !self.restrict(s, h.group, &mask) {
                self.clear_queues();
                return false;
            }
        }
        true
    }

    /// A fresh start for a solve or a walk: counters and trails cleared, the seed set, the
    /// assumptions made and every row propagated. `None` when that already fails. The root
    /// stays on no trail: runs undo back to it.
    fn root(&mut self, assumptions: &[Lit], seed: u64) -> Option<State> {
        self.counters = Counters::default();
        self.rng = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
        self.trail.dom.clear();
        self.trail.inc.clear();
        self.stack.clear();
        let mut s = self.initial_state();
        for r in 0..idx(self.rows.len()) {
            self.row_queued[r as usize] = true;
            self.row_queue.push(r);
        }
        if !self.assume(&mut s, assumptions) || !self.propagate(&mut s) {
            return None;
        }
        self.trail.dom.clear();
        self.trail.inc.clear();
        Some(s)
    }

    /// Solves from scratch (the engine keeps only its structure and right-hand sides between
    /// calls). `seed` drives tie-breaking after restarts, so equal seeds give equal answers.
    pub fn solve(&mut self, assumptions: &[Lit], seed: u64, deadline: &Deadline) -> (Answer, Option<Vec<bool>>) {
        let Some(mut s) = self.root(assumptions, seed) else {
            return (Answer::Unsat, None);
        };
        // Short runs, growing slowly: measured on every 200th IcoSoKu orbit (19,959 instances,
        // 2 threads), 16 failures growing by 10% gave 7,300 instances/s with a max of 8.5 ms;
        // 64 growing by 50% gave 5,700/s (max 29 ms); no restarts 1,400/s (max 404 ms).
        let mut limit: u64 = RESTART_FIRST;
        let mut run = 0u64;
        loop {
            // A run stops at the failure budget at the latest (it may overshoot by one).
            let run_limit = match self.max_failures {
                Some(m) => limit.min(m.saturating_sub(self.counters.failures)),
                None => limit,
            };
            match self.search(&mut s, run_limit, run > 0 || self.randomize_first, deadline) {
                Some(Answer::Sat) => {
                    let options = self.options_of(&s);
                    let a = self.assignment_of(&options);
                    if self.reuse_phase {
                        self.phase = options;
                    }
                    return (Answer::Sat, Some(a));
                }
                Some(other) => return (other, None),
                None => {
                    if self.max_failures.is_some_and(|m| self.counters.failures >= m) {
                        return (Answer::GaveUp, None);
                    }
                    // Failure limit reached: restart with a larger limit.
                    run += 1;
                    self.counters.restarts += 1;
                    limit = (limit * RESTART_GROWTH_PERCENT / 100).max(limit + 1);
                }
            }
        }
    }

    /// One depth-first run from the root state `s`. `None`: the failure limit was reached,
    /// and `s` is the root again; otherwise `s` is the solution (for `Sat`) or undefined.
    fn search(&mut self, s: &mut State, limit: u64, randomize: bool, deadline: &Deadline) -> Option<Answer> {
        let root = self.mark();
        self.stack.clear();
        let mut failures_here = 0u64;
        loop {
            let Some(g) = self.choose_group(s, randomize) else {
                return Some(Answer::Sat);
            };
            let o = self.choose_option(s, g, randomize);
            self.counters.nodes += 1;
            // A long descent without failures (thousands of groups) also looks at the clock.
            if self.pace.due() && deadline.passed() {
                return Some(Answer::Unknown);
            }
            self.stack.push((self.mark(), g, o));
            let mut mask = std::mem::take(&mut self.mask);
            mask.fill(0);
            bit(&mut mask, o);
            let mut ok = self.decide(s, g, &mask);
            while !ok {
                self.counters.failures += 1;
                failures_here += 1;
                if self.pace.due() && deadline.passed() {
                    self.mask = mask;
                    return Some(Answer::Unknown);
                }
                // Undo the latest decision and take its other branch: "not o".
                let Some((m, g, o)) = self.stack.pop() else {
                    self.mask = mask;
                    return Some(Answer::Unsat);
                };
                if failures_here > limit {
                    self.undo(s, root);
                    self.mask = mask;
                    return None;
                }
                self.undo(s, m);
                let w = self.words;
                mask.copy_from_slice(&self.full[g as usize * w..(g as usize + 1) * w]);
                mask[(o / 64) as usize] &= !(1u64 << (o % 64));
                ok = self.decide(s, g, &mask);
            }
            self.mask = mask;
        }
    }

    /// Forgets the remembered solution (see [`Engine::reuse_phase`]).
    pub fn clear_phase(&mut self) {
        self.phase.fill(u32::MAX);
    }

    /// The option each group holds in a solution state.
    fn options_of(&self, s: &State) -> Vec<u32> {
        (0..idx(self.sizes.len()))
            .map(|g| {
                self.dom(s, g)
                    .iter()
                    .enumerate()
                    .find(|(_, w)| **w != 0)
                    .map(|(i, w)| idx(i) * 64 + w.trailing_zeros())
                    .expect("every group has one option left")
            })
            .collect()
    }

    fn assignment_of(&self, options: &[u32]) -> Vec<bool> {
        let mut a = vec![false; self.num_vars];
        for (g, &o) in options.iter().enumerate() {
            if let Some(v) = self.options[g][o as usize] {
                a[v as usize] = true;
            }
        }
        a
    }
}
