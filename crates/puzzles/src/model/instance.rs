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

impl Instance {
    /// The instance as instance-file TOML (spec §2), with the variant inlined by name when it
    /// is a built-in, else written beside as `variant_path`.
    pub fn to_toml(&self, variant_ref: &str) -> String {
        use std::fmt::Write;
        let mut s = String::new();
        let _ = writeln!(s, "# {}", self.source.replace('\n', " "));
        let _ = writeln!(s, "variant = {:?}", variant_ref);
        let tiles: Vec<String> = self
            .tiles
            .iter()
            .map(|t| format!("[{}, {}, {}]", t[0], t[1], t[2]))
            .collect();
        let _ = writeln!(s, "tiles = [{}]", tiles.join(", "));
        let caps: Vec<String> = self.capacities.iter().map(|c| c.to_string()).collect();
        let _ = writeln!(s, "capacities = [{}]", caps.join(", "));
        for f in &self.fixed {
            let face: Vec<String> = self.variant.faces[f.face]
                .iter()
                .map(|&v| format!("{:?}", self.variant.vertices[v]))
                .collect();
            let _ = writeln!(s, "\n[[fixed]]\nface = [{}]\ntile = {}", face.join(", "), f.tile + 1);
            if let Some(r) = f.rotation {
                let _ = writeln!(s, "rotation = {r}");
            }
        }
        s
    }
}
