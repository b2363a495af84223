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

pub use compile::{Compiled, Place, compile, compile_plain};
pub use decode::{DecodeError, decode};
pub use presolve::{Domains, Presolved, presolve};
pub(crate) use print::{VERIFIED, placement_json, push_line, status_line};
pub use puzzle::check_model_size;

pub use crate::model::Placement;

/// A full arrangement: one placement per face, in face order.
pub type Solution = Vec<Placement>;
