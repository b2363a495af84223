//! sokuc's solver backends: the trait every engine implements ([`contract`]), the algorithms that
//! work over any of them ([`algorithms`]), the engines, one folder each, and the portfolio
//! that races them ([`portfolio`]). This file declares the modules and re-exports what the crates
//! above use.
//!
//! Dependencies run one way (tests/architecture.rs checks it): `registry` →
//! [`portfolio`] → [`engines`] → the engines ([`sat`], [`cp`], [`search`], [`mitm`], `mip`)
//! → [`algorithms`] → [`contract`], [`basis`], [`limits`], [`searching`]. No engine uses
//! the portfolio, and nothing below an engine knows one.

// The lower crates' modules at this crate's root, under the names the code uses.
use sokuc_compile::encode;
use sokuc_core::{budget, ir};
#[cfg(any(feature = "mip", feature = "highs"))]
use sokuc_mip_wire as mip_wire;

pub mod algorithms;
pub mod basis;
pub mod contract;
pub mod cp;
pub mod engines;
#[cfg(any(test, feature = "testing"))]
pub mod liar;
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
