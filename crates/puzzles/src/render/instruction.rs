//! One placement as a sentence for a person holding the puzzle, in the seed's words:
//! "Put tile (0,1,2) on the face with pegs 1, 5, 11 (ABC), turned so that 2 touches A."
//!
//! A person finds a face by its pegs, not by the letters, so the pegs come first. Tiles never
//! flip, so naming where one corner goes fixes the turn; the sentence names a corner whose
//! weight occurs once on the tile (the largest such), which is always enough unless all three
//! weights are equal, and then any turn is right.

use crate::model::Variant;

/// The corner a person should line up: one whose weight is unique on the tile, largest first.
/// `None` when all three weights are equal.
pub fn anchor_corner(corners: &[u64; 3]) -> Option<usize> {
    (0..3)
        .filter(|&i| corners.iter().filter(|&&c| c == corners[i]).count() == 1)
        .max_by_key(|&i| (corners[i], std::cmp::Reverse(i)))
}

/// The face as a person sees it: its pegs in face order, then its vertex names: "ABC" when
/// every name is one character, else "x_y, z, w". Names never contain ',' or a space, so
/// two faces are never described alike (joined by '_', [x_y, z, w] and [x, y_z, w] would
/// both read "x_y_z_w"). The sentences name faces this way; the tests check that no two
/// faces read alike.
#[cfg(test)]
fn face_phrase(v: &Variant, face: usize, pegs: &[u64]) -> String {
    let f = v.faces[face];
    let sep = if v.short_names() { "" } else { ", " };
    let names: Vec<&str> = f.iter().map(|&x| v.vertices[x].as_str()).collect();
    format!(
        "the face with pegs {}, {}, {} ({})",
        pegs[f[0]],
        pegs[f[1]],
        pegs[f[2]],
        names.join(sep)
    )
}

/// The full sentence, without a trailing period or trace, so callers can add their own.
pub fn sentence(v: &Variant, face: usize, weights: &[u64; 3], corners: &[u64; 3], pegs: &[u64]) -> String {
    let mut s = String::new();
    push_sentence(&mut s, v, face, weights, corners, pegs);
    s
}

/// [`sentence`] appended to `out`, without allocating: `solve --all` writes one per face of
/// every solution.
pub fn push_sentence(out: &mut String, v: &Variant, face: usize, weights: &[u64; 3], corners: &[u64; 3], pegs: &[u64]) {
    use std::fmt::Write;
    let f = v.faces[face];
    let _ = write!(
        out,
        "Put tile ({},{},{}) on the face with pegs {}, {}, {} (",
        weights[0], weights[1], weights[2], pegs[f[0]], pegs[f[1]], pegs[f[2]]
    );
    let sep = if v.short_names() { "" } else { ", " };
    for (k, &x) in f.iter().enumerate() {
        if k > 0 {
            out.push_str(sep);
        }
        out.push_str(&v.vertices[x]);
    }
    out.push_str("), ");
    match anchor_corner(corners) {
        Some(i) => {
            let _ = write!(out, "turned so that {} touches {}", corners[i], v.vertices[f[i]]);
        }
        None => out.push_str("any way round"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn faces_with_underscored_names_are_told_apart() {
        // The octahedron: faces [x_y, z, w] and [x, y_z, w].
        let names = ["x_y", "z", "w", "y_z", "x", "v"];
        let faces = [
            ["x_y", "z", "w"],
            ["w", "z", "x"],
            ["x", "y_z", "w"],
            ["w", "y_z", "x_y"],
            ["v", "z", "x_y"],
            ["v", "x", "z"],
            ["v", "y_z", "x"],
            ["v", "x_y", "y_z"],
        ];
        let faces: Vec<Vec<String>> = faces
            .iter()
            .map(|f| f.iter().map(|n| n.to_string()).collect())
            .collect();
        let v = Variant::new("oct", names.iter().map(|n| n.to_string()).collect(), &faces).unwrap();
        let pegs = [0u64; 6];
        let phrases: std::collections::BTreeSet<String> = (0..8).map(|f| face_phrase(&v, f, &pegs)).collect();
        assert_eq!(phrases.len(), 8, "{phrases:?}");
        assert!(
            phrases.contains("the face with pegs 0, 0, 0 (x_y, z, w)"),
            "{phrases:?}"
        );
        assert!(
            phrases.contains("the face with pegs 0, 0, 0 (x, y_z, w)"),
            "{phrases:?}"
        );
    }

    #[test]
    fn anchor_is_a_unique_weight_and_the_largest_such() {
        assert_eq!(anchor_corner(&[0, 1, 2]), Some(2));
        assert_eq!(anchor_corner(&[2, 0, 1]), Some(0));
        assert_eq!(anchor_corner(&[0, 2, 2]), Some(0));
        assert_eq!(anchor_corner(&[3, 3, 1]), Some(2));
        assert_eq!(anchor_corner(&[1, 1, 1]), None);
    }

    #[test]
    fn the_named_corner_fixes_the_turn() {
        // For every tile over 0..3 and every turn, knowing the tile and where its anchor goes
        // leaves exactly one corner assignment: the sentence is never ambiguous.
        for a in 0..4u64 {
            for b in 0..4u64 {
                for c in 0..4u64 {
                    let w = [a, b, c];
                    for r in 0..3 {
                        let corners = crate::model::tiles::rotate(w, r);
                        let Some(i) = anchor_corner(&corners) else {
                            assert!(a == b && b == c);
                            continue;
                        };
                        let fits: std::collections::BTreeSet<[u64; 3]> = (0..3)
                            .map(|s| crate::model::tiles::rotate(w, s))
                            .filter(|t| t[i] == corners[i])
                            .collect();
                        assert_eq!(fits.len(), 1, "{w:?} turned {r}");
                    }
                }
            }
        }
    }
}
