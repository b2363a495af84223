//! The LP relaxation of a 0/1 formula as a refutation that every backend gets for free.
//!
//! Relax every variable from `{0, 1}` to `[0, 1]` ([`relax`]); if even that has no
//! solution, neither has the formula. A phase-1 simplex ([`simplex`]) decides it in floating
//! point and, when it is infeasible, hands over its dual multipliers; [`farkas`] turns them
//! into integer multipliers on the formula's rows and checks, in exact arithmetic, that the
//! rows so multiplied add up to a row no point of the box satisfies. Only a certificate that
//! passes that check is an answer ([`Verdict::Refuted`]); anything else (a feasible
//! relaxation, a budget or deadline reached, a certificate that rounding spoilt) is no
//! argument, and the run goes on to the backend as if this had not run.
//!
//! This works on the IR alone, so it serves every puzzle kind; it imports only `ir`.

pub mod farkas;
pub mod relax;
pub mod simplex;

use std::time::Instant;

use crate::ir::{Constraint, PbFormula};
pub use farkas::{Certificate, Checked};
pub use simplex::GaveUp;

/// When the LP gives up.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// Formulas with more constraints are not tried (the simplex keeps a dense inverse, and
    /// its cost grows with the cube of the rows).
    pub max_rows: usize,
    /// Nor formulas with more literals in all (pricing reads them).
    pub max_entries: usize,
    pub max_iterations: usize,
}

impl Limits {
    /// What `--lp auto` allows: up to 100 rows, where the LP costs about a millisecond (every
    /// 3SoKu model of the shipped variants has 13 to 80; the grid kinds, whose backends answer
    /// in well under the LP's time, mostly have more). See encodings/lp.md for the numbers.
    pub fn auto() -> Limits {
        Limits {
            max_rows: 100,
            max_entries: 200_000,
            max_iterations: 2_000,
        }
    }
}

/// What `--lp on` allows: larger formulas (an inverse of 400² numbers, 1.3 MB; a recomputed
/// one costs a few tenths of a second), and more iterations; the deadline still stops it.
impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_rows: 400,
            max_entries: 5_000_000,
            max_iterations: 20_000,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// The relaxation has no solution, and `certificate` passed [`farkas::check`].
    Refuted {
        certificate: Certificate,
        checked: Checked,
    },
    /// The relaxation has a solution: the LP proves nothing.
    Feasible,
    /// The simplex found it infeasible, but no rounding of its multipliers passed the exact
    /// check: no argument.
    Unchecked,
    GaveUp(GaveUp),
}

impl Verdict {
    /// One word for statistics: "refuted", "feasible", "unchecked", "too large",
    /// "iterations", "stopped", "numerics".
    pub fn word(&self) -> &'static str {
        match self {
            Verdict::Refuted { .. } => "refuted",
            Verdict::Feasible => "feasible",
            Verdict::Unchecked => "unchecked",
            Verdict::GaveUp(GaveUp::TooLarge) => "too large",
            Verdict::GaveUp(GaveUp::Iterations) => "iterations",
            Verdict::GaveUp(GaveUp::Stopped) => "stopped",
            Verdict::GaveUp(GaveUp::Numerics) => "numerics",
        }
    }
}

/// What one attempt found, and what it cost.
#[derive(Debug, Clone)]
pub struct Attempt {
    pub verdict: Verdict,
    pub iterations: usize,
    pub ms: f64,
}

/// The literals of `f`'s rows, a `SumOf` counting its parts'.
fn entries(f: &PbFormula) -> usize {
    let linear = |i: usize| match &f.constraints()[i].1 {
        Constraint::Linear(l) => l.terms.len(),
        _ => 0,
    };
    f.constraints()
        .iter()
        .map(|(_, c)| match c {
            Constraint::Clause(ls) | Constraint::AtMostOne(ls) | Constraint::ExactlyOne(ls) => ls.len(),
            Constraint::Linear(l) => l.terms.len(),
            Constraint::SumOf { parts, .. } => parts.iter().map(|&p| linear(p)).sum(),
        })
        .sum()
}

