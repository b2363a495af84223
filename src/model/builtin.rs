//! Built-in variants and tile sets, compiled into the binary from `variants/`.

use super::tiles::Tile;

/// (name, TOML text) of each built-in variant.
pub const VARIANTS: &[(&str, &str)] = &[
    ("icosahedron", include_str!("../../variants/icosahedron.toml")),
    ("octahedron", include_str!("../../variants/octahedron.toml")),
    ("tetrahedron", include_str!("../../variants/tetrahedron.toml")),
];

pub fn variant_text(name: &str) -> Option<&'static str> {
    VARIANTS.iter().find(|(n, _)| *n == name).map(|(_, t)| *t)
}

/// The 20 IcoSoKu tiles in the order of spec §1 (the 1-based order used by `fixed`).
pub const ICOSOKU_TILES: [Tile; 20] = [
    [0, 0, 0],
    [0, 0, 1],
    [0, 0, 2],
    [0, 0, 3],
    [0, 1, 1],
    [0, 1, 2],
    [0, 1, 2],
    [0, 1, 2],
    [0, 2, 1],
    [0, 2, 1],
    [0, 2, 1],
    [0, 2, 2],
    [0, 3, 3],
    [1, 1, 1],
    [1, 2, 3],
    [1, 2, 3],
    [1, 3, 2],
    [1, 3, 2],
    [2, 2, 2],
    [3, 3, 3],
];

pub const TILE_SETS: &[&str] = &["icosoku"];

pub fn tile_set(name: &str) -> Option<Vec<Tile>> {
    match name {
        "icosoku" => Some(ICOSOKU_TILES.to_vec()),
        _ => None,
    }
}
