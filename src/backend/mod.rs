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

pub use crate::budget::{Deadline, Waited, memory};
pub use crate::ir::Status;
pub use algorithms::{Algorithms, Resolving};
pub use basis::{Basis, Bound, Contradiction, Fault};
pub use contract::{
    Backend, BackendError, Capabilities, Ended, Enumeration, Found, Improved, Method, MipSettings, Optimum, Outcome,
    Parallel, Session, SolveOptions, SolveStats, Tuning, Visit, feature,
};
pub use limits::{
    CP_ROW_LIMIT, HIGHS_ROW_LIMIT, HIGHS_ROW_LIMIT_BITS, MIP_EXACT_ROW_LIMIT, MIP_OBJECTIVE_LIMIT,
    MIP_OBJECTIVE_LIMIT_BITS, MIP_ROW_LIMIT, MIP_ROW_LIMIT_BITS, row_at_least, too_wide_for_mip,
};
pub use portfolio::auto;
pub use registry::{SPECIALISED, UnknownBackend, available, by_name, general, lookup, supporting};
