//! The CNF engines: varisat (pure Rust, the default) and CaDiCaL (C++, in-process through
//! rustsat), each fed the IR's CNF encoding through [`crate::encode::ClauseSink`].
//!
//! varisat is the default because it is pure Rust: the default build needs nothing but
//! cargo. CaDiCaL (2.2.1 through rustsat-cadical, vendored C++ that cargo compiles) is behind
//! the `cadical` feature because it is a native library: it needs a C++ compiler and Debian's
//! `libclang-dev` (for bindgen), and about a minute to build. Only one vendored SAT solver can
//! be linked: rustsat-kissat would clash with CaDiCaL on `kitten_*` symbols.

#[cfg(feature = "cadical")]
pub mod cadical;
pub mod varisat;
