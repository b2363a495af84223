//! A lying engine, for tests only: it answers like an engine and lies in one chosen way, so
//! that tests can show that no lie comes out of sokuc as a claim (the portfolio's race
//! here, the run path's gate in `crates/sokuc/src/run/`). It finds the truth with `sat` (varisat) and
//! then bends it; it looks at no stop flag, as a broken engine would not.

use std::ops::ControlFlow;
use std::time::Duration;

use crate::algorithms::Algorithms;
use crate::contract::{
    Backend, BackendError, Capabilities, Ended, Enumeration, Found, Improved, Optimum, Outcome, SolveOptions,
    SolveStats, Visit,
};
use crate::ir::{Cmp, Constraint, Linear, PbFormula, Projection, Status};
use crate::sat::varisat::Varisat;

/// The ways [`Liar`] lies.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lie {
    /// "No solution" on a formula that has one (solve and optimise).
    UnsatOnSat,
    /// A model that breaks a row: the complement of a true one (solve), or one better than
    /// the optimum, claimed optimal (optimise).
    BrokenModel,
    /// The optimum's model, then a worse one claimed as optimal: the value the claim stands
    /// on is not the one the engine found (optimise; solve is honest).
    WrongValue,
    /// A model that satisfies every row but is not optimal, claimed optimal (optimise;
    /// solve is honest).
    NotOptimal,
    /// Its enumeration reports one solution and says it is complete: "unique" where there
    /// are more (enumerate; solve and optimise are honest).
    FalseUnique,
    /// Sleeps past the time limit, then claims: no solution (solve), a model and its
    /// optimality (optimise), one solution and a complete enumeration (enumerate).
    Late,
    /// Its enumeration lists every solution but the last and says there are no more
    /// (solve and optimise are honest).
    FalseComplete,
    /// Its enumeration offers the first solution again after the second, then the rest, and
    /// says it is complete (solve and optimise are honest).
    Duplicate,
}

/// An engine that lies in one way ([`Lie`]).
#[derive(Debug, Clone, Copy)]
pub struct Liar {
    pub lie: Lie,
}

impl Liar {
    pub fn unsat_on_sat() -> Liar {
        Liar { lie: Lie::UnsatOnSat }
    }
    pub fn broken_model() -> Liar {
        Liar { lie: Lie::BrokenModel }
    }
    pub fn wrong_value() -> Liar {
        Liar { lie: Lie::WrongValue }
    }
    pub fn not_optimal() -> Liar {
        Liar { lie: Lie::NotOptimal }
    }
    pub fn false_unique() -> Liar {
        Liar { lie: Lie::FalseUnique }
    }
    pub fn late() -> Liar {
        Liar { lie: Lie::Late }
    }

    /// The lies an enumeration tells (`--all`, `--unique`): a false "no more solutions",
    /// a solution offered twice, a model that breaks a row among good ones, and a claim
    /// after the time limit.
    pub const ENUMERATION: [Lie; 5] = [
        Lie::FalseComplete,
        Lie::FalseUnique,
        Lie::Duplicate,
        Lie::BrokenModel,
        Lie::Late,
    ];

    /// Every lie of a solve and an optimisation (the enumeration's own lies are honest
    /// there: see [`Liar::ENUMERATION`]).
    pub const ALL: [Lie; 6] = [
        Lie::UnsatOnSat,
        Lie::BrokenModel,
        Lie::WrongValue,
        Lie::NotOptimal,
        Lie::FalseUnique,
        Lie::Late,
    ];
}

/// The truth about `f` from an honest engine, without the time limit (the liar must know
/// it to bend it).
fn truth(f: &PbFormula) -> Result<Outcome, BackendError> {
    Varisat.solve(f, &SolveOptions::default())
}

