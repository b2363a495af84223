//! Pseudo-Boolean IR -> CNF. Encoders write into a [`ClauseSink`], so the same code feeds
//! an in-process solver or a buffer written out as DIMACS.

#![deny(clippy::cast_possible_truncation, clippy::cast_sign_loss)]

mod adder;
mod bdd;
mod card;
mod cnf;
pub mod dimacs;
mod large;
mod order;
mod sink;

pub use cnf::{
    AuxRange, DEFAULT_MAX_CLAUSES, EncodeError, EncodeOptions, EncodeStats, Estimate, PbEncoding, encode, encode_until,
    estimate,
};
pub use sink::{ClauseSink, Cnf, Cost, Counting};
