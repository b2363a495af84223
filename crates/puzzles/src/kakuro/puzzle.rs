//! Kakuro's rules for the shared grid front-end ([`crate::grid::GridRules`]).

use super::{Cell, Digit, Kakuro};
use crate::grid::{Grid, GridRules};
use crate::input::InputError;
use crate::ir::Model;
use crate::puzzle::Invalid;

impl GridRules for Kakuro {
    type Key = Digit;
    const KIND: &'static str = "kakuro";
    const RULES: &'static str = "every run adds up to its clue without a repeated digit";

    fn source(&self) -> &str {
        &self.source
    }

    fn size(&self) -> (usize, usize) {
        (self.rows, self.cols)
    }

    fn model(&self) -> Model<Digit> {
        self.compile()
    }

    fn cell(d: &Digit) -> (usize, usize, u8) {
        (d.r, d.c, d.d)
    }

    fn check(&self, g: &Grid) -> Result<(), Invalid> {
        super::verify::verify(self, g)
    }

    fn render(&self, g: &Grid) -> String {
        Kakuro::render(self, g)
    }

    fn filled(file: &str, text: &str) -> Result<Grid, InputError> {
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
    }
}
