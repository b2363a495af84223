//! `sokuc sweep`: every capacity arrangement of a variant, up to symmetry, solved and
//! verified; resumable, shardable and mergeable.

pub mod error;
pub mod merge;
pub mod orbits;
pub mod records;
pub mod request;
pub mod run;
pub mod spec;
pub mod symmetry;
mod worker;
