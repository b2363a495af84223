//! The pseudo-Boolean intermediate representation shared by every front-end and backend.
//!
//! Front-ends build a [`Model`]: a `VarPool` mapping their own objects to variables (and
//! back), plus a [`PbFormula`] of clauses, at-most-one / exactly-one groups and linear
//! constraints. Backends only see the formula; exporters and decoders also use the pool.

pub mod digits;
mod evaluator;
mod formula;
mod hash;
mod lit;
mod pool;
mod projection;
mod status;

pub use evaluator::Evaluator;
pub use formula::{Cmp, Constraint, Linear, PbFormula, Staged, Violation, WideRow};
// Named outside the module only by the tests of `try_add` and `try_set_objective`.
#[cfg(any(test, feature = "testing"))]
pub use formula::TooWide;
pub use hash::FastMap;
pub use lit::{Lit, Var};
pub use pool::Model;
pub use projection::Projection;
pub use status::Status;
