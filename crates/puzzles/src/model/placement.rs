//! A 3SoKu answer, one placement per face.

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
