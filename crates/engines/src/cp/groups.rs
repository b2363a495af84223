//! Which exactly-one groups of the IR become the cp backend's integer variables.

use std::collections::BTreeSet;

#[cfg(feature = "testing")]
use crate::ir::Lit;
use crate::ir::{Constraint, PbFormula, Var};

/// The exactly-one groups that [`super::Cp`] turns into integer variables, as their literals, in
/// the order of the formula's constraints. (Exposed so that tests can check the shape of the
/// model: for 3SoKu, one placement integer per face.)
#[cfg(feature = "testing")]
pub fn integer_groups(f: &PbFormula) -> Vec<Vec<Lit>> {
    choose_groups(f)
        .into_iter()
        .map(|(_, vars)| vars.into_iter().map(Var::pos).collect())
        .collect()
}

/// The exactly-one groups (over positive literals of distinct variables) that become integer
/// variables, as (constraint index, variables), in constraint order. They must be disjoint:
/// a variable is the view `[P = i]` of one integer only.
///
/// The aim is to cover as many variables as possible: a variable in no chosen group stays a
/// bare 0/1 literal, and every row over it a pseudo-Boolean sum instead of a sum of small
/// integers. Largest-first is wrong for this: when groups overlap, one large group can push
/// out many smaller ones that would together cover more (3SoKu: the exactly-one "tile type
/// used once" rows span up to 60 placements, more than any face's 34, and taking them first
/// left every face that can hold such a type as loose literals).
///
/// The rule is that of exact cover (Knuth's Algorithm X, without backtracking): repeatedly
/// take the uncovered variable that the fewest remaining groups contain. One group: it is
/// the only way to cover that variable, so it is taken. Several: the one that strands the
/// fewest other variables (leaves them in no remaining group); then the one that meets the
/// fewest other rows, since each row it meets gets one integer term from it, so the rows
/// become short sums (a group spread over many rows splits each into more terms); then the
/// larger; then the earlier constraint. A taken group removes every remaining group it
/// overlaps. The result depends only on the formula.
///
/// For 3SoKu this takes exactly the faces: a placement of a type with several copies is in
/// its face's group only, so that face is forced, and it overlaps (and removes) the group of
/// every once-only type it can hold. Once-only types that survive that (all tiles different,
/// or presolve left some face only once-only types) tie with the faces they meet, and both
/// families partition the placements; a face meets its 3 vertex rows (and the count rows of
/// the types with several copies), a type every vertex it can reach.
pub(super) fn choose_groups(f: &PbFormula) -> Vec<(usize, Vec<Var>)> {
    let n = f.num_vars() as usize;
    let cands: Vec<(usize, Vec<Var>)> = f
        .constraints()
        .iter()
        .enumerate()
        .filter_map(|(i, (_, c))| match c {
            // A single literal counts too: it is a group all the same (an integer with one
            // value), and without it the variable would be left to another group it is in,
            // which may then push out the rest of its family (a tile fixed on a face, when
            // all tiles differ, would make its type's group forced, and with it all types).
            Constraint::ExactlyOne(ls) if !ls.is_empty() && ls.iter().all(|l| l.is_positive()) => {
                let vars: Vec<Var> = ls.iter().map(|l| l.var()).collect();
                let mut uniq = vars.clone();
                uniq.sort();
                uniq.dedup();
                (uniq.len() == vars.len()).then_some((i, vars))
            }
            _ => None,
        })
        .collect();
    // containing[v]: the candidate groups with variable v.
    let mut containing: Vec<Vec<usize>> = vec![Vec::new(); n];
    for (g, (_, vars)) in cands.iter().enumerate() {
        for v in vars {
            containing[v.index()].push(g);
        }
    }
    let rows_met = rows_met(f, &cands);
    let mut alive = vec![true; cands.len()];
    // count[v]: alive groups with v; uncovered variables that some alive group has wait in
    // `queue`, fewest groups first, then by index.
    let mut count: Vec<usize> = containing.iter().map(Vec::len).collect();
    let mut covered = vec![false; n];
    let mut queue: BTreeSet<(usize, usize)> = (0..n).filter(|&v| count[v] > 0).map(|v| (count[v], v)).collect();
    let mut scratch = Scratch {
        in_group: vec![false; n],
        hits: vec![0; n],
        seen: vec![usize::MAX; cands.len()],
    };
    let mut chosen = Vec::new();
    while let Some((_, v)) = queue.pop_first() {
        let options: Vec<usize> = containing[v].iter().copied().filter(|&g| alive[g]).collect();
        let best = match options[..] {
            [only] => only,
            _ => *options
                .iter()
                .min_by_key(|&&g| {
                    let stranded = scratch.stranded(g, &cands, &containing, &alive, &count, &covered);
                    (stranded, rows_met[g], std::cmp::Reverse(cands[g].1.len()), g)
                })
                .expect("a queued variable is in some alive group"),
        };
        alive[best] = false;
        let mut dead = vec![best];
        for u in &cands[best].1 {
            for &k in &containing[u.index()] {
                if alive[k] {
                    alive[k] = false;
                    dead.push(k);
                }
            }
        }
        for u in &cands[best].1 {
            queue.remove(&(count[u.index()], u.index()));
            covered[u.index()] = true;
        }
        for k in dead {
            for u in &cands[k].1 {
                let u = u.index();
                if !covered[u] {
                    queue.remove(&(count[u], u));
                    if count[u] > 1 {
                        queue.insert((count[u] - 1, u));
                    }
                }
                count[u] -= 1;
            }
        }
        chosen.push(best);
    }
    chosen.sort_unstable();
    chosen.into_iter().map(|g| cands[g].clone()).collect()
}

