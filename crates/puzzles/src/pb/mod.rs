//! Pseudo-Boolean and CNF front-end (issue 17): any OPB or DIMACS CNF file, read exactly.
//!
//! The file is kept as written ([`PbFile`]: rows with arbitrary-precision coefficients,
//! product terms, the objective), because the verifier checks every answer against the
//! *original* rows in exact arithmetic (`verify.rs`). `compile.rs` normalises each row into
//! the IR's 64-bit form (net coefficients per variable, positive coefficients through
//! negated literals, saturation, gcd, in exact arithmetic); a row still too wide for 64 bits
//! becomes digit columns with carries over auxiliary bits (`ir/digits.rs`, see
//! `encodings/pb-bigint.md`): never a silent overflow. An objective past 62 bits is minimised in stages
//! over the bits of its value (`ir::Staged`), each stage an ordinary 64-bit objective. Product terms get one auxiliary
//! variable each (`and_x1_x2`), which is not primary: two answers that agree on the file's
//! variables are one solution.

mod compile;
pub mod dimacs;
mod few;
mod file;
pub mod opb;
mod presolve;
mod puzzle;
#[cfg(test)]
mod row_limit;
pub mod verify;

pub use file::{Lit, MAX_VARS, Objective, PbFile, Row, Term};

/// Reads an OPB file.
pub fn read_opb(file: &str, text: &str) -> Result<PbFile, crate::input::InputError> {
    opb::parse(file, text)
}

/// Reads a DIMACS CNF file.
pub fn read_cnf(file: &str, text: &str) -> Result<PbFile, crate::input::InputError> {
    dimacs::parse(file, text)
}
