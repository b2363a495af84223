//! What the grid puzzles (Kakuro, Tricky Triple) share above their parsers: the filled grid,
//! its text for an answer, its JSON, and reading a solution back. Each grid front-end keeps
//! its own rules, compiler and verifier in its folder.

use std::fmt::Write;

use serde::Deserialize;
use serde_json::{Value, json};

use crate::input::InputError;
use crate::ir::Status;
use crate::puzzle::Answer;

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
                    let _ = writeln!(out, "# uniqueness unknown (time limit)");
                }
            }
            let _ = writeln!(out, "# verified: every rule of the puzzle holds");
        }
        (None, Status::Unsat) => {
            let why = a.reason.as_deref().unwrap_or("proven");
            let _ = writeln!(out, "unsat: {source} has no solution ({why})");
        }
        (None, _) => {
            let _ = writeln!(out, "unknown: the time limit was reached");
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
        let raw: GridJson = serde_json::from_str(text)
            .map_err(|e| InputError::new(file, Some(e.line()), format!("invalid JSON: {e}")))?;
        raw.grid.ok_or_else(|| {
            let st = raw.status.unwrap_or_else(|| "none".into());
            InputError::new(file, None, format!("no grid to check (status {st})"))
        })?
    } else {
        parse_filled(file, text)?
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
