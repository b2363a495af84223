//! The compilers over sokuc's IR (`sokuc-core`): the CNF encodings that every SAT engine
//! reads ([`encode`]), the exports for external solvers ([`export`]: DIMACS, OPB, LP, MPS,
//! MiniZinc), the LP relaxation that refutes without a solver ([`lp`]) and the exact model
//! counter over CNF ([`sharp`]).

// The lower crate's modules at this crate's root, under the names the code uses.
use sokuc_core::{budget, ir};

pub mod encode;
pub mod export;
pub mod lp;
pub mod sharp;