/// The honest optimum's model of `f` (`None` without a solution).
fn optimum(f: &PbFormula) -> Result<Option<Vec<bool>>, BackendError> {
    let mut best = None;
    Varisat.optimise(f, &SolveOptions::default(), &mut |a: &[bool]| {
        best = Some(a.to_vec());
        ControlFlow::Continue(())
    })?;
    Ok(best)
}

/// A model of `f` whose objective is at least `at_least`, if there is one.
fn worse_than(f: &PbFormula, at_least: i64) -> Result<Option<Vec<bool>>, BackendError> {
    let Some(obj) = f.objective() else { return Ok(None) };
    let mut g = f.clone();
    g.take_objective();
    let negated = obj.iter().map(|&(c, l)| (-c, l)).collect();
    g.add(
        "the liar's worse model",
        Constraint::Linear(Linear::new(negated, Cmp::Le, -at_least)),
    );
    Ok(truth(&g)?.assignment)
}

/// Sleeps until a little past the time limit of `opts` (at once without one).
fn sleep_past_limit(opts: &SolveOptions) {
    if let Some(left) = opts.deadline().remaining() {
        // Past the grace the run path gives an engine that stops at its next look at the
        // clock: later than any honest engine answers.
        std::thread::sleep(left + crate::budget::GRACE + Duration::from_millis(100));
    }
}

fn said(status: Status, assignment: Option<Vec<bool>>) -> Outcome {
    Outcome {
        status,
        assignment,
        stats: SolveStats::default(),
    }
}

impl Backend for Liar {
    fn name(&self) -> &'static str {
        "liar"
    }

    fn capabilities(&self) -> Capabilities {
        Capabilities {
            time_limit: true,
            interrupt: true,
            assumptions: false,
            incremental: false,
            rhs_changes: false,
            proof: false,
            seed: false,
            parallel: false,
        }
    }

    fn solve(&mut self, f: &PbFormula, opts: &SolveOptions) -> Result<Outcome, BackendError> {
        let honest = truth(f)?;
        Ok(match self.lie {
            Lie::UnsatOnSat => said(Status::Unsat, None),
            Lie::BrokenModel => match honest.assignment {
                Some(a) => {
                    // The complement of a model, or of nothing if that holds too.
                    let flipped: Vec<bool> = a.iter().map(|b| !b).collect();
                    let broken = if f.evaluate(&flipped).is_err() {
                        flipped
                    } else {
                        (0..a.len()).map(|_| false).collect()
                    };
                    said(Status::Sat, Some(broken))
                }
                None => said(Status::Sat, Some(vec![true; f.num_vars() as usize])),
            },
            Lie::Late => {
                sleep_past_limit(opts);
                said(Status::Unsat, None)
            }
            Lie::WrongValue | Lie::NotOptimal | Lie::FalseUnique | Lie::FalseComplete | Lie::Duplicate => honest,
        })
    }

    fn optimise_natively(
        &mut self,
        f: &PbFormula,
        opts: &SolveOptions,
        improved: &mut Improved<'_>,
    ) -> Option<Result<Optimum, BackendError>> {
        Some(self.optimise_here(f, opts, improved))
    }

    fn enumerate_natively(
        &mut self,
        f: &PbFormula,
        projection: &Projection,
        opts: &SolveOptions,
        visit: &mut Visit<'_>,
    ) -> Option<Result<Enumeration, BackendError>> {
        Some(self.enumerate_here(f, projection, opts, visit))
    }
}

