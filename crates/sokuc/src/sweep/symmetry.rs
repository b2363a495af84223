//! The symmetry group of a variant, computed from its faces.
//!
//! An automorphism is a permutation of the vertices that maps every face onto a face. It
//! preserves orientation when the clockwise order is kept, and reverses it when every face
//! lands on a face read anticlockwise. On a connected closed surface an automorphism is fixed
//! by where it sends one oriented face, so trying each face in each of its 3 rotations (and
//! for reflections, reversed) and growing the map across edges finds them all.
//!
//! The rotation group (60 on the icosahedron) always counts; the orientation-reversing
//! automorphisms are added when the tile multiset is its own mirror image (IcoSoKu's is),
//! because a reflected solution uses mirrored tiles (120). `tests/sweep.rs` checks the groups
//! and the orbit counts against brute force over all vertex permutations.

use std::collections::HashMap;

use crate::model::Variant;
use crate::model::tiles::{Tile, canonical, mirror};

/// A vertex permutation: `perm[v]` is the image of vertex `v`.
pub type Perm = Vec<usize>;

/// Directed edge (u, v) of a face read clockwise -> the face's third vertex.
fn third_vertex(v: &Variant) -> HashMap<(usize, usize), usize> {
    let mut m = HashMap::new();
    for f in &v.faces {
        for i in 0..3 {
            m.insert((f[i], f[(i + 1) % 3]), f[(i + 2) % 3]);
        }
    }
    m
}

/// Tries to extend "face 0 maps to `image`" to a whole automorphism.
fn extend(v: &Variant, third: &HashMap<(usize, usize), usize>, image: [usize; 3], reverse: bool) -> Option<Perm> {
    let n = v.num_vertices();
    let mut perm = vec![usize::MAX; n];
    let f0 = v.faces[0];
    for i in 0..3 {
        perm[f0[i]] = image[i];
    }
    // Grow across faces until nothing changes: a face with two mapped vertices fixes its third.
    let mut changed = true;
    while changed {
        changed = false;
        for f in &v.faces {
            for i in 0..3 {
                let (a, b, c) = (f[i], f[(i + 1) % 3], f[(i + 2) % 3]);
                if perm[a] == usize::MAX || perm[b] == usize::MAX || perm[c] != usize::MAX {
                    continue;
                }
                let key = if reverse {
                    (perm[b], perm[a])
                } else {
                    (perm[a], perm[b])
                };
                perm[c] = *third.get(&key)?;
                changed = true;
            }
        }
    }
    if perm.contains(&usize::MAX) {
        return None;
    }
    let mut seen = vec![false; n];
    for &p in &perm {
        if std::mem::replace(&mut seen[p], true) {
            return None;
        }
    }
    // Every face must land on a face with the right orientation.
    for f in &v.faces {
        let (a, b, c) = (perm[f[0]], perm[f[1]], perm[f[2]]);
        let want = if reverse {
            third.get(&(b, a))
        } else {
            third.get(&(a, b))
        };
        if want != Some(&c) {
            return None;
        }
    }
    Some(perm)
}

/// The orientation-preserving automorphisms (`reflections = false`), or all of them.
/// The identity comes first; the rest are sorted, so the order is deterministic.
pub fn automorphisms(v: &Variant, reflections: bool) -> Vec<Perm> {
    let third = third_vertex(v);
    let mut out: Vec<Perm> = Vec::new();
    for reverse in [false, true] {
        if reverse && !reflections {
            break;
        }
        for f in &v.faces {
            for r in 0..3 {
                let image = if reverse {
                    // Read the target face anticlockwise.
                    [f[r], f[(r + 2) % 3], f[(r + 1) % 3]]
                } else {
                    [f[r], f[(r + 1) % 3], f[(r + 2) % 3]]
                };
                if let Some(p) = extend(v, &third, image, reverse) {
                    out.push(p);
                }
            }
        }
    }
    out.sort();
    out.dedup();
    let id: Perm = (0..v.num_vertices()).collect();
    out.retain(|p| *p != id);
    out.insert(0, id);
    out
}

/// Whether the tile multiset is its own mirror image (then reflections of a solution are
/// solutions, and reflected capacity arrangements need not be solved separately).
pub fn closed_under_mirroring(tiles: &[Tile]) -> bool {
    let mut a: Vec<Tile> = tiles.iter().map(|&t| canonical(t)).collect();
    let mut b: Vec<Tile> = tiles.iter().map(|&t| canonical(mirror(t))).collect();
    a.sort_unstable();
    b.sort_unstable();
    a == b
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::variant_file::load_variant;

    #[test]
    fn platonic_groups_have_the_textbook_orders() {
        for (name, rot) in [("tetrahedron", 12), ("octahedron", 24), ("icosahedron", 60)] {
            let v = load_variant(name, None, ("test", None)).unwrap();
            assert_eq!(automorphisms(&v, false).len(), rot, "{name}");
            assert_eq!(automorphisms(&v, true).len(), 2 * rot, "{name}");
        }
    }

    #[test]
    fn icosoku_tiles_are_closed_under_mirroring() {
        assert!(closed_under_mirroring(&crate::model::builtin::ICOSOKU_TILES));
        assert!(!closed_under_mirroring(&[[0, 1, 2]]));
        assert!(closed_under_mirroring(&[[0, 1, 2], [0, 2, 1]]));
    }
}
