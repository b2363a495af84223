//! `sokuc generate trickytriple`: a grid and a solution, and the givens that keep it unique.
//!
//! 1. Black cells at random (about one in ten), then a random full solution: the sat backend
//!    under random one-cell hints drawn from the seed.
//! 2. Every white cell starts as a given. Givens are removed in random order, and a removal is kept
//!    only if the solution stays unique. Uniqueness is checked incrementally: one session of the
//!    checking engine (varisat in `sokuc generate`) holds the empty puzzle plus a clause excluding
//!    the known solution, and the givens are assumptions. Only "unsatisfiable" (no other solution)
//!    drops a given; a second solution or no answer keeps it.
//!
//! The time limit and the interrupt of the options stop the generation between checks (and
//! inside a check, which then has no answer): the result is [`Made::Stopped`], and nothing is
//! claimed about any grid. What this module proves is only the engine's word; the caller
//! (`crate::generate::tricky`) checks the final grid once more through the run path, whose
//! gate gives the claim its evidence.
//!
//! varisat is deterministic, so the randomness of step 1 comes from the hints alone: the same
//! seed gives the same puzzle.

use std::collections::HashMap;

use super::{Cell, Tricky};
use crate::backend::algorithms::Algorithms;
use crate::backend::{Backend, BackendError, Session, SolveOptions, Status, sat::varisat::Varisat};
use crate::ir::{Lit, Var};
use crate::rng::Rng;

/// A generated puzzle, its solution, and how many givens it kept. That no other solution
/// exists is the checking engine's word only.
#[derive(Debug)]
pub struct Generated {
    pub puzzle: Tricky,
    pub solution: Vec<Vec<Option<u8>>>,
    pub givens: usize,
    pub checks: usize,
}

/// How a generation ended.
#[derive(Debug)]
pub enum Made {
    Done(Generated),
    /// The time limit or the interrupt came first (or the engine that finds the solution had
    /// no answer): no grid is made. `checks` were made before it.
    Stopped {
        checks: usize,
    },
}

/// The points of a generation where the caller's hook looks in, in this order (the tests set
/// the interrupt flag at each).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Step {
    /// Before anything is drawn.
    Start,
    /// A full solution was found; the removals come next.
    Solved,
    /// Before the `n`-th uniqueness check (from 1).
    Check(usize),
    /// After the last removal, before the caller's final check through the run path.
    Final,
}

/// One solve's answer.
enum Answer {
    Sat(Vec<bool>),
    Unsat,
    Unknown,
}

fn solve(session: &mut dyn Session, assumptions: &[Lit], opts: &SolveOptions) -> Result<Answer, BackendError> {
    let o = session.solve(assumptions, opts)?;
    Ok(match (o.status, o.assignment) {
        (Status::Sat, Some(a)) => Answer::Sat(a),
        // A "sat" without a model proves nothing; it is no answer.
        (Status::Sat, None) | (Status::Unknown, _) => Answer::Unknown,
        (Status::Unsat, _) => Answer::Unsat,
    })
}

