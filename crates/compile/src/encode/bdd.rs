//! `y_0 + y_1 + ... <= k` over small non-negative integers (a lone term `c x` is the integer
//! `{0, c}`, a domain group "the coefficient of its true literal") as a reduced ordered
//! decision diagram with interval memoisation: a BDD when every level is a lone term, an
//! MDD otherwise. After the idea of Abío, Nieuwenhuis, Oliveras, Rodríguez-Carbonell and Mayer-Eichberger,
//! "A New Look at BDDs for Pseudo-Boolean Constraints" / "BDDs for Pseudo-Boolean
//! Constraints – Revisited".
//!
//! The node at level `i` for bound `K` stands for "the integers from `i` on add up to at
//! most `K`". Many bounds give the same function: every node carries the whole interval
//! `[beta, gamma]` of bounds that do, so a later request with any bound in that interval is
//! answered by a search in the level's interval list instead of a new subtree. Equal
//! children make no node (the reduction), so the diagram is the ROBDD of the row for this
//! level order; the caller puts the widest integers first, which keeps it small on the rows
//! met in practice. It can still be exponential, so building stops at a node cap and
//! the caller falls back or fails cleanly.
//!
//! Clauses: per node `v` and value `w_j` of its level's integer `y` (order literals
//! `[y >= w]`), `v & [y >= w_j] -> child_j`, the root asserted. For a lone term that is the
//! two clauses per node `v -> lo` and `v & x -> hi`. The function is decreasing in every `y`,
//! and for such diagrams these clauses give generalised arc consistency by unit propagation
//! (the paper's result for monotonic BDDs; an MDD level is the same argument on the order
//! literals).

use std::collections::BTreeMap;

use super::sink::ClauseSink;
use crate::ir::Lit;

/// A node reference: the two terminals, or an internal node's index + 2.
type Ref = u32;

/// A number of the diagram (a node, a kid's position, a level, a level's arity) as the `u32`
/// it is stored in. [`build`] gives up before the kids reach `u32::MAX / 2` (there are fewer
/// nodes than kids), and the levels and a level's values number at most one more than the
/// row's terms, whose literals are IR variables (`u32`).
fn small(i: usize) -> u32 {
    u32::try_from(i).expect("build keeps the diagram's numbers below 2^32")
}
const FALSE: Ref = 0;
const TRUE: Ref = 1;

/// The interval of bounds that give one node, and the node.
#[derive(Debug, Clone, Copy)]
struct Hit {
    beta: i128,
    gamma: i128,
    node: Ref,
}

#[derive(Debug, Clone, Copy)]
struct Node {
    level: u32,
    /// Where its children (one per value of the level's integer, ascending) start in
    /// [`Mdd::kids`].
    first: u32,
}

/// A built diagram for one `<=` row over integers `y_0, y_1, ...` (levels, in this order),
/// `y_i` taking the values `values[i]` (ascending).
#[derive(Debug)]
pub struct Mdd {
    nodes: Vec<Node>,
    kids: Vec<Ref>,
    /// Children per level.
    arity: Vec<u32>,
    root: Ref,
}

impl Mdd {
    /// Internal nodes.
    #[cfg(test)]
    pub fn num_nodes(&self) -> usize {
        self.nodes.len()
    }

    fn children(&self, n: &Node) -> &[Ref] {
        let a = self.arity[n.level as usize] as usize;
        &self.kids[n.first as usize..n.first as usize + a]
    }

    /// Clauses [`Mdd::emit`] writes.
    pub fn num_clauses(&self) -> u64 {
        let mut count = u64::from(self.root != TRUE);
        for n in &self.nodes {
            let kids = self.children(n);
            for (j, &c) in kids.iter().enumerate() {
                count += u64::from(c != TRUE && (j == 0 || c != kids[j - 1]));
            }
        }
        count
    }

