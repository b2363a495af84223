//! Exports of the IR for external solvers: CPLEX LP, free MPS, OPB (PB competition) and a
//! self-contained MiniZinc model. All are deterministic and use the pool's variable names
//! (OPB, whose grammar only allows `x<n>`, names them in comments; MiniZinc prefixes them
//! with `v_`).
//!
//! The front-ends make names that every format takes as they are and that are distinct by
//! construction (see `soku::compile::place_name`). [`check_names`] checks both again before
//! anything is written, so a front-end bug fails loudly instead of producing a file that a
//! solver misreads (CBC silently renames a column it cannot read, and two columns with one
//! name merge into one).

mod lp;
mod mps;
mod mzn;
mod opb;
mod rows;
mod text;

pub use lp::write_lp;
pub use mps::write_mps;
pub use mzn::write_mzn;
pub use opb::write_opb;
pub use text::check_names;
// The longest name, for soku's tests of the names it makes (the library itself needs it
// only in `check_names`).
#[cfg(any(test, feature = "testing"))]
pub use text::MAX_NAME_LEN;
