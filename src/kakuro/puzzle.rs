//! Kakuro through the front-end trait.

use serde_json::Value;

use super::{Cell, Digit, Kakuro};
use crate::grid::{self, Grid};
use crate::input::InputError;
use crate::ir::{Model, PbFormula};
use crate::puzzle::{Answer, CompileOptions, Invalid, Puzzle, Refutation};

impl Puzzle for Kakuro {
    type Compiled = Model<Digit>;
    type Solution = Grid;

    fn kind(&self) -> &'static str {
        "kakuro"
    }

    fn source(&self) -> &str {
        &self.source
    }

    fn header(&self, _opts: &CompileOptions, _encoding: Option<&str>) -> Vec<String> {
        vec![
            format!("sokuc {} kakuro model", env!("CARGO_PKG_VERSION")),
            format!("instance {}", self.source),
        ]
    }

    fn compile(&self, _opts: &CompileOptions) -> Result<Model<Digit>, Refutation> {
        Ok(Kakuro::compile(self))
    }

    fn formula<'c>(&self, c: &'c Model<Digit>) -> &'c PbFormula {
        &c.formula
    }

    fn names(&self, c: &Model<Digit>) -> Vec<String> {
        c.names()
    }

    fn decode(&self, c: &Model<Digit>, a: &[bool]) -> Result<Grid, Invalid> {
        Ok(grid::decode(
            self.rows,
            self.cols,
            c.pool.iter().map(|(_, d)| (d.r, d.c, d.d)),
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
            let filled = Kakuro::parse(file, text)?;
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
        format!("{filled} cells filled, every run adds up to its clue without a repeated digit")
    }
}
