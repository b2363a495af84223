//! What the grid puzzles (Kakuro, Tricky Triple) share above their parsers: the filled grid,
//! its text for an answer, its JSON, reading a solution back, and the [`Puzzle`]
//! implementation itself. A grid front-end implements the smaller [`GridRules`] in its folder
//! (its parser, compiler, verifier and solution-file form) and gets [`Puzzle`] from here.
//!
//! The text answer is the grid in the solution-file form, with comment lines for uniqueness and
//! verification, so that an answer is itself a valid solution file. `--unique` solves again
//! with a no-good that excludes the first answer (in one session where the backend has one,
//! `encodings/trickytriple.md`): unsat proves uniqueness, and a second solution is printed as
//! `#` lines. The JSON has `grid`, `unique` (true, false, or null when not asked) and
//! `second_grid`. Neither front-end is known to any backend: both compile to the same IR.

use std::fmt::{Display, Write};
use std::hash::Hash;

use serde::Deserialize;
use serde_json::{Value, json};

use crate::input::InputError;
use crate::ir::{Model, PbFormula, Status};
use crate::puzzle::{Answer, CompileOptions, Invalid, Puzzle, Refutation};

/// A filled grid: `grid[r][c]` is the digit or symbol of a white cell, None elsewhere.
pub type Grid = Vec<Vec<Option<u8>>>;

/// Decodes an assignment: every true variable puts its value in its cell. `cells` gives
/// the (row, column, value) of each variable, in variable order.
pub fn decode(rows: usize, cols: usize, cells: impl Iterator<Item = (usize, usize, u8)>, a: &[bool]) -> Grid {
    let mut g = vec![vec![None; cols]; rows];
    for (i, (r, c, v)) in cells.enumerate() {
        if a.get(i).copied().unwrap_or(false) {
            g[r][c] = Some(v);
        }
    }
    g
}

/// The text of an answer: the filled grid in the solution-file form (`render`), then what
/// is known about uniqueness, as comments.
pub fn text(source: &str, a: &Answer<Grid>, render: impl Fn(&Grid) -> String) -> String {
    let mut out = String::new();
    match (&a.solution, a.status) {
        (Some(g), _) => {
            out.push_str(&render(g));
            match (a.unique, &a.second) {
                (Some(true), _) => {
                    let _ = writeln!(
                        out,
                        "# unique: the {} backend proved there is no other solution",
                        a.backend
                    );
                }
                (Some(false), Some(g2)) => {
                    let _ = writeln!(out, "# not unique: a second solution is");
                    for line in render(g2).lines() {
                        let _ = writeln!(out, "# {line}");
                    }
                }
                _ if !a.asked_unique => {}
                _ => {
                    let _ = writeln!(out, "# {}", a.uniqueness_unknown());
                }
            }
            let _ = writeln!(out, "# verified: every rule of the puzzle holds");
            a.evidence.push_lines(&mut out, "# ");
        }
        (None, Status::Unsat) => {
            let why = a.reason.as_deref().unwrap_or("proven");
            let _ = writeln!(out, "unsat: {source} has no solution ({why})");
            a.evidence.push_lines(&mut out, "# ");
        }
        (None, _) => {
            let why = a.reason.as_deref().unwrap_or("the time limit was reached");
            let _ = writeln!(out, "unknown: {why}");
            a.evidence.push_lines(&mut out, "# ");
        }
    }
    out
}

/// The grid's JSON field.
pub fn json_fields(solution: Option<&Grid>) -> Vec<(String, Value)> {
    vec![("grid".into(), json!(solution))]
}

#[derive(Deserialize)]
struct GridJson {
    grid: Option<Grid>,
    status: Option<String>,
}

