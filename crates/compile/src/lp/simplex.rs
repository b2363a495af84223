//! A small bounded-variable primal simplex: phase 1 only, in `f64`.
//!
//! The question is only whether `rows (≤, ≥, =) rhs` has a solution with every variable in
//! `[0, 1]`, and if not, the dual multipliers that say why. Phase 1 answers both: each row
//! gets a slack (`≤`: `+s`, `≥`: `−s`, `s ≥ 0`), and a row that the start point (every
//! variable at 0) violates gets an artificial variable of cost 1; minimising the artificials'
//! sum ends at 0 exactly when the relaxation is feasible. Otherwise the final basis's duals
//! `y = c_B B⁻¹` are Farkas multipliers (see `farkas.rs` for why, and for the exact check:
//! nothing computed here is trusted as it is).
//!
//! Variables in `[0, 1]` stay out of the basis at either bound (a "bound flip" moves one
//! from 0 to 1 without a pivot), so the basis has one column per row and the models this is
//! for (tens to a few hundred rows, thousands of columns) keep an explicit dense inverse,
//! updated at each pivot and recomputed from scratch every so often to shed rounding error.
//! Partial Dantzig pricing, a Harris ratio test, and Bland's rule after a run of degenerate pivots
//! (so that it cannot cycle); past the iteration budget or when `stop` says so it gives up.

use crate::ir::Cmp;

/// An LP over structural variables in `[0, 1]`.
#[derive(Debug)]
pub struct Problem<'a> {
    pub rows: usize,
    /// Each structural column: its nonzero entries, `(row, coefficient)`.
    pub columns: &'a [Vec<(u32, f64)>],
    pub cmp: &'a [Cmp],
    pub rhs: &'a [f64],
}

/// When to give up.
pub struct Budget<'a> {
    /// Larger problems are not tried: the inverse is dense (`rows²` numbers).
    pub max_rows: usize,
    pub max_iterations: usize,
    /// Asked every few iterations; `true` stops the search (the run's deadline).
    pub stop: &'a dyn Fn() -> bool,
}

// By hand: the stop question is a closure, which has nothing to show.
impl std::fmt::Debug for Budget<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Budget")
            .field("max_rows", &self.max_rows)
            .field("max_iterations", &self.max_iterations)
            .finish_non_exhaustive()
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GaveUp {
    TooLarge,
    Iterations,
    Stopped,
    /// A singular basis or an unbounded ray: rounding error, not an answer.
    Numerics,
}

#[derive(Debug, Clone, PartialEq)]
pub enum Phase1 {
    Feasible,
    /// The least total violation is positive; `y` has one multiplier per row.
    Infeasible {
        y: Vec<f64>,
        violation: f64,
    },
    GaveUp(GaveUp),
}

#[derive(Debug, Clone, Copy, Default)]
pub struct Stats {
    pub iterations: usize,
    pub flips: usize,
}

/// Reduced costs below this are taken as zero.
const OPT_TOL: f64 = 1e-9;
/// Bound violations below this are taken as none (Harris's tolerance, too).
const FEAS_TOL: f64 = 1e-9;
/// Smaller pivots are refused.
const PIVOT_TOL: f64 = 1e-9;
/// Degenerate pivots in a row before Bland's rule takes over.
const DEGENERATE_RUN: usize = 50;
/// How often the inverse is recomputed: this many pivots, or the number of rows if larger,
/// so that the `rows³` recomputation costs no more than the pivots it follows.
const REFACTOR: usize = 200;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum State {
    Basic,
    Lower,
    Upper,
}

struct Simplex {
    m: usize,
    /// Every column (structurals, slacks, artificials) in compressed form.
    start: Vec<usize>,
    rows: Vec<u32>,
    coefs: Vec<f64>,
    cost: Vec<f64>,
    lo: Vec<f64>,
    hi: Vec<f64>,
    value: Vec<f64>,
    state: Vec<State>,
    /// The basic column of each row position.
    head: Vec<usize>,
    /// The basis inverse, row-major.
    binv: Vec<f64>,
    rhs: Vec<f64>,
    /// Where the next pricing scan starts.
    cursor: usize,
    /// The artificial columns (the only ones with a cost).
    artificials: Vec<usize>,
}

