//! Tricky Triple's rules for the shared grid front-end ([`crate::grid::GridRules`]).

use super::{Cell, Symbol, Tricky};
use crate::grid::{Grid, GridRules};
use crate::input::InputError;
use crate::ir::Model;
use crate::puzzle::Invalid;

impl GridRules for Tricky {
    type Key = Symbol;
    const KIND: &'static str = "trickytriple";
    const RULES: &'static str = "every three in a line hold exactly two equal symbols";

    fn source(&self) -> &str {
        &self.source
    }

    fn size(&self) -> (usize, usize) {
        (self.rows, self.cols)
    }

    fn model(&self) -> Model<Symbol> {
        self.compile()
    }

    fn cell(s: &Symbol) -> (usize, usize, u8) {
        (s.r, s.c, s.s)
    }

    fn check(&self, g: &Grid) -> Result<(), Invalid> {
        super::verify::verify(self, g)
    }

    fn render(&self, g: &Grid) -> String {
        Tricky::render(self, g)
    }

    fn filled(file: &str, text: &str) -> Result<Grid, InputError> {
        let filled = Tricky::parse(file, text)?;
        Ok(filled
            .cells
            .iter()
            .map(|row| {
                row.iter()
                    .map(|c| match c {
                        Cell::White(s) => *s,
                        Cell::Black => None,
                    })
                    .collect()
            })
            .collect())
    }
}
