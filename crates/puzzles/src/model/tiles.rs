//! Tiles, their rotations, and grouping of identical tiles into types.

/// Three corner weights, clockwise.
pub type Tile = [u64; 3];

/// The corners of tile `w` turned clockwise by `r` steps: `corners[i] = w[(i - r) mod 3]`
/// (spec §1; `r = 1` turns `(w0,w1,w2)` into `(w2,w0,w1)`).
pub fn rotate(w: Tile, r: u8) -> Tile {
    let r = r as usize % 3;
    [w[(3 - r) % 3], w[(4 - r) % 3], w[(5 - r) % 3]]
}

/// The rotation of `w` that is lexicographically smallest: a canonical name for the
/// physical tile (tiles rotate but never flip).
pub fn canonical(w: Tile) -> Tile {
    (0..3).map(|r| rotate(w, r)).min().unwrap_or(w)
}

/// The mirror image of a tile (read counter-clockwise); used by symmetry arguments.
pub fn mirror(w: Tile) -> Tile {
    [w[0], w[2], w[1]]
}

/// A group of physically identical tiles (equal up to rotation).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TileType {
    /// Canonical weights of the type.
    pub weights: Tile,
    /// 0-based indices, into the instance's tile list, of the tiles of this type.
    pub members: Vec<usize>,
    /// Rotations of `weights` giving distinct corner triples: `[0]` for a uniform tile,
    /// `[0, 1, 2]` otherwise.
    pub rotations: Vec<u8>,
}

impl TileType {
    pub fn multiplicity(&self) -> usize {
        self.members.len()
    }

    /// Corner weights of this type under one of its rotations.
    pub fn corners(&self, r: u8) -> Tile {
        rotate(self.weights, r)
    }
}

/// Groups a tile list into types, in order of first appearance.
pub fn group_types(tiles: &[Tile]) -> Vec<TileType> {
    let mut types: Vec<TileType> = Vec::new();
    for (i, &t) in tiles.iter().enumerate() {
        let c = canonical(t);
        match types.iter_mut().find(|ty| ty.weights == c) {
            Some(ty) => ty.members.push(i),
            None => {
                let mut rotations: Vec<u8> = Vec::new();
                for r in 0..3u8 {
                    if !rotations.iter().any(|&q| rotate(c, q) == rotate(c, r)) {
                        rotations.push(r);
                    }
                }
                types.push(TileType {
                    weights: c,
                    members: vec![i],
                    rotations,
                });
            }
        }
    }
    types
}

/// The rotation that turns listed tile `w` into `corners`, if any.
pub fn rotation_to(w: Tile, corners: Tile) -> Option<u8> {
    (0..3u8).find(|&r| rotate(w, r) == corners)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rotation_follows_the_spec() {
        assert_eq!(rotate([0, 1, 2], 0), [0, 1, 2]);
        assert_eq!(rotate([0, 1, 2], 1), [2, 0, 1]);
        assert_eq!(rotate([0, 1, 2], 2), [1, 2, 0]);
    }

    #[test]
    fn types_merge_rotations_but_not_mirrors() {
        let t = group_types(&[[0, 1, 2], [2, 0, 1], [0, 2, 1], [1, 1, 1]]);
        assert_eq!(t.len(), 3);
        assert_eq!(t[0].members, vec![0, 1]);
        assert_eq!(t[1].members, vec![2]);
        assert_eq!(t[2].rotations, vec![0]);
        assert_eq!(t[0].rotations, vec![0, 1, 2]);
    }
}