/// A `rows` x `cols` grid from `seed` whose solution no check on `checker` could extend to a
/// second one. `opts` carry the time limit, the interrupt and the memory limit; `at` is
/// called at each [`Step`].
///
/// # Errors
///
/// What the engines return: a model past the memory limit, a solver's failure.
pub fn generate(
    rows: usize,
    cols: usize,
    seed: u64,
    black_percent: u32,
    checker: &mut dyn Backend,
    opts: &SolveOptions,
    at: &mut dyn FnMut(Step),
) -> Result<Made, BackendError> {
    // The model is plain clauses, as many as the grid (--size is bounded): no clause budget.
    // The memory limit, the time limit and the interrupt stay.
    let opts = SolveOptions {
        encode: crate::encode::EncodeOptions {
            max_clauses: u64::MAX,
            ..opts.encode
        },
        ..opts.clone()
    };
    let deadline = opts.deadline();
    let mut rng = Rng::new(seed ^ 0x5eed);
    at(Step::Start);
    loop {
        if deadline.passed() {
            return Ok(Made::Stopped { checks: 0 });
        }
        let black: Vec<(usize, usize)> = (0..rows)
            .flat_map(|r| (0..cols).map(move |c| (r, c)))
            .filter(|_| (rng.below(100) as u32) < black_percent)
            .collect();
        let empty = Tricky::empty(rows, cols, &black);
        let model = empty.compile();
        // A random solution: assume random symbols in about one cell in twenty, and halve the
        // hints while they conflict. (varisat itself is deterministic.)
        let mut hints: Vec<Lit> = model
            .pool
            .iter()
            .map(|(v, _)| v.pos())
            .filter(|_| rng.below(60) == 0)
            .collect();
        let found = {
            let mut sat = Varisat;
            let mut session = sat.session(&model.formula, &opts)?;
            loop {
                match solve(session.as_mut(), &hints, &opts)? {
                    Answer::Sat(a) => break Some(a),
                    Answer::Unknown => return Ok(Made::Stopped { checks: 0 }),
                    Answer::Unsat if hints.is_empty() => break None,
                    Answer::Unsat => hints.truncate(hints.len() / 2),
                }
            }
        };
        let Some(a) = found else {
            continue; // this black pattern admits no solution: draw another
        };
        // The pool names every variable's cell and symbol.
        let mut solution = vec![vec![None; cols]; rows];
        for (v, k) in model.pool.iter() {
            if a.get(v.index()).copied().unwrap_or(false) {
                solution[k.r][k.c] = Some(k.s);
            }
        }
        // The solution must be one before any given is removed against it.
        if let Err(e) = super::verify::verify(&empty, &solution) {
            return Err(BackendError::Solver {
                backend: "sat",
                message: format!("the solution found for the generator does not verify: {e}"),
            });
        }
        at(Step::Solved);
        let var_of: HashMap<(usize, usize, u8), Var> = model.pool.iter().map(|(v, k)| ((k.r, k.c, k.s), v)).collect();
        let chosen: Vec<((usize, usize), Lit)> = (0..rows)
            .flat_map(|r| (0..cols).map(move |c| (r, c)))
            .filter_map(|(r, c)| {
                let s = solution[r][c]?;
                Some(((r, c), var_of[&(r, c, s)].pos()))
            })
            .collect();
        let nogood: Vec<Lit> = chosen.iter().map(|(_, l)| !*l).collect();
        let mut session = checker.session(&model.formula, &opts)?;
        session.add_clause(&nogood)?;
        let mut keep = vec![true; chosen.len()];
        let mut order: Vec<usize> = (0..chosen.len()).collect();
        rng.shuffle(&mut order);
        let mut checks = 0;
        for &k in &order {
            at(Step::Check(checks + 1));
            if deadline.passed() {
                return Ok(Made::Stopped { checks });
            }
            keep[k] = false;
            let assumptions: Vec<Lit> = chosen
                .iter()
                .zip(&keep)
                .filter(|(_, on)| **on)
                .map(|((_, l), _)| *l)
                .collect();
            checks += 1;
            match solve(session.as_mut(), &assumptions, &opts)? {
                // Proven: without this given there is still no other solution.
                Answer::Unsat => {}
                // A second solution without it: it stays.
                Answer::Sat(_) => keep[k] = true,
                // Not known: it stays, and a passed deadline ends the generation.
                Answer::Unknown => {
                    keep[k] = true;
                    if deadline.passed() {
                        return Ok(Made::Stopped { checks });
                    }
                }
            }
        }
        let mut puzzle = empty.clone();
        let mut givens = 0;
        for (((r, c), _), &on) in chosen.iter().zip(&keep) {
            if on {
                puzzle.cells[*r][*c] = Cell::White(solution[*r][*c]);
                givens += 1;
            }
        }
        puzzle.source = format!("generated {rows}x{cols} seed {seed}");
        at(Step::Final);
        return Ok(Made::Done(Generated {
            puzzle,
            solution,
            givens,
            checks,
        }));
    }
}
