//! sokuc's puzzles: the 3SoKu model and its variants ([`model`]), the input files
//! ([`input`]) and every file written ([`output`]), the front-ends that compile a puzzle to
//! the IR and decode an answer back ([`soku`], [`pool`], [`kakuro`], [`tricky`], [`pb`],
//! over the [`puzzle::Puzzle`] trait), and the pictures ([`render`]).

// The lower crates' modules at this crate's root, under the names the code uses.
use sokuc_compile::encode;
#[cfg(test)]
use sokuc_compile::export;
use sokuc_core::{budget, ir};
use sokuc_engines as backend;

pub mod grid;
pub mod input;
pub mod kakuro;
pub mod model;
pub mod output;
pub mod pb;
pub mod pool;
pub mod puzzle;
pub mod render;
pub mod rng;
pub mod soku;
pub mod tricky;
pub mod words;
