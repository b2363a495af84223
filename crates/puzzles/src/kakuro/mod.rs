//! Kakuro front-end (seed 002): parse and check the grid, compile it to the IR, decode.
//!
//! Model: one-hot digits per white cell (exactly one of 1..9), and per run the clue as a
//! linear sum and all-different as one at-most-one per digit. Digits that cannot occur in
//! any combination of distinct digits with the run's length and sum are left out of the
//! cell's options, so every backend starts from the same small domains.
//!
//! Malformed grids are rejected with file, line and reason (exit 2): ragged rows, a wrong row
//! count, unknown cells, a clue with no run, a run longer than 9, a clue impossible for its run
//! length, and a white cell outside an across or down run. The public boards are in
//! `instances/kakuro/`, with their provenance in `SOURCE.md` and their solutions beside them.

// Grids are indexed by (row, column) throughout; index loops read better here.
#![allow(clippy::needless_range_loop)]

mod puzzle;
pub mod verify;

use std::fmt;

use crate::input::InputError;
use crate::input::grid_file::{RawGrid, parse_grid};
use crate::ir::{Cmp, Constraint, Linear, Model, Var};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cell {
    Black,
    /// Clue cell: sum of the run going down (from the cell below), and across (from the cell
    /// to the right).
    Clue {
        down: Option<u32>,
        across: Option<u32>,
    },
    /// White cell, with a given digit if the file has one.
    White(Option<u8>),
}

/// A run: its clue and its cells (row, col), in order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Run {
    pub sum: u32,
    pub cells: Vec<(usize, usize)>,
    pub across: bool,
    /// The clue cell.
    pub clue: (usize, usize),
}

#[derive(Debug, Clone)]
pub struct Kakuro {
    pub source: String,
    pub rows: usize,
    pub cols: usize,
    pub cells: Vec<Vec<Cell>>,
    pub runs: Vec<Run>,
}

/// A variable: "cell (r, c) holds digit d".
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Digit {
    pub r: usize,
    pub c: usize,
    pub d: u8,
}

impl fmt::Display for Digit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "x_r{}c{}_{}", self.r + 1, self.c + 1, self.d)
    }
}

/// Smallest and largest sum of `len` distinct digits.
fn sum_range(len: usize) -> (u32, u32) {
    let len = len as u32;
    (len * (len + 1) / 2, len * (19 - len) / 2)
}

/// Digits that appear in some set of `len` distinct digits 1..9 adding up to `sum`.
fn possible_digits(len: usize, sum: u32) -> [bool; 10] {
    let mut out = [false; 10];
    for mask in 0u32..(1 << 9) {
        if mask.count_ones() as usize != len {
            continue;
        }
        let s: u32 = (0..9).filter(|i| mask >> i & 1 == 1).map(|i| i + 1).sum();
        if s == sum {
            for i in 0..9 {
                if mask >> i & 1 == 1 {
                    out[i as usize + 1] = true;
                }
            }
        }
    }
    out
}

fn parse_cell(g: &RawGrid, r: usize, tok: &str) -> Result<Cell, InputError> {
    let num = |s: &str, what: &str| -> Result<Option<u32>, InputError> {
        if s.is_empty() {
            return Ok(None);
        }
        s.parse::<u32>()
            .ok()
            .filter(|&n| n <= 45)
            .map(Some)
            .ok_or_else(|| g.error(r, format!("bad {what} clue {s:?} in {tok:?} (a number from 1 to 45)")))
    };
    Ok(match tok {
        "X" | "x" => Cell::Black,
        "." => Cell::White(None),
        t if t.len() == 1 && matches!(t.as_bytes()[0], b'1'..=b'9') => Cell::White(Some(t.as_bytes()[0] - b'0')),
        t => match t.split_once('\\') {
            Some((d, a)) => Cell::Clue {
                down: num(d, "down")?,
                across: num(a, "across")?,
            },
            None => {
                return Err(g.error(
                    r,
                    format!("unknown cell {t:?} (expected X, ., a digit 1-9, or a clue like 23\\16)"),
                ));
            }
        },
    })
}

