//! sokuc: an encoding compiler for combinatorial puzzles.
//!
//! The pipeline, one folder per stage:
//!
//! ```text
//! input (parse) -> model (puzzle) -> soku (front-end: model -> ir) -> ir (pseudo-Boolean model)
//!   -> encode (ir -> CNF into a sink) -> backend (solve) -> soku::decode -> verify -> report
//!   (text, JSON) and render (SVG nets)
//! ```
//!
//! A new puzzle adds a front-end next to `soku`; a new solver adds a file under `backend`.
//! Neither touches the other: backends only ever see [`ir::PbFormula`].

pub mod backend;
pub mod bench;
pub mod budget;
pub mod certify;
pub mod compare;
pub mod count;
pub mod encode;
pub mod error;
pub mod export;
#[doc(hidden)]
pub mod fuzzing;
pub mod generate;
pub mod grid;
pub mod input;
pub mod ir;
pub mod kakuro;
pub mod liu;
pub mod lp;
pub mod model;
pub mod output;
pub mod pb;
pub mod pool;
pub mod puzzle;
pub mod registry;
pub mod render;
pub mod report;
pub mod rng;
pub mod run;
pub mod sharp;
pub mod soku;
pub mod sweep;
pub mod tricky;
pub mod words;

pub use error::Error;