    /// Writes the clauses, one variable per internal node. `ge[i][j]` is the literal
    /// "y_i >= values[i][j + 1]" (the order encoding of level `i`'s integer).
    ///
    /// For a node `v` with children `c_0, ..., c_m` by ascending value: `v -> c_0`, and
    /// `v & [y >= w_j] -> c_j`; a child equal to the previous one needs no clause (the
    /// previous clause and `[y >= w_j] -> [y >= w_(j-1)]` give it).
    pub fn emit(&self, sink: &mut dyn ClauseSink, ge: &[&[Lit]]) {
        if self.root == TRUE {
            return;
        }
        if self.root == FALSE {
            sink.add_clause(&[]);
            return;
        }
        let vars: Vec<Lit> = self.nodes.iter().map(|_| sink.new_var().pos()).collect();
        let lit_of = |r: Ref| vars[(r - 2) as usize];
        sink.add_clause(&[lit_of(self.root)]);
        let mut clause = Vec::with_capacity(3);
        for (k, n) in self.nodes.iter().enumerate() {
            if k % 1024 == 0 && sink.should_stop() {
                return;
            }
            let v = vars[k];
            let kids = self.children(n);
            for (j, &c) in kids.iter().enumerate() {
                if c == TRUE || (j > 0 && c == kids[j - 1]) {
                    continue;
                }
                clause.clear();
                clause.push(!v);
                if j > 0 {
                    clause.push(!ge[n.level as usize][j - 1]);
                }
                if c != FALSE {
                    clause.push(lit_of(c));
                }
                sink.add_clause(&clause);
            }
        }
    }
}

/// One pending call "the node at level `i` for bound `k`", with the children found so far.
struct Frame {
    i: usize,
    k: i128,
    kids: Vec<Hit>,
}

