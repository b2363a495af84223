//! Pseudo-Boolean IR -> CNF. Encoders write into a [`ClauseSink`], so the same code feeds
//! an in-process solver or a buffer written out as DIMACS.

#![deny(clippy::cast_possible_truncation, clippy::cast_sign_loss)]

mod adder;
mod bdd;
mod card;
mod cnf;
pub mod dimacs;
mod groups;
mod large;
mod normal;
mod options;
mod order;
mod sink;

pub use cnf::{AuxRange, EncodeError, encode, encode_until, estimate};
pub use options::{DEFAULT_MAX_CLAUSES, EncodeOptions, PbEncoding};
pub use sink::{ClauseSink, Cnf, Cost};