/// Tries to refute `f` by its LP relaxation within `limits`; `stop` is asked every few
/// iterations (the run's deadline) and ends the attempt with no argument.
pub fn refute(f: &PbFormula, limits: &Limits, stop: &dyn Fn() -> bool) -> Attempt {
    let t0 = Instant::now();
    let done = |verdict, iterations| Attempt {
        verdict,
        iterations,
        ms: t0.elapsed().as_secs_f64() * 1e3,
    };
    if f.constraints().len() > limits.max_rows || entries(f) > limits.max_entries {
        return done(Verdict::GaveUp(GaveUp::TooLarge), 0);
    }
    let rows = relax::rows(f);
    // Columns for the variables that occur, in the order they are first met.
    let mut column_of = vec![u32::MAX; f.num_vars() as usize];
    let mut columns: Vec<Vec<(u32, f64)>> = Vec::new();
    for (i, r) in rows.iter().enumerate() {
        for &(v, a) in &r.terms {
            let c = &mut column_of[v as usize];
            if *c == u32::MAX {
                *c = columns.len() as u32;
                columns.push(Vec::new());
            }
            columns[*c as usize].push((i as u32, a as f64));
        }
    }
    let cmp: Vec<_> = rows.iter().map(|r| r.cmp).collect();
    let rhs: Vec<f64> = rows.iter().map(|r| r.rhs as f64).collect();
    let problem = simplex::Problem {
        rows: rows.len(),
        columns: &columns,
        cmp: &cmp,
        rhs: &rhs,
    };
    let budget = simplex::Budget {
        max_rows: limits.max_rows,
        max_iterations: limits.max_iterations,
        stop,
    };
    let (phase1, stats) = simplex::phase1(&problem, &budget);
    let verdict = match phase1 {
        simplex::Phase1::Feasible => Verdict::Feasible,
        simplex::Phase1::GaveUp(g) => Verdict::GaveUp(g),
        simplex::Phase1::Infeasible { y, .. } => match farkas::from_duals(&rows, &y) {
            // Checked once more from the formula itself, not from the rows built above.
            Some((certificate, _)) => match farkas::check(f, &certificate) {
                Ok(checked) => Verdict::Refuted { certificate, checked },
                Err(_) => Verdict::Unchecked,
            },
            None => Verdict::Unchecked,
        },
    };
    done(verdict, stats.iterations)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::{Cmp, Linear, Var};

    #[test]
    fn pigeons_are_refuted_and_a_satisfiable_formula_is_not() {
        // Three pigeons, two holes: p[i][h], each pigeon in a hole, each hole at most one.
        let mut f = PbFormula::new(6);
        let p = |i: u32, h: u32| Var(i * 2 + h).pos();
        for i in 0..3 {
            f.add(format!("pigeon {i}"), Constraint::Clause(vec![p(i, 0), p(i, 1)]));
        }
        for h in 0..2 {
            f.add(
                format!("hole {h}"),
                Constraint::AtMostOne((0..3).map(|i| p(i, h)).collect()),
            );
        }
        let a = refute(&f, &Limits::default(), &|| false);
        let Verdict::Refuted { certificate, checked } = &a.verdict else {
            panic!("{a:?}");
        };
        assert_eq!(farkas::check(&f, certificate), Ok(*checked));
        let text = farkas::describe(&f, certificate, checked, 10);
        assert!(text.contains("×(pigeon 0)") && text.contains("×(hole 1)"), "{text}");

        let mut g = f.clone();
        g.truncate(4);
        assert_eq!(refute(&g, &Limits::default(), &|| false).verdict, Verdict::Feasible);
    }

    #[test]
    fn limits_and_stops_give_no_argument() {
        let mut f = PbFormula::new(1);
        f.add(
            "x ≥ 2",
            Constraint::Linear(Linear::new(vec![(1, Var(0).pos())], Cmp::Ge, 2)),
        );
        let tiny = Limits {
            max_rows: 0,
            ..Default::default()
        };
        assert_eq!(refute(&f, &tiny, &|| false).verdict, Verdict::GaveUp(GaveUp::TooLarge));
        let narrow = Limits {
            max_entries: 0,
            ..Default::default()
        };
        assert_eq!(
            refute(&f, &narrow, &|| false).verdict,
            Verdict::GaveUp(GaveUp::TooLarge)
        );
        assert_eq!(
            refute(&f, &Limits::default(), &|| true).verdict,
            Verdict::GaveUp(GaveUp::Stopped)
        );
        assert!(matches!(
            refute(&f, &Limits::default(), &|| false).verdict,
            Verdict::Refuted { .. }
        ));
    }
}
