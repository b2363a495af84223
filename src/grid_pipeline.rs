//! The pipeline for grid puzzles (Kakuro, Tricky Triple): compile -> solve on any backend
//! -> check the IR -> decode -> verify, and optionally a second solve with the first answer
//! excluded (a no-good clause) to prove the solution unique or show another one.

use std::path::Path;

use crate::backend::{Backend, BackendError, SolveOptions, SolveStats, Status};
use crate::input::{self, InputError};
use crate::ir::{Constraint, PbFormula};
use crate::kakuro::Kakuro;
use crate::tricky::Tricky;
use crate::verify;

/// A filled grid: `grid[r][c]` is the digit or symbol of a white cell, None elsewhere.
pub type Grid = Vec<Vec<Option<u8>>>;

#[derive(Debug, Clone)]
pub enum GridPuzzle {
    Kakuro(Kakuro),
    Tricky(Tricky),
}

/// A compiled grid puzzle: the formula, variable names, and the (row, col, value) behind
/// each variable, which is all decoding needs.
#[derive(Debug, Clone)]
pub struct GridModel {
    pub formula: PbFormula,
    pub names: Vec<String>,
    pub cells: Vec<(usize, usize, u8)>,
}

#[derive(Debug, Clone)]
pub struct GridResult {
    pub status: Status,
    pub grid: Option<Grid>,
    pub verified: bool,
    /// Some(true): proven unique; Some(false): `second` is another solution; None: not asked
    /// or not decided.
    pub unique: Option<bool>,
    pub second: Option<Grid>,
    pub stats: SolveStats,
    pub backend: String,
}

#[derive(Debug, thiserror::Error)]
pub enum GridError {
    #[error(transparent)]
    Backend(#[from] BackendError),
    #[error("internal error: the {backend} answer {detail}")]
    Wrong { backend: String, detail: String },
}

impl GridPuzzle {
    /// Reads `.kakuro` or `.tt` files.
    pub fn load(path: &Path) -> Result<GridPuzzle, InputError> {
        let name = path.display().to_string();
        let text = input::read_text(path)?;
        match path.extension().and_then(|e| e.to_str()) {
            Some("kakuro") => Ok(GridPuzzle::Kakuro(Kakuro::parse(&name, &text)?)),
            Some("tt") => Ok(GridPuzzle::Tricky(Tricky::parse(&name, &text)?)),
            _ => Err(InputError::new(name, None, "not a grid puzzle (.kakuro or .tt)")),
        }
    }

    pub fn is_grid_file(path: &Path) -> bool {
        matches!(path.extension().and_then(|e| e.to_str()), Some("kakuro" | "tt"))
    }

    pub fn kind(&self) -> &'static str {
        match self {
            GridPuzzle::Kakuro(_) => "kakuro",
            GridPuzzle::Tricky(_) => "trickytriple",
        }
    }

    pub fn source(&self) -> &str {
        match self {
            GridPuzzle::Kakuro(k) => &k.source,
            GridPuzzle::Tricky(t) => &t.source,
        }
    }

    pub fn compile(&self) -> GridModel {
        match self {
            GridPuzzle::Kakuro(k) => {
                let m = k.compile();
                GridModel {
                    names: m.names(),
                    cells: m.pool.iter().map(|(_, d)| (d.r, d.c, d.d)).collect(),
                    formula: m.formula,
                }
            }
            GridPuzzle::Tricky(t) => GridModel::of_tricky(&t.compile()),
        }
    }

    fn size(&self) -> (usize, usize) {
        match self {
            GridPuzzle::Kakuro(k) => (k.rows, k.cols),
            GridPuzzle::Tricky(t) => (t.rows, t.cols),
        }
    }

    pub fn verify(&self, grid: &Grid) -> Result<(), String> {
        match self {
            GridPuzzle::Kakuro(k) => verify::kakuro::verify(k, grid),
            GridPuzzle::Tricky(t) => verify::tricky::verify(t, grid),
        }
    }

    pub fn render(&self, grid: &Grid) -> String {
        match self {
            GridPuzzle::Kakuro(k) => k.render(grid),
            GridPuzzle::Tricky(t) => t.render(grid),
        }
    }
}

impl GridModel {
    pub fn of_tricky(m: &crate::ir::Model<crate::tricky::Symbol>) -> GridModel {
        GridModel {
            names: m.names(),
            cells: m.pool.iter().map(|(_, s)| (s.r, s.c, s.s)).collect(),
            formula: m.formula.clone(),
        }
    }

    pub fn decode(&self, rows: usize, cols: usize, a: &[bool]) -> Grid {
        let mut g = vec![vec![None; cols]; rows];
        for (i, &(r, c, v)) in self.cells.iter().enumerate() {
            if a.get(i).copied().unwrap_or(false) {
                g[r][c] = Some(v);
            }
        }
        g
    }
}

/// A checked backend answer: status, the grid with its assignment (if sat), statistics.
type Checked = (Status, Option<(Grid, Vec<bool>)>, SolveStats);

/// Runs the backend, then checks the answer against the IR and the puzzle's verifier.
fn solve_checked(
    p: &GridPuzzle,
    m: &GridModel,
    formula: &PbFormula,
    b: &mut dyn Backend,
    opts: &SolveOptions,
) -> Result<Checked, GridError> {
    let out = b.solve(formula, opts)?;
    let wrong = |detail: String| GridError::Wrong {
        backend: b.name().to_string(),
        detail,
    };
    if out.status != Status::Sat {
        return Ok((out.status, None, out.stats));
    }
    let mut a = out.assignment.unwrap_or_default();
    a.resize(formula.num_vars as usize, false);
    formula
        .evaluate(&a)
        .map_err(|v| wrong(format!("violates the model: {v}")))?;
    let (rows, cols) = p.size();
    let g = m.decode(rows, cols, &a);
    p.verify(&g).map_err(|e| wrong(format!("failed verification: {e}")))?;
    Ok((Status::Sat, Some((g, a)), out.stats))
}

pub fn solve(p: &GridPuzzle, b: &mut dyn Backend, opts: &SolveOptions, unique: bool) -> Result<GridResult, GridError> {
    // One time limit for compiling and both solves: the uniqueness check gets what is left.
    let opts = &opts.clock_started();
    let t0 = std::time::Instant::now();
    let m = p.compile();
    let compile_ms = t0.elapsed().as_secs_f64() * 1e3;
    let (status, found, mut stats) = solve_checked(p, &m, &m.formula, b, opts)?;
    stats.build_ms += compile_ms;
    let mut result = GridResult {
        status,
        grid: None,
        verified: false,
        unique: None,
        second: None,
        stats,
        backend: b.name().to_string(),
    };
    let Some((grid, a)) = found else {
        return Ok(result);
    };
    result.grid = Some(grid);
    result.verified = true;
    if unique {
        // No-good: at least one cell differs from the first solution.
        let mut f = m.formula.clone();
        let lits = (0..m.cells.len())
            .filter(|&i| a[i])
            .map(|i| crate::ir::Var(i as u32).negative())
            .collect();
        f.add("another solution", Constraint::Clause(lits));
        let (s2, found2, st2) = solve_checked(p, &m, &f, b, opts)?;
        result.stats.build_ms += st2.build_ms;
        result.stats.solve_ms += st2.solve_ms;
        result.unique = match s2 {
            Status::Unsat => Some(true),
            Status::Sat => Some(false),
            Status::Unknown => None,
        };
        result.second = found2.map(|(g, _)| g);
    }
    Ok(result)
}
