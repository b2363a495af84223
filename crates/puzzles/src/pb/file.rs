//! An OPB or CNF file as it was written: its rows with arbitrary-precision coefficients,
//! product terms and the objective, which the verifier checks answers against.

use std::fmt;

use num_bigint::BigInt;

use crate::ir::Cmp;

/// A literal of the file: `x3` or `~x3` (DIMACS `3` or `-3`). Variables count from 1.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Lit {
    pub var: u32,
    pub neg: bool,
}

impl fmt::Display for Lit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}x{}", if self.neg { "~" } else { "" }, self.var)
    }
}

/// A coefficient times a product of literals (one literal in linear files).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Term {
    pub coef: BigInt,
    pub lits: Vec<Lit>,
}

/// One constraint as the file wrote it, with the line it starts on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Row {
    /// A DIMACS clause.
    Clause { lits: Vec<Lit>, line: usize },
    /// An OPB constraint.
    Linear {
        terms: Vec<Term>,
        cmp: Cmp,
        rhs: BigInt,
        line: usize,
    },
}

/// `min:` (or the extension `max:`) with its terms.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Objective {
    pub terms: Vec<Term>,
    pub maximise: bool,
    pub line: usize,
}

/// An OPB or CNF file, as written.
#[derive(Debug, Clone)]
pub struct PbFile {
    pub source: String,
    /// The header's number of variables (at least the largest index used).
    pub num_vars: u32,
    pub rows: Vec<Row>,
    pub objective: Option<Objective>,
    /// Read from DIMACS CNF (answers are printed in the SAT competition's form).
    pub cnf: bool,
    /// Which rows are split into digit columns, and in which base (tests force tiny bases).
    pub split: crate::ir::digits::Split,
    /// What the file gets wrong that PB and SAT solvers accept: a header count that does
    /// not match the file. Printed as `c warning:` lines, as those solvers do.
    pub warnings: Vec<String>,
    /// Variables the file calls otherwise than `x<index>`: (index, name), by index. Answers
    /// print these names, as PB solvers do.
    pub names: Vec<(u32, String)>,
}

/// The most variables a file may declare: answers list every declared variable, so this
/// bounds what one answer costs (a header is a user-given number, never an allocation size).
pub const MAX_VARS: u32 = 1 << 25;

/// A solution: the value of every variable of the file, `values[i]` for `x(i+1)`.
pub type Values = Vec<bool>;
