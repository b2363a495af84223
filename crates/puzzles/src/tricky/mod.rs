//! Tricky Triple front-end (seed 004): every 3 consecutive white cells on a row, column or
//! diagonal hold exactly two equal symbols; black cells break lines.
//!
//! Model: one-hot symbol per white cell. Per triple, "not all equal" is one clause per
//! symbol (not all three hold it) and "not all different" is one clause per permutation of
//! the three symbols, nine clauses in all.
//!
//! The public boards are in `instances/trickytriple/`, with their provenance in `SOURCE.md`;
//! `instances/trickytriple/generated/` holds one generated puzzle for each of the sizes 7, 15,
//! 30 and 50 (seed 3).

// Grids are indexed by (row, column) throughout; index loops read better here.
#![allow(clippy::needless_range_loop)]

pub mod generate;
mod puzzle;
pub mod verify;

use std::fmt;

use crate::input::InputError;
use crate::input::grid_file::{RawGrid, parse_grid};
use crate::ir::{Constraint, Model, Var};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cell {
    Black,
    White(Option<u8>),
}

#[derive(Debug, Clone)]
pub struct Tricky {
    pub source: String,
    pub rows: usize,
    pub cols: usize,
    pub cells: Vec<Vec<Cell>>,
}

/// A variable: "cell (r, c) holds symbol s".
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Symbol {
    pub r: usize,
    pub c: usize,
    pub s: u8,
}

impl fmt::Display for Symbol {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "y_r{}c{}_{}", self.r + 1, self.c + 1, self.s)
    }
}

/// Directions of lines: across, down, and both diagonals.
pub const DIRECTIONS: [(isize, isize); 4] = [(0, 1), (1, 0), (1, 1), (1, -1)];

fn parse_cell(g: &RawGrid, r: usize, tok: &str) -> Result<Cell, InputError> {
    match tok {
        "X" | "x" => Ok(Cell::Black),
        "." => Ok(Cell::White(None)),
        "1" => Ok(Cell::White(Some(1))),
        "2" => Ok(Cell::White(Some(2))),
        "3" => Ok(Cell::White(Some(3))),
        t => Err(g.error(r, format!("unknown cell {t:?} (expected X, . or a symbol 1, 2, 3)"))),
    }
}

impl Tricky {
    pub fn parse(file: &str, text: &str) -> Result<Tricky, InputError> {
        let g = parse_grid(file, text, "trickytriple")?;
        let mut cells = Vec::with_capacity(g.rows);
        for (r, row) in g.tokens.iter().enumerate() {
            cells.push(
                row.iter()
                    .map(|t| parse_cell(&g, r, t))
                    .collect::<Result<Vec<_>, _>>()?,
            );
        }
        Ok(Tricky {
            source: file.to_string(),
            rows: g.rows,
            cols: g.cols,
            cells,
        })
    }

    pub fn empty(rows: usize, cols: usize, black: &[(usize, usize)]) -> Tricky {
        let mut cells = vec![vec![Cell::White(None); cols]; rows];
        for &(r, c) in black {
            cells[r][c] = Cell::Black;
        }
        Tricky {
            source: "generated".into(),
            rows,
            cols,
            cells,
        }
    }

    fn white(&self, r: isize, c: isize) -> bool {
        r >= 0
            && c >= 0
            && (r as usize) < self.rows
            && (c as usize) < self.cols
            && matches!(self.cells[r as usize][c as usize], Cell::White(_))
    }

    /// Every triple of consecutive white cells along a line.
    pub fn triples(&self) -> Vec<[(usize, usize); 3]> {
        let mut out = Vec::new();
        for r in 0..self.rows as isize {
            for c in 0..self.cols as isize {
                for (dr, dc) in DIRECTIONS {
                    if (0..3).all(|k| self.white(r + k * dr, c + k * dc)) {
                        out.push([0, 1, 2].map(|k| ((r + k * dr) as usize, (c + k * dc) as usize)));
                    }
                }
            }
        }
        out
    }

    pub fn compile(&self) -> Model<Symbol> {
        let mut m = Model::new();
        let mut vars = vec![vec![[None::<Var>; 4]; self.cols]; self.rows];
        for r in 0..self.rows {
            for c in 0..self.cols {
                let Cell::White(given) = self.cells[r][c] else { continue };
                let mut lits = Vec::new();
                for s in 1..=3u8 {
                    if given.is_none_or(|g| g == s) {
                        let v = m.var(Symbol { r, c, s });
                        vars[r][c][s as usize] = Some(v);
                        lits.push(v.pos());
                    }
                }
                m.add(format!("cell r{}c{}", r + 1, c + 1), Constraint::ExactlyOne(lits));
            }
        }
        const PERMS: [[usize; 3]; 6] = [[1, 2, 3], [1, 3, 2], [2, 1, 3], [2, 3, 1], [3, 1, 2], [3, 2, 1]];
        for t in self.triples() {
            let label = format!("triple r{}c{}-r{}c{}", t[0].0 + 1, t[0].1 + 1, t[2].0 + 1, t[2].1 + 1);
            // A clause that a missing option (a given elsewhere) already satisfies is left out.
            let mut forbid = |choice: [usize; 3], what: &str| {
                let mut lits = Vec::new();
                for k in 0..3 {
                    match vars[t[k].0][t[k].1][choice[k]] {
                        Some(v) => lits.push(v.negative()),
                        None => return,
                    }
                }
                m.add(format!("{label}: {what}"), Constraint::Clause(lits));
            };
            for s in 1..=3 {
                forbid([s, s, s], "not all equal");
            }
            for p in PERMS {
                forbid(p, "not all different");
            }
        }
        m
    }

    pub fn render(&self, grid: &[Vec<Option<u8>>]) -> String {
        let cells: Vec<Vec<String>> = (0..self.rows)
            .map(|r| {
                (0..self.cols)
                    .map(|c| match self.cells[r][c] {
                        Cell::Black => "X".to_string(),
                        Cell::White(given) => grid[r][c].or(given).map_or(".".to_string(), |s| s.to_string()),
                    })
                    .collect()
            })
            .collect();
        crate::input::grid_file::render("trickytriple", &cells)
    }
}
