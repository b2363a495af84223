//! `sokuc generate trickytriple`: puzzles with exactly one solution.
//!
//! 1. Black cells at random (about one in ten), then a random full solution: varisat under
//!    random one-cell hints drawn from the seed.
//! 2. Every white cell starts as a given. Givens are removed in random order, and a removal is kept
//!    only if the solution stays unique. Uniqueness is checked incrementally: one varisat solver holds the
//!    empty puzzle plus a clause excluding the known solution, and the givens are assumptions.
//!    "Unsatisfiable" means no other solution exists.

use std::collections::HashMap;

use varisat::{ExtendFormula, Solver};

use super::{Cell, Tricky};
use crate::encode::{self, Cnf};
use crate::rng::Rng;

/// A generated puzzle, its unique solution, and how many givens it kept.
pub struct Generated {
    pub puzzle: Tricky,
    pub solution: Vec<Vec<Option<u8>>>,
    pub givens: usize,
    pub checks: usize,
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
        let mut cnf = Cnf::new();
        // No budget: the model is plain clauses, as many as the grid (--size is bounded).
        let unbounded = encode::EncodeOptions {
            max_clauses: u64::MAX,
            ..Default::default()
        };
        encode::encode(&model.formula, unbounded, &mut cnf).expect("an unbounded budget is never spent");
        let mut solver = Solver::new();
        for c in cnf.clauses() {
            let lits: Vec<varisat::Lit> = c
                .iter()
                .map(|l| varisat::Lit::from_index(l.var().index(), l.is_positive()))
                .collect();
            solver.add_clause(&lits);
        }
        // A random solution: assume random symbols in about one cell in twenty, and halve the
        // hints while they conflict. (varisat itself is deterministic.)
        let vars: Vec<usize> = model.pool.iter().map(|(v, _)| v.index()).collect();
        let mut hints: Vec<varisat::Lit> = vars
            .iter()
            .filter(|_| rng.below(60) == 0)
            .map(|&v| varisat::Lit::from_index(v, true))
            .collect();
        let found = loop {
            solver.assume(&hints);
            if solver.solve().expect("no limits are set") {
                break true;
            }
            if hints.is_empty() {
                break false;
            }
            hints.truncate(hints.len() / 2);
        };
        if !found {
            continue; // this black pattern admits no solution: draw another
        }
        let model_lits = solver.model().expect("a model after sat");
        let mut a = vec![false; model.formula.num_vars as usize];
        for l in model_lits {
            if l.index() < a.len() {
                a[l.index()] = l.is_positive();
            }
        }
        let solution = crate::grid::decode(rows, cols, model.pool.iter().map(|(_, s)| (s.r, s.c, s.s)), &a);
        let var_of: HashMap<(usize, usize, u8), usize> =
            model.pool.iter().map(|(v, k)| ((k.r, k.c, k.s), v.index())).collect();
        let chosen: Vec<((usize, usize), varisat::Lit)> = (0..rows)
            .flat_map(|r| (0..cols).map(move |c| (r, c)))
            .filter_map(|(r, c)| {
                let s = solution[r][c]?;
                Some(((r, c), varisat::Lit::from_index(var_of[&(r, c, s)], true)))
            })
            .collect();
        let nogood: Vec<varisat::Lit> = chosen.iter().map(|(_, l)| !*l).collect();
        solver.add_clause(&nogood);
        let mut keep = vec![true; chosen.len()];
        let mut order: Vec<usize> = (0..chosen.len()).collect();
        rng.shuffle(&mut order);
        let mut checks = 0;
        for &k in &order {
            keep[k] = false;
            let assumptions: Vec<varisat::Lit> = chosen
                .iter()
                .zip(&keep)
                .filter(|(_, on)| **on)
                .map(|((_, l), _)| *l)
                .collect();
            solver.assume(&assumptions);
            checks += 1;
            let another = solver.solve().expect("no limits are set");
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
