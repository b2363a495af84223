//! The variables that identify a solution (the *primary* variables), and the blocking
//! clause that excludes one answer's projection onto them and nothing else.
//!
//! Enumerating "every solution" means every distinct *puzzle* solution: two assignments that
//! agree on the primary variables are the same answer, whatever auxiliary variables say.
//! [`Projection::block`] is the no-good that `--unique` and `--all` add after each answer on
//! backends that enumerate by blocking clauses; native enumeration (`search`) branches on
//! the primary variables first and takes one completion of the rest per leaf.

use super::formula::{Constraint, PbFormula};
use super::lit::{Lit, Var};

/// The primary variables of a formula.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Projection {
    /// Per variable of the formula: primary or not.
    primary: Vec<bool>,
    /// Per variable: primary and in an exactly-one constraint over positive literals of
    /// primary variables only. Such a variable is false exactly when another of its group
    /// is true, so a blocking clause needs no literal for it being false.
    grouped: Vec<bool>,
}

impl Projection {
    /// The projection of `formula` onto `vars` (variables the formula lacks are ignored).
    pub fn new(formula: &PbFormula, vars: impl IntoIterator<Item = Var>) -> Projection {
        let n = formula.num_vars as usize;
        let mut primary = vec![false; n];
        for v in vars {
            if let Some(p) = primary.get_mut(v.index()) {
                *p = true;
            }
        }
        let mut grouped = vec![false; n];
        for (_, c) in &formula.constraints {
            if let Constraint::ExactlyOne(ls) = c
                && ls.iter().all(|l| l.is_positive() && primary[l.var().index()])
            {
                for l in ls {
                    grouped[l.var().index()] = true;
                }
            }
        }
        Projection { primary, grouped }
    }

    /// Every variable of `formula` is primary.
    #[cfg(any(test, feature = "testing"))]
    pub fn all(formula: &PbFormula) -> Projection {
        Projection::new(formula, (0..formula.num_vars).map(Var))
    }

    /// Per variable: primary or not.
    pub fn flags(&self) -> &[bool] {
        &self.primary
    }

    /// The clause that every assignment satisfies unless it agrees with `a` on every primary
    /// variable: "a primary variable true in `a` is false, or one false in `a` (and not
    /// implied false by its exactly-one group) is true". For one-hot models this is the
    /// negation of the true primary variables, one literal per group. Variables past the end
    /// of `a` count as false.
    pub fn block(&self, a: &[bool]) -> Vec<Lit> {
        let mut out = Vec::new();
        for (i, (&p, &g)) in self.primary.iter().zip(&self.grouped).enumerate() {
            if !p {
                continue;
            }
            let v = Var(i as u32);
            if a.get(i).copied().unwrap_or(false) {
                out.push(v.negative());
            } else if !g {
                out.push(v.pos());
            }
        }
        out
    }

    /// Whether `a` and `b` agree on every primary variable (missing values count as false).
    /// (The run path tells repeats apart by fingerprints, `run::seen`; this is the
    /// definition the tests check the blocking clause against.)
    #[cfg(any(test, feature = "testing"))]
    pub fn same(&self, a: &[bool], b: &[bool]) -> bool {
        let get = |x: &[bool], i: usize| x.get(i).copied().unwrap_or(false);
        self.primary
            .iter()
            .enumerate()
            .all(|(i, &p)| !p || get(a, i) == get(b, i))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::{Cmp, Linear};

    /// Every assignment of a small formula: the blocking clause of `a` is false exactly on
    /// the solutions that agree with `a` on the projection.
    #[test]
    fn the_blocking_clause_excludes_exactly_the_projection() {
        let mut f = PbFormula {
            num_vars: 6,
            ..Default::default()
        };
        let x: Vec<Var> = (0..6).map(Var).collect();
        f.add("g", Constraint::ExactlyOne(vec![x[0].pos(), x[1].pos(), x[2].pos()]));
        f.add("aux", Constraint::Clause(vec![x[3].pos(), x[4].pos()]));
        f.add(
            "row",
            Constraint::Linear(Linear::new(vec![(1, x[0].pos()), (2, x[5].pos())], Cmp::Le, 2)),
        );
        for proj in [vec![x[0], x[1], x[2], x[5]], vec![x[0], x[1], x[2]], vec![x[5], x[3]]] {
            let p = Projection::new(&f, proj.iter().copied());
            let sols: Vec<Vec<bool>> = (0u32..64)
                .map(|m| (0..6).map(|i| m >> i & 1 == 1).collect::<Vec<bool>>())
                .filter(|a| f.evaluate(a).is_ok())
                .collect();
            for a in &sols {
                let c = p.block(a);
                for b in &sols {
                    let sat = c.iter().any(|l| b[l.var().index()] == l.is_positive());
                    assert_eq!(sat, !p.same(a, b), "{proj:?} {a:?} {b:?} {c:?}");
                }
            }
        }
    }
}
