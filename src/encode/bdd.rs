//! `sum c_i x_i <= k` (all `c_i > 0`) as a reduced ordered BDD with interval memoisation,
//! after the idea of Abío, Nieuwenhuis, Oliveras, Rodríguez-Carbonell and Mayer-Eichberger,
//! "A New Look at BDDs for Pseudo-Boolean Constraints" / "BDDs for Pseudo-Boolean
//! Constraints – Revisited".
//!
//! The node at level `i` for bound `K` stands for "the terms from `i` on add up to at most
//! `K`". Many bounds give the same function: every node carries the whole interval
//! `[beta, gamma]` of bounds that do, so a later request with any bound in that interval is
//! answered by a search in the level's interval list instead of a new subtree. Equal
//! children make no node (the reduction), so the diagram is the ROBDD of the row for this
//! variable order; terms come in decreasing coefficient order, which keeps it small on the
//! rows met in practice. It can still be exponential, so building stops at a node cap and
//! the caller falls back or fails cleanly.
//!
//! Clauses: two per node (`v -> lo` and `v & x -> hi`), the root asserted. The function is
//! decreasing in every `x`, and for such BDDs these two clauses give generalised arc
//! consistency by unit propagation (the paper's result for monotonic functions).

use std::collections::BTreeMap;

use super::sink::ClauseSink;
use crate::ir::Lit;

/// A node reference: the two terminals, or an internal node's index + 2.
type Ref = u32;
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
    lit: Lit,
    /// The child when `lit` is false, and when it is true.
    lo: Ref,
    hi: Ref,
}

/// A built diagram for one `<=` row.
#[derive(Debug)]
pub struct Bdd {
    nodes: Vec<Node>,
    root: Ref,
}

impl Bdd {
    /// Internal nodes; the encoding writes at most two clauses for each.
    #[cfg(test)]
    pub fn num_nodes(&self) -> usize {
        self.nodes.len()
    }

    /// Clauses [`Bdd::emit`] writes.
    pub fn num_clauses(&self) -> u64 {
        let inner: u64 = self
            .nodes
            .iter()
            .map(|n| u64::from(n.lo != TRUE) + u64::from(n.hi != TRUE))
            .sum();
        inner + u64::from(self.root != TRUE)
    }

    /// Writes the clauses: one variable per internal node.
    pub fn emit(&self, sink: &mut dyn ClauseSink) {
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
        for (k, n) in self.nodes.iter().enumerate() {
            if sink.should_stop() {
                return;
            }
            let v = vars[k];
            // A node's false branch is never the false terminal: then the stricter true
            // branch would be false as well, the children equal, and no node made.
            debug_assert!(n.lo != FALSE);
            if n.lo != TRUE {
                sink.add_clause(&[!v, lit_of(n.lo)]);
            }
            match n.hi {
                TRUE => {}
                FALSE => sink.add_clause(&[!v, !n.lit]),
                h => sink.add_clause(&[!v, !n.lit, lit_of(h)]),
            }
        }
    }
}

/// One pending call "the node at level `i` for bound `k`", with its children once known.
struct Frame {
    i: usize,
    k: i128,
    lo: Option<Hit>,
}

