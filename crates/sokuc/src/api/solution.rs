//! Solutions in their own terms: a model's values, a 3SoKu puzzle's placed tiles.

use super::literal::{Lit, Var};
use crate::grid::Grid;

/// A solution of a [`crate::Model`] (or of an OPB or CNF file): the value of every
/// variable, checked against every row.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Assignment {
    values: Vec<bool>,
}

impl Assignment {
    pub(crate) fn new(values: Vec<bool>) -> Assignment {
        Assignment { values }
    }

    /// Whether the literal holds. A variable the model does not have is false.
    pub fn value(&self, lit: impl Into<Lit>) -> bool {
        let lit = lit.into();
        let v = self.values.get(lit.var().index()).copied().unwrap_or(false);
        v != lit.is_negated()
    }

    /// The values, variable 0 first (`x1` of a file).
    pub fn values(&self) -> &[bool] {
        &self.values
    }

    /// The variables that are true, in order.
    pub fn true_vars(&self) -> impl Iterator<Item = Var> + '_ {
        self.values
            .iter()
            .enumerate()
            .filter(|(_, on)| **on)
            .map(|(i, _)| Var::from_index(i))
    }
}

/// One tile on one face of a 3SoKu solution ([`Outcome::placements`](crate::Outcome::placements)).
#[non_exhaustive]
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Placement {
    /// The face, from 0 in the variant's order.
    pub face: usize,
    /// The face by its vertices' names (`"ABC"` on the icosahedron).
    pub face_name: String,
    /// The tile, from 0 in the instance's tile list.
    pub tile: usize,
    /// Clockwise turns of the tile against its listed corners (0, 1 or 2).
    pub rotation: u8,
    /// The face's three vertices, from 0 in the variant's order, clockwise from outside.
    pub vertices: [usize; 3],
    /// The weight the tile puts on each of those vertices.
    pub weights: [u64; 3],
}

/// The puzzle's own form of a solution, kept beside its text.
#[derive(Debug, Clone)]
pub(crate) enum Solved {
    Placements(Vec<Placement>),
    Grid(Grid),
}