/// Builds the diagram of `y_0 + y_1 + ... <= k`, `y_i` taking the values `values[i]`
/// (ascending, non-negative). `None` when it would have more than `max_nodes` internal
/// nodes, or when `stop` says so (asked every few thousand steps).
pub fn build(values: &[Vec<u64>], k: i128, max_nodes: usize, stop: &mut dyn FnMut() -> bool) -> Option<Mdd> {
    let n = values.len();
    // lowest[i], rest[i]: the smallest and the largest sum of the levels from i on.
    let (mut lowest, mut rest) = (vec![0i128; n + 1], vec![0i128; n + 1]);
    for i in (0..n).rev() {
        lowest[i] = lowest[i + 1] + i128::from(values[i][0]);
        rest[i] = rest[i + 1] + i128::from(*values[i].last().expect("an integer has a value"));
    }
    // Per level: interval start -> (interval end, node). The intervals of a level are
    // disjoint, so the one holding a bound is the last one starting at or below it.
    let mut levels: Vec<BTreeMap<i128, (i128, Ref)>> = vec![BTreeMap::new(); n];
    let mut entries = 0usize;
    let mut mdd = Mdd {
        nodes: Vec::new(),
        kids: Vec::new(),
        arity: values.iter().map(|v| small(v.len())).collect(),
        root: TRUE,
    };
    let lookup = |levels: &[BTreeMap<i128, (i128, Ref)>], i: usize, k: i128| -> Option<Hit> {
        if k < lowest[i] {
            return Some(Hit {
                beta: i128::MIN,
                gamma: lowest[i] - 1,
                node: FALSE,
            });
        }
        if k >= rest[i] {
            return Some(Hit {
                beta: rest[i],
                gamma: i128::MAX,
                node: TRUE,
            });
        }
        // Here i < n: lowest[n] = rest[n] = 0.
        let (&beta, &(gamma, node)) = levels[i].range(..=k).next_back()?;
        (k <= gamma).then_some(Hit { beta, gamma, node })
    };
    if let Some(hit) = lookup(&levels, 0, k) {
        mdd.root = hit.node;
        return Some(mdd);
    }
    let mut stack = vec![Frame {
        i: 0,
        k,
        kids: Vec::new(),
    }];
    // The answer of the frame just finished, for its parent.
    let mut done: Option<Hit> = None;
    let mut steps = 0u64;
    loop {
        steps += 1;
        if steps.is_multiple_of(4096) && stop() {
            return None;
        }
        let top = stack.last_mut().expect("the loop returns when the stack empties");
        let (i, kk) = (top.i, top.k);
        let vs = &values[i];
        if top.kids.len() < vs.len() {
            let w = i128::from(vs[top.kids.len()]);
            match done.take().or_else(|| lookup(&levels, i + 1, kk - w)) {
                Some(h) => top.kids.push(h),
                None => stack.push(Frame {
                    i: i + 1,
                    k: kk - w,
                    kids: Vec::new(),
                }),
            }
            continue;
        }
        // The bounds K with the same children: K - w_j in child j's interval, for every j.
        let (mut beta, mut gamma) = (i128::MIN, i128::MAX);
        for (h, &w) in top.kids.iter().zip(vs) {
            let w = i128::from(w);
            beta = beta.max(h.beta.saturating_add(w));
            gamma = gamma.min(h.gamma.saturating_add(w));
        }
        let node = if top.kids.iter().all(|h| h.node == top.kids[0].node) {
            top.kids[0].node
        } else {
            if mdd.nodes.len() >= max_nodes {
                return None;
            }
            mdd.nodes.push(Node {
                level: small(i),
                first: small(mdd.kids.len()),
            });
            mdd.kids.extend(top.kids.iter().map(|h| h.node));
            small(mdd.nodes.len()) + 1
        };
        // Levels that make no node are memoised too, or the same subtree is walked again;
        // their number is bounded with the nodes' (a level holds at most as many intervals
        // as there are distinct functions below it).
        entries += 1;
        if entries > max_nodes.saturating_mul(4).saturating_add(n) || mdd.kids.len() >= u32::MAX as usize / 2 {
            return None;
        }
        levels[i].insert(beta, (gamma, node));
        stack.pop();
        if stack.is_empty() {
            mdd.root = node;
            return Some(mdd);
        }
        done = Some(Hit { beta, gamma, node });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The diagram's answer for these values of the integers (by level).
    fn eval(m: &Mdd, values: &[Vec<u64>], ys: &[u64]) -> bool {
        let mut r = m.root;
        loop {
            match r {
                FALSE => return false,
                TRUE => return true,
                _ => {
                    let n = m.nodes[(r - 2) as usize];
                    let i = n.level as usize;
                    let j = values[i].iter().position(|&w| w == ys[i]).unwrap();
                    r = m.children(&n)[j];
                }
            }
        }
    }

    #[test]
    fn the_diagram_is_the_row_on_every_assignment() {
        let mut seed = 11u64;
        let mut next = move || {
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            seed >> 33
        };
        for round in 0..400 {
            // Levels of one to three values (a lone term is {0, c}; a group may lack 0).
            let n = (next() % 7) as usize;
            let spread = [3, 20, 1_000_000, 1 << 40][round % 4];
            let values: Vec<Vec<u64>> = (0..n)
                .map(|_| {
                    let mut v: Vec<u64> = (0..1 + next() % 3).map(|_| next() % spread).collect();
                    if next() % 2 == 0 {
                        v.push(0);
                    }
                    v.sort_unstable();
                    v.dedup();
                    v
                })
                .collect();
            let total: i128 = values.iter().map(|v| i128::from(*v.last().unwrap())).sum();
            let k = (next() as i128 % (total + 3)) - 1;
            let m = build(&values, k, 1 << 20, &mut || false).unwrap();
            // Every combination of values, by a mixed-radix counter.
            let combos: usize = values.iter().map(Vec::len).product();
            for mut c in 0..combos {
                let ys: Vec<u64> = values
                    .iter()
                    .map(|v| {
                        let y = v[c % v.len()];
                        c /= v.len();
                        y
                    })
                    .collect();
                let sum: i128 = ys.iter().map(|&y| i128::from(y)).sum();
                assert_eq!(eval(&m, &values, &ys), sum <= k, "{values:?} <= {k} at {ys:?}");
            }
        }
    }

    #[test]
    fn equal_coefficients_give_the_small_cardinality_diagram() {
        // sum of 40 terms of 7 <= 140: a grid of at most 21 * 40 nodes, not 2^40.
        let values: Vec<Vec<u64>> = (0..40).map(|_| vec![0, 7]).collect();
        let m = build(&values, 140, usize::MAX, &mut || false).unwrap();
        assert!(m.num_nodes() <= 21 * 40, "{}", m.num_nodes());
        // And the node cap is honoured.
        assert!(build(&values, 140, 10, &mut || false).is_none());
    }
}