impl Kakuro {
    pub fn parse(file: &str, text: &str) -> Result<Kakuro, InputError> {
        let g = parse_grid(file, text, "kakuro")?;
        let mut cells = Vec::with_capacity(g.rows);
        for (r, row) in g.tokens.iter().enumerate() {
            cells.push(
                row.iter()
                    .map(|t| parse_cell(&g, r, t))
                    .collect::<Result<Vec<_>, _>>()?,
            );
        }
        let mut runs = Vec::new();
        let mut covered = vec![vec![[false; 2]; g.cols]; g.rows];
        for r in 0..g.rows {
            for c in 0..g.cols {
                let Cell::Clue { down, across } = cells[r][c] else {
                    continue;
                };
                for (sum, across_dir) in [(across, true), (down, false)] {
                    let Some(sum) = sum else { continue };
                    let mut run = Vec::new();
                    let (mut rr, mut cc) = (r, c);
                    loop {
                        if across_dir {
                            cc += 1
                        } else {
                            rr += 1
                        }
                        if rr >= g.rows || cc >= g.cols || !matches!(cells[rr][cc], Cell::White(_)) {
                            break;
                        }
                        run.push((rr, cc));
                    }
                    let dir = if across_dir { "across" } else { "down" };
                    let at = format!("clue at row {}, column {}", r + 1, c + 1);
                    if run.is_empty() {
                        return Err(g.error(r, format!("{at}: {dir} sum {sum} but no white cell follows")));
                    }
                    if run.len() > 9 {
                        return Err(g.error(r, format!("{at}: the {dir} run has {} cells (at most 9)", run.len())));
                    }
                    let (lo, hi) = sum_range(run.len());
                    if sum < lo || sum > hi {
                        return Err(g.error(
                            r,
                            format!(
                                "{at}: {dir} sum {sum} is impossible for {} distinct digits ({lo} to {hi})",
                                run.len()
                            ),
                        ));
                    }
                    for &(a, b) in &run {
                        covered[a][b][across_dir as usize] = true;
                    }
                    runs.push(Run {
                        sum,
                        cells: run,
                        across: across_dir,
                        clue: (r, c),
                    });
                }
            }
        }
        for r in 0..g.rows {
            for c in 0..g.cols {
                if matches!(cells[r][c], Cell::White(_)) {
                    let [down, across] = covered[r][c];
                    if !down || !across {
                        let which = if !across { "across" } else { "down" };
                        return Err(g.error(
                            r,
                            format!("white cell at row {}, column {} is in no {which} run", r + 1, c + 1),
                        ));
                    }
                }
            }
        }
        Ok(Kakuro {
            source: file.to_string(),
            rows: g.rows,
            cols: g.cols,
            cells,
            runs,
        })
    }

    /// The IR model. Each white cell's options are the digits its runs allow.
    pub fn compile(&self) -> Model<Digit> {
        let mut m = Model::new();
        let mut allowed = vec![vec![[true; 10]; self.cols]; self.rows];
        for run in &self.runs {
            let p = possible_digits(run.cells.len(), run.sum);
            for &(r, c) in &run.cells {
                for d in 1..=9 {
                    allowed[r][c][d] &= p[d];
                }
            }
        }
        let mut vars: Vec<Vec<Vec<Option<Var>>>> = vec![vec![vec![None; 10]; self.cols]; self.rows];
        for r in 0..self.rows {
            for c in 0..self.cols {
                let Cell::White(given) = self.cells[r][c] else { continue };
                let mut lits = Vec::new();
                for d in 1..=9u8 {
                    if allowed[r][c][d as usize] && given.is_none_or(|g| g == d) {
                        let v = m.var(Digit { r, c, d });
                        vars[r][c][d as usize] = Some(v);
                        lits.push(v.pos());
                    }
                }
                // An empty list is an unsatisfiable exactly-one: the clues leave this cell no digit.
                m.add(format!("cell r{}c{}", r + 1, c + 1), Constraint::ExactlyOne(lits));
            }
        }
        for run in &self.runs {
            let (cr, cc) = run.clue;
            let name = format!(
                "{} run at r{}c{} = {}",
                if run.across { "across" } else { "down" },
                cr + 1,
                cc + 1,
                run.sum
            );
            let mut terms = Vec::new();
            for &(r, c) in &run.cells {
                for d in 1..=9 {
                    if let Some(v) = vars[r][c][d] {
                        terms.push((d as i64, v.pos()));
                    }
                }
            }
            m.add(
                format!("{name}: sum"),
                Constraint::Linear(Linear::new(terms, Cmp::Eq, run.sum as i64)),
            );
            for d in 1..=9 {
                let lits: Vec<_> = run
                    .cells
                    .iter()
                    .filter_map(|&(r, c)| vars[r][c][d])
                    .map(|v| v.pos())
                    .collect();
                if lits.len() > 1 {
                    m.add(format!("{name}: one {d}"), Constraint::AtMostOne(lits));
                }
            }
        }
        m
    }

    /// The solution-file form of a filled grid.
    pub fn render(&self, grid: &[Vec<Option<u8>>]) -> String {
        let cells: Vec<Vec<String>> = (0..self.rows)
            .map(|r| {
                (0..self.cols)
                    .map(|c| match self.cells[r][c] {
                        Cell::Black => "X".to_string(),
                        Cell::Clue { down, across } => format!(
                            "{}\\{}",
                            down.map_or(String::new(), |x| x.to_string()),
                            across.map_or(String::new(), |x| x.to_string())
                        ),
                        Cell::White(given) => grid[r][c].or(given).map_or(".".to_string(), |d| d.to_string()),
                    })
                    .collect()
            })
            .collect();
        crate::input::grid_file::render("kakuro", &cells)
    }
}