impl Simplex {
    /// Column `j`'s nonzero entries, `(row, coefficient)`.
    fn column(&self, j: usize) -> impl Iterator<Item = (u32, f64)> + '_ {
        let r = self.start[j]..self.start[j + 1];
        self.rows[r.clone()].iter().copied().zip(self.coefs[r].iter().copied())
    }

    fn push_column(&mut self, entries: &[(u32, f64)], cost: f64, lo: f64, hi: f64, state: State, value: f64) -> usize {
        self.rows.extend(entries.iter().map(|e| e.0));
        self.coefs.extend(entries.iter().map(|e| e.1));
        self.start.push(self.rows.len());
        self.cost.push(cost);
        self.lo.push(lo);
        self.hi.push(hi);
        self.state.push(state);
        self.value.push(value);
        self.cost.len() - 1
    }

    /// The start: structurals at 0, and in each row its slack if that alone satisfies the
    /// row, else an artificial. (A greedy start with some structurals at 1 was tried: it
    /// placed most 3SoKu tiles and then needed more pivots, 246 against 148 on icosoku100.)
    fn new(p: &Problem) -> Simplex {
        let m = p.rows;
        let mut s = Simplex {
            m,
            start: vec![0],
            rows: Vec::new(),
            coefs: Vec::new(),
            cost: Vec::new(),
            lo: Vec::new(),
            hi: Vec::new(),
            value: Vec::new(),
            state: Vec::new(),
            head: vec![usize::MAX; m],
            binv: vec![0.0; m * m],
            rhs: p.rhs.to_vec(),
            cursor: 0,
            artificials: Vec::new(),
        };
        for col in p.columns {
            s.push_column(col, 0.0, 0.0, 1.0, State::Lower, 0.0);
        }
        for i in 0..m {
            let r = p.rhs[i];
            let sign = match p.cmp[i] {
                Cmp::Le => Some(1.0),
                Cmp::Ge => Some(-1.0),
                Cmp::Eq => None,
            };
            let mut basic = None;
            if let Some(sg) = sign {
                // sg · s = r with s ≥ 0.
                let ok = sg * r >= 0.0;
                let (state, value) = if ok {
                    (State::Basic, sg * r)
                } else {
                    (State::Lower, 0.0)
                };
                let j = s.push_column(&[(i as u32, sg)], 0.0, 0.0, f64::INFINITY, state, value);
                if ok {
                    basic = Some((j, sg));
                }
            }
            if basic.is_none() {
                let tau = if r >= 0.0 { 1.0 } else { -1.0 };
                let j = s.push_column(&[(i as u32, tau)], 1.0, 0.0, f64::INFINITY, State::Basic, tau * r);
                s.artificials.push(j);
                basic = Some((j, tau));
            }
            let (j, coef) = basic.expect("a basic column per row");
            s.head[i] = j;
            s.binv[i * m + i] = 1.0 / coef;
        }
        s
    }

    /// Recomputes the inverse from the basic columns (Gauss-Jordan, partial pivoting) and
    /// the basic values from the nonbasic ones. `false` if the basis is singular.
    fn refactor(&mut self) -> bool {
        let m = self.m;
        // [B | I], row-major, 2m wide.
        let w = 2 * m;
        let mut a = vec![0.0; m * w];
        for (k, &j) in self.head.iter().enumerate() {
            for (i, v) in self.column(j) {
                a[i as usize * w + k] = v;
            }
        }
        for i in 0..m {
            a[i * w + m + i] = 1.0;
        }
        for c in 0..m {
            let p = (c..m)
                .max_by(|&x, &y| a[x * w + c].abs().total_cmp(&a[y * w + c].abs()))
                .expect("rows left");
            if a[p * w + c].abs() < 1e-11 {
                return false;
            }
            if p != c {
                for k in 0..w {
                    a.swap(p * w + k, c * w + k);
                }
            }
            let piv = a[c * w + c];
            for k in 0..w {
                a[c * w + k] /= piv;
            }
            for r in 0..m {
                let f = a[r * w + c];
                if r != c && f != 0.0 {
                    for k in 0..w {
                        a[r * w + k] -= f * a[c * w + k];
                    }
                }
            }
        }
        // B⁻¹ is the right half; its row k belongs to basic position k.
        for k in 0..m {
            self.binv[k * m..(k + 1) * m].copy_from_slice(&a[k * w + m..(k + 1) * w]);
        }
        // x_B = B⁻¹ (b − N x_N).
        let mut r = self.rhs.clone();
        for j in 0..self.cost.len() {
            if self.state[j] != State::Basic && self.value[j] != 0.0 {
                for (i, v) in self.column(j) {
                    r[i as usize] -= v * self.value[j];
                }
            }
        }
        for k in 0..m {
            let row = &self.binv[k * m..(k + 1) * m];
            self.value[self.head[k]] = row.iter().zip(&r).map(|(a, b)| a * b).sum();
        }
        true
    }

    /// `y = c_B B⁻¹`: only basic artificials cost anything.
    fn duals(&self) -> Vec<f64> {
        let m = self.m;
        let mut y = vec![0.0; m];
        for (k, &j) in self.head.iter().enumerate() {
            let c = self.cost[j];
            if c != 0.0 {
                for (yi, b) in y.iter_mut().zip(&self.binv[k * m..(k + 1) * m]) {
                    *yi += c * b;
                }
            }
        }
        y
    }

    fn reduced_cost(&self, j: usize, y: &[f64]) -> f64 {
        self.cost[j] - self.column(j).map(|(i, v)| y[i as usize] * v).sum::<f64>()
    }

    /// The entering column and its direction (+1 up from its lower bound, −1 down from its
    /// upper one). Partial pricing: the columns are scanned from where the last scan
    /// stopped, a section at a time, and the best improving one of the first section that
    /// has any enters; only a whole round without one means optimal. With `bland`, the
    /// first improving column from the start enters.
    fn price(&mut self, y: &[f64], bland: bool) -> Option<(usize, f64)> {
        let n = self.cost.len();
        let section = (n / 8).max(64);
        let mut best: Option<(usize, f64, f64)> = None;
        let mut j = if bland { 0 } else { self.cursor };
        for scanned in 1..=n {
            let dir = match self.state[j] {
                State::Basic => 0.0,
                // A fixed column (an artificial that has left) never enters.
                _ if self.hi[j] <= self.lo[j] => 0.0,
                State::Lower => 1.0,
                State::Upper => -1.0,
            };
            if dir != 0.0 {
                let gain = -dir * self.reduced_cost(j, y);
                if gain > OPT_TOL && best.is_none_or(|(_, _, g)| gain > g) {
                    best = Some((j, dir, gain));
                }
            }
            j = if j + 1 == n { 0 } else { j + 1 };
            if best.is_some() && (bland || scanned.is_multiple_of(section)) {
                break;
            }
        }
        self.cursor = j;
        best.map(|(j, dir, _)| (j, dir))
    }

    fn total_violation(&self) -> f64 {
        self.artificials.iter().map(|&j| self.cost[j] * self.value[j]).sum()
    }

    fn solve(&mut self, budget: &Budget, stats: &mut Stats) -> Phase1 {
        let m = self.m;
        let refactor_every = REFACTOR.max(m);
        let mut since_refactor = 0;
        let mut degenerate = 0;
        loop {
            if stats.iterations >= budget.max_iterations {
                return Phase1::GaveUp(GaveUp::Iterations);
            }
            if stats.iterations.is_multiple_of(16) && (budget.stop)() {
                return Phase1::GaveUp(GaveUp::Stopped);
            }
            if since_refactor >= refactor_every {
                if !self.refactor() {
                    return Phase1::GaveUp(GaveUp::Numerics);
                }
                since_refactor = 0;
            }
            if self.total_violation() <= FEAS_TOL {
                return Phase1::Feasible;
            }
            let y = self.duals();
            let Some((q, dir)) = self.price(&y, degenerate >= DEGENERATE_RUN) else {
                // Optimal. An "infeasible" is decided on a fresh inverse, so that drift
                // does not spoil the multipliers ("feasible" needs no such care: it is no
                // argument either way).
                if since_refactor > 0 && self.total_violation() > FEAS_TOL {
                    if !self.refactor() {
                        return Phase1::GaveUp(GaveUp::Numerics);
                    }
                    since_refactor = 0;
                    continue;
                }
                let violation = self.total_violation();
                return if violation <= FEAS_TOL {
                    Phase1::Feasible
                } else {
                    Phase1::Infeasible { y, violation }
                };
            };
            stats.iterations += 1;
            // α = B⁻¹ A_q; as x_q moves by dir·θ, basic k moves by −dir·θ·α_k.
            let mut alpha = vec![0.0; m];
            for (i, v) in self.column(q) {
                let i = i as usize;
                for (k, a) in alpha.iter_mut().enumerate() {
                    *a += self.binv[k * m + i] * v;
                }
            }
            let rate = |k: usize| -dir * alpha[k];
            // Room of basic k before its bound, at this rate (with `tol` slack).
            let room = |k: usize, tol: f64| -> Option<f64> {
                let r = rate(k);
                let j = self.head[k];
                if r < -PIVOT_TOL {
                    Some(((self.value[j] - self.lo[j]).max(0.0) + tol) / -r)
                } else if r > PIVOT_TOL && self.hi[j].is_finite() {
                    Some(((self.hi[j] - self.value[j]).max(0.0) + tol) / r)
                } else {
                    None
                }
            };
            // Harris: the largest step any row allows with tolerance, then among the rows
            // that block within it, the largest pivot.
            let bound = (0..m).filter_map(|k| room(k, FEAS_TOL)).fold(f64::INFINITY, f64::min);
            let flip = self.hi[q] - self.lo[q];
            let leave = if flip <= bound {
                None
            } else {
                let bland = degenerate >= DEGENERATE_RUN;
                let mut pick: Option<usize> = None;
                for k in 0..m {
                    if room(k, 0.0).is_some_and(|t| t <= bound) {
                        let better = match pick {
                            None => true,
                            Some(p) if bland => self.head[k] < self.head[p],
                            Some(p) => alpha[k].abs() > alpha[p].abs(),
                        };
                        if better {
                            pick = Some(k);
                        }
                    }
                }
                match pick {
                    Some(k) => Some(k),
                    None if bound.is_infinite() => return Phase1::GaveUp(GaveUp::Numerics),
                    None => None,
                }
            };
            let theta = match leave {
                None => flip,
                Some(k) => room(k, 0.0).unwrap_or(0.0),
            };
            degenerate = if theta <= FEAS_TOL { degenerate + 1 } else { 0 };
            self.value[q] += dir * theta;
            for k in 0..m {
                let j = self.head[k];
                self.value[j] += theta * rate(k);
            }
            let Some(r) = leave else {
                stats.flips += 1;
                self.state[q] = if dir > 0.0 { State::Upper } else { State::Lower };
                self.value[q] = if dir > 0.0 { self.hi[q] } else { self.lo[q] };
                continue;
            };
            // The leaving column sits at the bound it reached.
            let out = self.head[r];
            if rate(r) < 0.0 {
                self.state[out] = State::Lower;
                self.value[out] = self.lo[out];
            } else {
                self.state[out] = State::Upper;
                self.value[out] = self.hi[out];
            }
            if self.cost[out] != 0.0 {
                // An artificial that has left stays out, at 0.
                self.hi[out] = self.lo[out];
                self.value[out] = self.lo[out];
                self.state[out] = State::Lower;
            }
            self.state[q] = State::Basic;
            self.head[r] = q;
            // Pivot the inverse on α_r.
            let piv = alpha[r];
            for v in &mut self.binv[r * m..(r + 1) * m] {
                *v /= piv;
            }
            let (before, rest) = self.binv.split_at_mut(r * m);
            let (pivot_row, after) = rest.split_at_mut(m);
            for (k, row) in before.chunks_mut(m).chain(after.chunks_mut(m)).enumerate() {
                let k = if k < r { k } else { k + 1 };
                let f = alpha[k];
                if f != 0.0 {
                    for (a, b) in row.iter_mut().zip(pivot_row.iter()) {
                        *a -= f * b;
                    }
                }
            }
            since_refactor += 1;
        }
    }
}

