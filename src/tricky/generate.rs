//! `sokuc generate trickytriple`: puzzles with exactly one solution.
//!
//! 1. Black cells at random (about one in ten), then a random full solution: the sat backend
//!    under random one-cell hints drawn from the seed.
//! 2. Every white cell starts as a given. Givens are removed in random order, and a removal is kept
//!    only if the solution stays unique. Uniqueness is checked incrementally: one session of the
//!    sat backend (one varisat solver) holds the empty puzzle plus a clause excluding the known
//!    solution, and the givens are assumptions. "Unsatisfiable" means no other solution exists.
//!
//! varisat is deterministic, so the randomness of step 1 comes from the hints alone: the same
//! seed gives the same puzzle.

use std::collections::HashMap;

use super::{Cell, Tricky};
use crate::backend::algorithms::Algorithms;
use crate::backend::{Session, SolveOptions, Status, sat::varisat::Varisat};
use crate::encode;
use crate::ir::{Lit, Var};
use crate::rng::Rng;

/// A generated puzzle, its unique solution, and how many givens it kept.
#[derive(Debug)]
pub struct Generated {
    pub puzzle: Tricky,
    pub solution: Vec<Vec<Option<u8>>>,
    pub givens: usize,
    pub checks: usize,
}

/// One solve of the session without limits: the assignment if satisfiable.
fn solve(session: &mut dyn Session, assumptions: &[Lit]) -> Option<Vec<bool>> {
    let o = session
        .solve(assumptions, &SolveOptions::default())
        .expect("no limits are set");
    (o.status == Status::Sat).then(|| o.assignment.expect("an assignment after sat"))
}

pub fn generate(rows: usize, cols: usize, seed: u64, black_percent: u32) -> Generated {
    let mut rng = Rng::new(seed ^ 0x5eed);
    loop {
        let black: Vec<(usize, usize)> = (0..rows)
            .flat_map(|r| (0..cols).map(move |c| (r, c)))
            .filter(|_| (rng.below(100) as u32) < black_percent)
            .collect();
        let empty = Tricky::empty(rows, cols, &black);
        let model = empty.compile();
        // No budget: the model is plain clauses, as many as the grid (--size is bounded).
        let opts = SolveOptions {
            encode: encode::EncodeOptions {
                max_clauses: u64::MAX,
                ..Default::default()
            },
            ..Default::default()
        };
        let mut sat = Varisat;
        let mut session = sat
            .session(&model.formula, &opts)
            .expect("no limits are set and the grid is bounded");
        // A random solution: assume random symbols in about one cell in twenty, and halve the
        // hints while they conflict. (varisat itself is deterministic.)
        let mut hints: Vec<Lit> = model
            .pool
            .iter()
            .map(|(v, _)| v.pos())
            .filter(|_| rng.below(60) == 0)
            .collect();
        let found = loop {
            if let Some(a) = solve(session.as_mut(), &hints) {
                break Some(a);
            }
            if hints.is_empty() {
                break None;
            }
            hints.truncate(hints.len() / 2);
        };
        let Some(a) = found else {
            continue; // this black pattern admits no solution: draw another
        };
        // The pool names every variable's cell and symbol.
        let mut solution = vec![vec![None; cols]; rows];
        for (v, k) in model.pool.iter() {
            if a[v.index()] {
                solution[k.r][k.c] = Some(k.s);
            }
        }
        let var_of: HashMap<(usize, usize, u8), Var> = model.pool.iter().map(|(v, k)| ((k.r, k.c, k.s), v)).collect();
        let chosen: Vec<((usize, usize), Lit)> = (0..rows)
            .flat_map(|r| (0..cols).map(move |c| (r, c)))
            .filter_map(|(r, c)| {
                let s = solution[r][c]?;
                Some(((r, c), var_of[&(r, c, s)].pos()))
            })
            .collect();
        let nogood: Vec<Lit> = chosen.iter().map(|(_, l)| !*l).collect();
        session.add_clause(&nogood).expect("literals of the model");
        let mut keep = vec![true; chosen.len()];
        let mut order: Vec<usize> = (0..chosen.len()).collect();
        rng.shuffle(&mut order);
        let mut checks = 0;
        for &k in &order {
            keep[k] = false;
            let assumptions: Vec<Lit> = chosen
                .iter()
                .zip(&keep)
                .filter(|(_, on)| **on)
                .map(|((_, l), _)| *l)
                .collect();
            checks += 1;
            let another = solve(session.as_mut(), &assumptions).is_some();
            if another {
                keep[k] = true; // without this given the puzzle has a second solution
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
        return Generated {
            puzzle,
            solution,
            givens,
            checks,
        };
    }
}