impl Liar {
    /// The native way of [`Backend::enumerate_natively`], which always answers.
    fn enumerate_here(
        &mut self,
        f: &PbFormula,
        projection: &Projection,
        opts: &SolveOptions,
        visit: &mut Visit<'_>,
    ) -> Result<Enumeration, BackendError> {
        match self.lie {
            Lie::FalseUnique | Lie::Late => {
                if self.lie == Lie::Late {
                    sleep_past_limit(opts);
                }
                let honest = truth(f)?;
                if let Some(a) = &honest.assignment {
                    let _ = visit(Found {
                        assignment: a,
                        engine: "liar",
                    });
                }
                Ok(Enumeration {
                    ended: Ended::Complete,
                    stats: SolveStats::default(),
                })
            }
            Lie::FalseComplete | Lie::Duplicate | Lie::BrokenModel => {
                let all = every(f, projection)?;
                let told: Vec<Vec<bool>> = match self.lie {
                    Lie::FalseComplete => all[..all.len().saturating_sub(1)].to_vec(),
                    Lie::Duplicate if all.len() >= 2 => {
                        let mut t = vec![all[0].clone(), all[1].clone(), all[0].clone()];
                        t.extend(all[2..].iter().cloned());
                        t
                    }
                    Lie::BrokenModel => {
                        // A good model, then a model that breaks a row, then the rest.
                        let broken: Vec<bool> = all.first().map_or_else(
                            || vec![true; f.num_vars() as usize],
                            |a| {
                                let flipped: Vec<bool> = a.iter().map(|b| !b).collect();
                                if f.evaluate(&flipped).is_err() {
                                    flipped
                                } else {
                                    vec![false; a.len()]
                                }
                            },
                        );
                        let mut t: Vec<Vec<bool>> = all.iter().take(1).cloned().collect();
                        t.push(broken);
                        t.extend(all.iter().skip(1).cloned());
                        t
                    }
                    _ => all,
                };
                for a in &told {
                    if visit(Found {
                        assignment: a,
                        engine: "liar",
                    })
                    .is_break()
                    {
                        return Ok(Enumeration {
                            ended: Ended::Stopped,
                            stats: SolveStats::default(),
                        });
                    }
                }
                Ok(Enumeration {
                    ended: Ended::Complete,
                    stats: SolveStats::default(),
                })
            }
            _ => crate::algorithms::by_blocking(self, f, projection, opts, visit),
        }
    }
}

/// Every solution of `f` on `projection`, from an honest engine (the formulas the liar
/// lies about have a few).
fn every(f: &PbFormula, projection: &Projection) -> Result<Vec<Vec<bool>>, BackendError> {
    let mut all = Vec::new();
    crate::algorithms::by_blocking(&mut Varisat, f, projection, &SolveOptions::default(), &mut |x| {
        all.push(x.assignment.to_vec());
        ControlFlow::Continue(())
    })?;
    Ok(all)
}

impl Liar {
    /// The native way of [`Backend::optimise_natively`], which always answers.
    fn optimise_here(
        &mut self,
        f: &PbFormula,
        opts: &SolveOptions,
        improved: &mut Improved<'_>,
    ) -> Result<Optimum, BackendError> {
        let claim = |status| Optimum {
            status,
            optimal: true,
            stats: SolveStats::default(),
        };
        let Some(best) = optimum(f)? else {
            return Ok(claim(Status::Unsat));
        };
        let value = f.objective_value(&best).unwrap_or(0);
        match self.lie {
            Lie::UnsatOnSat => Ok(claim(Status::Unsat)),
            Lie::BrokenModel => {
                // A model that breaks a row and looks better than the optimum: all false,
                // or the optimum's complement.
                let zeros = vec![false; best.len()];
                let flipped: Vec<bool> = best.iter().map(|b| !b).collect();
                let broken = [zeros, flipped]
                    .into_iter()
                    .find(|a| f.evaluate(a).is_err())
                    .unwrap_or_else(|| vec![true; best.len()]);
                let _ = improved(&broken);
                Ok(claim(Status::Sat))
            }
            Lie::WrongValue => {
                let _ = improved(&best);
                if let Some(worse) = worse_than(f, value + 1)? {
                    let _ = improved(&worse);
                }
                Ok(claim(Status::Sat))
            }
            Lie::NotOptimal => {
                let worse = worse_than(f, value + 1)?.unwrap_or(best);
                let _ = improved(&worse);
                Ok(claim(Status::Sat))
            }
            Lie::FalseUnique | Lie::FalseComplete | Lie::Duplicate => {
                let _ = improved(&best);
                Ok(claim(Status::Sat))
            }
            Lie::Late => {
                sleep_past_limit(opts);
                let _ = improved(&best);
                Ok(claim(Status::Sat))
            }
        }
    }
}

