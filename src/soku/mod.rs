//! The 3SoKu front-end: instance -> presolve -> pseudo-Boolean model, and answers back
//! into placements.

mod compile;
mod decode;
pub mod generate;
mod presolve;

pub use compile::{Compiled, Place, compile, compile_plain};
pub use decode::{DecodeError, decode};
pub use presolve::{Domains, Presolved, presolve};

/// One tile on one face.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Placement {
    /// 0-based face index in the variant's order.
    pub face: usize,
    /// 0-based index into the instance's tile list.
    pub tile: usize,
    /// Clockwise turns relative to the tile as listed.
    pub rotation: u8,
    /// `corners[i]` is the weight at the face's i-th vertex.
    pub corners: [u64; 3],
}

/// A full arrangement: one placement per face, in face order.
pub type Solution = Vec<Placement>;
