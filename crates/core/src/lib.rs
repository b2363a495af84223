//! The bottom of sokuc's pipeline: the pseudo-Boolean IR that every puzzle compiles to and
//! every engine reads ([`ir`]), and the budget every stage keeps ([`budget`]: the deadline,
//! the memory guard, progress and the stop signal).
//!
//! This crate depends on no other sokuc crate. Most programs use the `sokuc` crate's facade
//! instead; the items here are public for the crates above it.

pub mod budget;
pub mod ir;
