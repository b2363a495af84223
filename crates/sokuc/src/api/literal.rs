//! The variables and literals of a [`crate::Model`].

pub use crate::ir::Cmp;

use std::fmt;
use std::ops::Not;

/// A variable of a [`crate::Model`], made by [`crate::Model::new_var`].
///
/// Variables are numbered from 0 in the order they were made; in a CNF or an OPB file the
/// model writes, variable `n` is `n + 1` (`x(n+1)`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Var(pub(crate) u32);

impl Var {
    pub(crate) fn from_index(i: usize) -> Var {
        Var(u32::try_from(i).unwrap_or(u32::MAX))
    }

    /// The variable's number, from 0.
    pub fn index(self) -> usize {
        self.0 as usize
    }

    /// The literal "this variable is true".
    pub fn pos(self) -> Lit {
        Lit { var: self, neg: false }
    }

    /// The literal "this variable is false".
    pub fn negative(self) -> Lit {
        Lit { var: self, neg: true }
    }
}

impl fmt::Display for Var {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "x{}", self.0 + 1)
    }
}

/// A variable or its negation: `x.pos()`, `!x` (or `x.negative()`), and `Lit::from(x)`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Lit {
    pub(crate) var: Var,
    pub(crate) neg: bool,
}

impl Lit {
    /// The literal's variable.
    pub fn var(self) -> Var {
        self.var
    }

    /// Whether the literal is the variable's negation.
    pub fn is_negated(self) -> bool {
        self.neg
    }

    /// The literal in DIMACS: `n + 1` for variable `n`, negative when negated.
    pub fn dimacs(self) -> i64 {
        let v = i64::from(self.var.0) + 1;
        if self.neg { -v } else { v }
    }
}

impl From<Var> for Lit {
    fn from(v: Var) -> Lit {
        v.pos()
    }
}

impl Not for Lit {
    type Output = Lit;
    fn not(self) -> Lit {
        Lit {
            var: self.var,
            neg: !self.neg,
        }
    }
}

impl Not for Var {
    type Output = Lit;
    fn not(self) -> Lit {
        self.negative()
    }
}

impl fmt::Display for Lit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", if self.neg { "~" } else { "" }, self.var)
    }
}
