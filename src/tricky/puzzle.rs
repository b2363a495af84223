//! Tricky through the front-end trait.

use serde_json::Value;

use super::{Cell, Symbol, Tricky};
use crate::grid::{self, Grid};
use crate::input::InputError;
use crate::ir::{Model, PbFormula};
use crate::puzzle::{Answer, CompileOptions, Invalid, Puzzle, Refutation};

impl Puzzle for Tricky {
    type Compiled = Model<Symbol>;
    type Solution = Grid;

    fn kind(&self) -> &'static str {
        "trickytriple"
    }

    fn source(&self) -> &str {
        &self.source
    }

    fn header(&self, _opts: &CompileOptions, _encoding: Option<&str>) -> Vec<String> {
        vec![
            format!("sokuc {} trickytriple model", env!("CARGO_PKG_VERSION")),
            format!("instance {}", self.source),
        ]
    }

    fn compile(&self, _opts: &CompileOptions) -> Result<Model<Symbol>, Refutation> {
        Ok(Tricky::compile(self))
    }

    fn formula<'c>(&self, c: &'c Model<Symbol>) -> &'c PbFormula {
        &c.formula
    }

    fn names(&self, c: &Model<Symbol>) -> Vec<String> {
        c.names()
    }

    fn decode(&self, c: &Model<Symbol>, a: &[bool]) -> Result<Grid, Invalid> {
        Ok(grid::decode(
            self.rows,
            self.cols,
            c.pool.iter().map(|(_, s)| (s.r, s.c, s.s)),
            a,
        ))
    }

    fn verify(&self, g: &Grid) -> Result<(), Invalid> {
        super::verify::verify(self, g)
    }

    fn text(&self, a: &Answer<Grid>) -> String {
        grid::text(&self.source, a, |g| self.render(g))
    }

    fn json_fields(&self, solution: Option<&Grid>) -> Vec<(String, Value)> {
        grid::json_fields(solution)
    }

    fn read_solution(&self, file: &str, text: &str) -> Result<Grid, InputError> {
        grid::read_solution(file, text, (self.rows, self.cols), |file, text| {
            let filled = Tricky::parse(file, text)?;
            Ok(filled
                .cells
                .iter()
                .map(|row| {
                    row.iter()
                        .map(|c| match c {
                            Cell::White(d) => *d,
                            _ => None,
                        })
                        .collect()
                })
                .collect())
        })
    }

    fn valid_summary(&self, g: &Grid) -> String {
        let filled = g.iter().flatten().filter(|d| d.is_some()).count();
        format!("{filled} cells filled, every three in a line hold exactly two equal symbols")
    }
}
