//! The 3SoKu front-end: instance -> presolve -> pseudo-Boolean model, and answers back
//! into placements.

mod compile;
mod decode;
pub mod generate;
pub mod partial;
mod presolve;
mod print;
mod puzzle;
pub mod verify;
mod writer;

pub use compile::{Compiled, compile_plain};
// The tests compile, presolve and decode a 3SoKu model step by step; the run path goes
// through the `Puzzle` impl (puzzle.rs).
pub use print::{VERIFIED, placement_json, push_line, status_line};
#[cfg(feature = "testing")]
pub use {compile::compile, decode::decode, presolve::presolve};

pub use crate::model::Placement;
