//! Solver backends: the trait every engine implements ([`contract`]), the algorithms that
//! work over any of them ([`algorithms`]), the engines, one folder each, and the portfolio
//! that races them ([`portfolio`]). This file is the facade: it declares the modules and
//! re-exports what the rest of the crate uses.
//!
//! Dependencies run one way (tests/architecture.rs checks it): `registry` →
//! [`portfolio`] → [`engines`] → the engines ([`sat`], [`cp`], [`search`], [`mitm`], `mip`)
//! → [`algorithms`] → [`contract`], [`basis`], [`limits`], [`searching`]. No engine uses
//! the portfolio, and nothing below an engine knows one.

pub mod algorithms;
pub mod basis;
pub mod contract;
pub mod cp;
pub mod engines;
#[cfg(test)]
pub(crate) mod liar;
pub mod limits;
#[cfg(any(feature = "mip", feature = "highs"))]
pub mod mip;
pub mod mitm;
pub mod portfolio;
mod registry;
pub mod sat;
pub mod search;
pub mod searching;

pub use crate::budget::{Deadline, Waited};
pub use crate::ir::Status;
pub use basis::{Basis, Bound, Contradiction, Disputed, Fault};
pub use contract::{
    Backend, BackendError, Ended, Found, MipSettings, Outcome, Parallel, Session, SolveOptions, SolveStats, Tuning,
    feature,
};
pub use registry::{available, by_name, general, lookup, supporting};

// The tests' view: what tests/ and benches/ name from here (only the `testing` build has it).
#[cfg(feature = "testing")]
pub use {
    contract::{Capabilities, Improved, Optimum},
    limits::CP_ROW_LIMIT,
    portfolio::auto,
};
// The same, and the unit tests' too (`soku::writer`).
#[cfg(any(test, feature = "testing"))]
pub use algorithms::Algorithms;