/// Builds the BDD of `sum c x <= k`. `None` when it would have more than `max_nodes`
/// internal nodes, or when `stop` says so (it is asked every few thousand steps).
pub fn build(terms: &[(u64, Lit)], k: i128, max_nodes: usize, stop: &mut dyn FnMut() -> bool) -> Option<Bdd> {
    let mut sorted: Vec<(u64, Lit)> = terms.to_vec();
    // Decreasing coefficients; ties by literal so that the output is deterministic.
    sorted.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.dimacs().cmp(&b.1.dimacs())));
    let n = sorted.len();
    // rest[i]: the largest sum of the terms from i on.
    let mut rest = vec![0i128; n + 1];
    for i in (0..n).rev() {
        rest[i] = rest[i + 1] + i128::from(sorted[i].0);
    }
    // Per level: interval start -> (interval end, node). The intervals of a level are
    // disjoint, so the one holding a bound is the last one starting at or below it.
    let mut levels: Vec<BTreeMap<i128, (i128, Ref)>> = vec![BTreeMap::new(); n];
    let mut entries = 0usize;
    let mut nodes: Vec<Node> = Vec::new();
    let lookup = |levels: &[BTreeMap<i128, (i128, Ref)>], i: usize, k: i128| -> Option<Hit> {
        if k < 0 {
            return Some(Hit {
                beta: i128::MIN,
                gamma: -1,
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
        // Here i < n: rest[n] = 0 <= k.
        let (&beta, &(gamma, node)) = levels[i].range(..=k).next_back()?;
        (k <= gamma).then_some(Hit { beta, gamma, node })
    };
    if let Some(hit) = lookup(&levels, 0, k) {
        return Some(Bdd { nodes, root: hit.node });
    }
    let mut stack = vec![Frame { i: 0, k, lo: None }];
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
        let c = i128::from(sorted[i].0);
        if top.lo.is_none() {
            match done.take().or_else(|| lookup(&levels, i + 1, kk)) {
                Some(h) => top.lo = Some(h),
                None => {
                    stack.push(Frame {
                        i: i + 1,
                        k: kk,
                        lo: None,
                    });
                    continue;
                }
            }
        }
        let hi = match done.take().or_else(|| lookup(&levels, i + 1, kk - c)) {
            Some(h) => h,
            None => {
                stack.push(Frame {
                    i: i + 1,
                    k: kk - c,
                    lo: None,
                });
                continue;
            }
        };
        let lo = top.lo.expect("set above");
        // The bounds K with the same two children: K in lo's interval and K - c in hi's.
        let beta = lo.beta.max(hi.beta.saturating_add(c));
        let gamma = lo.gamma.min(hi.gamma.saturating_add(c));
        let node = if lo.node == hi.node {
            lo.node
        } else {
            if nodes.len() >= max_nodes {
                return None;
            }
            nodes.push(Node {
                lit: sorted[i].1,
                lo: lo.node,
                hi: hi.node,
            });
            nodes.len() as Ref + 1
        };
        // Redundant levels are memoised too, or the same subtree is walked again; their
        // number is bounded with the nodes' (a level holds at most as many intervals as
        // there are distinct functions below it).
        entries += 1;
        if entries > max_nodes.saturating_mul(4).saturating_add(n) {
            return None;
        }
        levels[i].insert(beta, (gamma, node));
        stack.pop();
        let hit = Hit { beta, gamma, node };
        if stack.is_empty() {
            return Some(Bdd { nodes, root: node });
        }
        done = Some(hit);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::Var;

    /// Evaluates the diagram on an assignment of the variables.
    fn eval(b: &Bdd, a: &[bool]) -> bool {
        let mut r = b.root;
        loop {
            match r {
                FALSE => return false,
                TRUE => return true,
                _ => {
                    let n = b.nodes[(r - 2) as usize];
                    r = if n.lit.eval(a) { n.hi } else { n.lo };
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
        for round in 0..300 {
            let n = (next() % 9) as u32;
            let spread = [3, 20, 1_000_000, 1 << 40][round % 4];
            let terms: Vec<(u64, Lit)> = (0..n)
                .map(|v| (1 + next() % spread, Lit::new(Var(v), next() % 2 == 0)))
                .collect();
            let total: i128 = terms.iter().map(|t| i128::from(t.0)).sum();
            let k = (next() as i128 % (total + 3)) - 1;
            let b = build(&terms, k, 1 << 20, &mut || false).unwrap();
            for bits in 0u32..1 << n {
                let a: Vec<bool> = (0..n).map(|i| bits >> i & 1 == 1).collect();
                let sum: i128 = terms.iter().filter(|t| t.1.eval(&a)).map(|t| i128::from(t.0)).sum();
                assert_eq!(eval(&b, &a), sum <= k, "{terms:?} <= {k} at {a:?}");
            }
        }
    }

    #[test]
    fn equal_coefficients_give_the_small_cardinality_diagram() {
        // sum of 40 literals <= 20: a grid of at most 21 * 40 nodes, not 2^40.
        let terms: Vec<(u64, Lit)> = (0..40).map(|v| (7, Var(v).pos())).collect();
        let b = build(&terms, 140, usize::MAX, &mut || false).unwrap();
        assert!(b.num_nodes() <= 21 * 40, "{}", b.num_nodes());
        // And the node cap is honoured.
        assert!(build(&terms, 140, 10, &mut || false).is_none());
    }
}
