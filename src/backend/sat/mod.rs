//! The CNF engines: varisat (pure Rust, the default) and CaDiCaL (C++, in-process through
//! rustsat), each fed the IR's CNF encoding through [`crate::encode::ClauseSink`].

#[cfg(feature = "cadical")]
pub mod cadical;
pub mod varisat;
