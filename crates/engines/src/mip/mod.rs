//! The MIP engines: CBC (`mip`) and HiGHS (`highs`). The IR becomes a 0/1 integer program
//! ([`solve`]: columns, rows, digit columns for rows too wide for the solvers' tolerances;
//! `rows`: the rows, and the cardinality rows they imply; `guide`: a steering objective;
//! `settings`: each solver's parameters; `wide_objective`: optima past the solvers'
//! tolerances), sent to a helper program that alone links the C++ solver ([`helper`]).

#[cfg(feature = "mip")]
pub mod cbc;
mod guide;
pub mod helper;
#[cfg(feature = "highs")]
pub mod highs;
mod rows;
mod settings;
pub mod solve;
mod wide_objective;