/// Reads a solution: the JSON of `solve --format json`, or the solution-file form (the
/// puzzle file with every white cell filled), which `parse_filled` reads into a grid.
pub fn read_solution(
    file: &str,
    text: &str,
    (rows, cols): (usize, usize),
    parse_filled: impl Fn(&str, &str) -> Result<Grid, InputError>,
) -> Result<Grid, InputError> {
    let g = if text.trim_start().starts_with('{') {
        let raw: GridJson = crate::input::solution_json::first_json(file, text)?;
        raw.grid.ok_or_else(|| {
            let st = raw.status.unwrap_or_else(|| "none".into());
            InputError::new(file, None, format!("no grid to check (status {st})"))
        })?
    } else {
        // The text of `solve` is a solution file; `--all`'s, one solution after another.
        parse_filled(file, crate::input::solution_json::first_text(text))?
    };
    if g.len() != rows || g.iter().any(|r| r.len() != cols) {
        return Err(InputError::new(
            file,
            None,
            format!("the solution is not a {rows}x{cols} grid like the puzzle"),
        ));
    }
    Ok(g)
}

/// A grid puzzle's own rules; [`Puzzle`] follows from them.
pub trait GridRules: Clone + Send + Sync + 'static {
    /// A variable: "this cell holds this value".
    type Key: Clone + Eq + Hash + Display + Send + Sync + 'static;
    /// The kind's name ("kakuro").
    const KIND: &'static str;
    /// What a valid solution satisfies, for `check` ("every run adds up to its clue ...").
    const RULES: &'static str;

    fn source(&self) -> &str;
    /// (rows, columns).
    fn size(&self) -> (usize, usize);
    fn model(&self) -> Model<Self::Key>;
    /// The (row, column, value) a variable stands for.
    fn cell(key: &Self::Key) -> (usize, usize, u8);
    /// The independent verifier.
    fn check(&self, g: &Grid) -> Result<(), Invalid>;
    /// The solution-file form of a filled grid.
    fn render(&self, g: &Grid) -> String;
    /// Reads a filled puzzle file (a solution file) into a grid.
    fn filled(file: &str, text: &str) -> Result<Grid, InputError>;
}

impl<G: GridRules> Puzzle for G {
    type Compiled = Model<G::Key>;
    type Solution = Grid;

    fn kind(&self) -> &'static str {
        G::KIND
    }

    fn source(&self) -> &str {
        GridRules::source(self)
    }

    fn header(&self, _opts: &CompileOptions, _encoding: Option<&str>) -> Vec<String> {
        vec![
            format!("sokuc {} {} model", env!("CARGO_PKG_VERSION"), G::KIND),
            format!("instance {}", GridRules::source(self)),
        ]
    }

    fn compile(&self, _opts: &CompileOptions) -> Result<Model<G::Key>, Refutation> {
        Ok(self.model())
    }

    fn formula<'c>(&self, c: &'c Model<G::Key>) -> &'c PbFormula {
        &c.formula
    }

    fn names(&self, c: &Model<G::Key>) -> Vec<String> {
        c.names()
    }

    fn decode(&self, c: &Model<G::Key>, a: &[bool]) -> Result<Grid, Invalid> {
        let (rows, cols) = self.size();
        Ok(decode(rows, cols, c.pool.iter().map(|(_, k)| G::cell(k)), a))
    }

    fn verify(&self, g: &Grid) -> Result<(), Invalid> {
        self.check(g)
    }

    fn text(&self, a: &Answer<Grid>) -> String {
        text(GridRules::source(self), a, |g| GridRules::render(self, g))
    }

    fn json_fields(&self, solution: Option<&Grid>) -> Vec<(String, Value)> {
        json_fields(solution)
    }

    fn read_solution(&self, file: &str, text: &str) -> Result<Grid, InputError> {
        read_solution(file, text, self.size(), G::filled)
    }

    fn valid_summary(&self, g: &Grid) -> String {
        let filled = g.iter().flatten().filter(|d| d.is_some()).count();
        format!("{filled} cells filled, {}", G::RULES)
    }
}