/// For each candidate group, how many other constraints (not candidates) have some of its
/// variables: the rows it would bring an integer term to.
fn rows_met(f: &PbFormula, cands: &[(usize, Vec<Var>)]) -> Vec<usize> {
    let mut is_cand = vec![false; f.constraints().len()];
    for (i, _) in cands {
        is_cand[*i] = true;
    }
    let mut rows_of: Vec<Vec<usize>> = vec![Vec::new(); f.num_vars() as usize];
    for (i, (_, c)) in f.constraints().iter().enumerate() {
        let vars: Vec<Var> = match c {
            _ if is_cand[i] => continue,
            Constraint::Clause(ls) | Constraint::AtMostOne(ls) | Constraint::ExactlyOne(ls) => {
                ls.iter().map(|l| l.var()).collect()
            }
            Constraint::Linear(lin) => lin.terms.iter().map(|(_, l)| l.var()).collect(),
            Constraint::SumOf { .. } => continue,
        };
        for v in vars {
            if rows_of[v.index()].last() != Some(&i) {
                rows_of[v.index()].push(i);
            }
        }
    }
    cands
        .iter()
        .map(|(_, vars)| {
            let mut rows: Vec<usize> = vars.iter().flat_map(|v| rows_of[v.index()].iter().copied()).collect();
            rows.sort_unstable();
            rows.dedup();
            rows.len()
        })
        .collect()
}

/// Work arrays of [`choose_groups`], reset after each use.
struct Scratch {
    in_group: Vec<bool>,
    hits: Vec<usize>,
    /// The last group whose overlaps counted this one (so each overlap counts once).
    seen: Vec<usize>,
}

impl Scratch {
    /// How many uncovered variables outside group `g` taking `g` would leave in no alive
    /// group: those all of whose alive groups overlap `g`.
    fn stranded(
        &mut self,
        g: usize,
        cands: &[(usize, Vec<Var>)],
        containing: &[Vec<usize>],
        alive: &[bool],
        count: &[usize],
        covered: &[bool],
    ) -> usize {
        let vars = &cands[g].1;
        for v in vars {
            self.in_group[v.index()] = true;
        }
        let mut touched = Vec::new();
        for v in vars {
            for &k in &containing[v.index()] {
                if k == g || !alive[k] || self.seen[k] == g {
                    continue;
                }
                self.seen[k] = g;
                for u in &cands[k].1 {
                    let u = u.index();
                    if !self.in_group[u] && !covered[u] {
                        if self.hits[u] == 0 {
                            touched.push(u);
                        }
                        self.hits[u] += 1;
                    }
                }
            }
        }
        let stranded = touched.iter().filter(|&&u| self.hits[u] == count[u]).count();
        for u in touched {
            self.hits[u] = 0;
        }
        for v in vars {
            self.in_group[v.index()] = false;
        }
        for v in vars {
            for &k in &containing[v.index()] {
                self.seen[k] = usize::MAX;
            }
        }
        stranded
    }
}