/// Phase 1 on `p`: feasible, infeasible with its multipliers, or given up.
pub fn phase1(p: &Problem, budget: &Budget) -> (Phase1, Stats) {
    let mut stats = Stats::default();
    if p.rows > budget.max_rows {
        return (Phase1::GaveUp(GaveUp::TooLarge), stats);
    }
    let mut s = Simplex::new(p);
    let r = s.solve(budget, &mut stats);
    (r, stats)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(columns: &[Vec<(u32, f64)>], cmp: &[Cmp], rhs: &[f64]) -> Phase1 {
        let p = Problem {
            rows: cmp.len(),
            columns,
            cmp,
            rhs,
        };
        let budget = Budget {
            max_rows: 100,
            max_iterations: 1000,
            stop: &|| false,
        };
        phase1(&p, &budget).0
    }

    #[test]
    fn a_feasible_box_problem() {
        // x + y = 1.5, x − y ≥ 0.2
        let cols = vec![vec![(0, 1.0), (1, 1.0)], vec![(0, 1.0), (1, -1.0)]];
        assert_eq!(run(&cols, &[Cmp::Eq, Cmp::Ge], &[1.5, 0.2]), Phase1::Feasible);
    }

    #[test]
    fn an_infeasible_one_has_multipliers() {
        // x + y ≥ 1.5 and x + y ≤ 1.2: y = (1, −1) up to scale.
        let cols = vec![vec![(0, 1.0), (1, 1.0)], vec![(0, 1.0), (1, 1.0)]];
        match run(&cols, &[Cmp::Ge, Cmp::Le], &[1.5, 1.2]) {
            Phase1::Infeasible { y, violation } => {
                assert!((violation - 0.3).abs() < 1e-9, "{violation}");
                assert!(y[0] > 0.0 && y[1] < 0.0 && (y[0] + y[1]).abs() < 1e-9, "{y:?}");
            }
            other => panic!("{other:?}"),
        }
        // Beyond the box: x + y ≥ 2.5.
        let cols = vec![vec![(0, 1.0)], vec![(0, 1.0)]];
        assert!(matches!(run(&cols, &[Cmp::Ge], &[2.5]), Phase1::Infeasible { .. }));
    }
}
