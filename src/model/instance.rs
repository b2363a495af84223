//! A 3SoKu game: a variant, capacities, tiles and optional pre-placed tiles.

use super::tiles::{Tile, TileType, group_types};
use super::variant::Variant;

/// A tile fixed to a face: the face carries a tile identical to `tile` (0-based index),
/// turned by `rotation` relative to the tile as listed, or any rotation when `None`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Fixed {
    pub face: usize,
    pub tile: usize,
    pub rotation: Option<u8>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Instance {
    /// Where the instance came from (file name or a description), for messages.
    pub source: String,
    pub variant: Variant,
    /// One capacity per vertex, in the variant's vertex order.
    pub capacities: Vec<u64>,
    pub tiles: Vec<Tile>,
    pub fixed: Vec<Fixed>,
}

impl Instance {
    pub fn types(&self) -> Vec<TileType> {
        group_types(&self.tiles)
    }

    pub fn total_weight(&self) -> u64 {
        self.tiles.iter().flatten().sum()
    }

    pub fn total_capacity(&self) -> u64 {
        self.capacities.iter().sum()
    }
}