/// The formula the liar's tests lie about: exactly two of four items, minimising their cost
/// 3, 5, 4, 6. The optimum is 7, six pairs are solutions (values 7 to 11), and the
/// equality row keeps `mitm` among the engines that take it.
pub fn two_of_four_items() -> PbFormula {
    let mut f = PbFormula::new(4);
    let x = |i| crate::ir::Lit::new(crate::ir::Var(i), true);
    f.add(
        "two items",
        Constraint::Linear(Linear::new((0..4).map(|i| (1, x(i))).collect(), Cmp::Eq, 2)),
    );
    f.set_objective(Some(vec![(3, x(0)), (5, x(1)), (4, x(2)), (6, x(3))]));
    f
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each lie is told as it says: the liar is useful only if it lies.
    #[test]
    fn each_lie_is_a_lie() {
        let f = two_of_four_items();
        let opts = SolveOptions::default();
        let models = |mut liar: Liar| {
            let mut seen = Vec::new();
            let o = liar
                .optimise(&f, &opts, &mut |a: &[bool]| {
                    seen.push(a.to_vec());
                    ControlFlow::Continue(())
                })
                .unwrap();
            (o, seen)
        };
        assert_eq!(Liar::unsat_on_sat().solve(&f, &opts).unwrap().status, Status::Unsat);
        let broken = Liar::broken_model().solve(&f, &opts).unwrap();
        assert!(f.evaluate(broken.assignment.as_ref().unwrap()).is_err());
        let (o, seen) = models(Liar::broken_model());
        assert!(o.optimal && f.evaluate(seen.last().unwrap()).is_err());
        let (o, seen) = models(Liar::wrong_value());
        let values: Vec<i64> = seen.iter().map(|a| f.objective_value(a).unwrap()).collect();
        assert!(o.optimal && values[0] == 7 && values[1] > 7, "{values:?}");
        let (o, seen) = models(Liar::not_optimal());
        assert!(o.optimal && f.evaluate(&seen[0]).is_ok() && f.objective_value(&seen[0]).unwrap() > 7);
        let mut n = 0;
        let e = Liar::false_unique()
            .enumerate(&f, &Projection::all(&f), &opts, &mut |_| {
                n += 1;
                ControlFlow::Continue(())
            })
            .unwrap();
        assert_eq!((n, e.ended), (1, Ended::Complete));
        // The enumeration's lies: one solution short, one twice, one broken among six.
        let told = |lie| {
            let mut seen: Vec<Vec<bool>> = Vec::new();
            let e = Liar { lie }
                .enumerate(&f, &Projection::all(&f), &opts, &mut |x| {
                    seen.push(x.assignment.to_vec());
                    ControlFlow::Continue(())
                })
                .unwrap();
            (e.ended, seen)
        };
        let (ended, seen) = told(Lie::FalseComplete);
        assert_eq!((ended, seen.len()), (Ended::Complete, 5));
        let (ended, seen) = told(Lie::Duplicate);
        assert_eq!((ended, seen.len()), (Ended::Complete, 7));
        assert!(seen[2] == seen[0] && seen[1] != seen[0]);
        let (_, seen) = told(Lie::BrokenModel);
        assert!(f.evaluate(&seen[0]).is_ok() && f.evaluate(&seen[1]).is_err());
        let timed = SolveOptions {
            time_limit: Some(Duration::from_millis(20)),
            ..SolveOptions::default()
        }
        .clock_started();
        let out = Liar::late().solve(&f, &timed).unwrap();
        assert!(out.status == Status::Unsat && timed.deadline().passed());
    }
}
