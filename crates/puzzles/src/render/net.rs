//! Unfolding a variant into a flat net of equilateral triangles.
//!
//! Every face is drawn as a unit equilateral triangle, so unfolding one face across an edge of
//! another keeps all corners on the triangular lattice: the new corner is the fourth point of
//! the rhombus the two faces form, `a + b - c` in lattice coordinates. Overlap then becomes an
//! exact question (is this lattice cell taken?) instead of a floating-point one.
//!
//! Faces are added greedily, nearest to the root first (round, compact nets) or row by row
//! (strips). A face
//! may only be laid where its cell is free and where its new corner does not land on a lattice
//! point already carrying a *different* vertex (two names on one point would be unreadable).
//! When nothing more fits, the piece is closed and a new piece starts; several roots and both orders are
//! tried, and the net with the fewest pieces, then the smallest area, wins. For the convex deltahedra
//! and bipyramids this gives one piece (tested).
//!
//! What is tested to come out in one piece: all eight convex deltahedra, bipyramids up to at
//! least 400 faces, and 150 random triangulations made by edge flips of the icosahedron (vertex
//! degrees up to 11). A variant that does not fit in one piece is drawn in several pieces, side
//! by side, and the legend says so; nothing is ever drawn overlapping.

use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap};

use crate::model::Variant;

/// A point of the triangular lattice: `(a, b)` is `a * e1 + b * e2` with `e1 = (1, 0)` and
/// `e2 = (1/2, sqrt(3)/2)`.
type Lp = (i64, i64);

/// The net: each face's corner positions (in face order) in drawing units, edge length 1,
/// `y` pointing down as in SVG, with the faces still clockwise on screen.
#[derive(Debug, Clone)]
pub struct Net {
    pub corners: Vec<[(f64, f64); 3]>,
    /// How many connected pieces the net has (1 for every built-in variant).
    pub pieces: usize,
    pub width: f64,
    pub height: f64,
}

/// Gap between pieces, in edge lengths.
const PIECE_GAP: f64 = 0.6;

/// Roots tried; more buys little on small variants and costs on large ones.
fn roots_to_try(faces: usize) -> usize {
    if faces <= 200 { faces.min(24) } else { 1 }
}

/// The face on the other side of each edge: `across[f][k]` shares edge `f[k] -> f[k+1]`.
fn neighbours(v: &Variant) -> Vec<[Option<usize>; 3]> {
    let mut by_edge: HashMap<(usize, usize), usize> = HashMap::new();
    for (fi, f) in v.faces.iter().enumerate() {
        for k in 0..3 {
            by_edge.insert((f[k], f[(k + 1) % 3]), fi);
        }
    }
    v.faces
        .iter()
        .map(|f| {
            let mut n = [None; 3];
            for (k, slot) in n.iter_mut().enumerate() {
                *slot = by_edge.get(&(f[(k + 1) % 3], f[k])).copied();
            }
            n
        })
        .collect()
}

fn cell(p: &[Lp; 3]) -> [Lp; 3] {
    let mut c = *p;
    c.sort_unstable();
    c
}

/// Which faces to lay first: nearest the root (round nets), or along the root's row first and
/// then row by row (long strips, which is how a bipyramid with many faces fits in one piece).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Strategy {
    Round,
    Band,
}

/// The priority of a candidate cell (smaller first), from its lattice corners.
fn priority(p: &[Lp; 3], strategy: Strategy) -> i64 {
    // Centroid times 3 in Cartesian units: x = sum(a) + sum(b)/2, y = sum(b) * sqrt(3)/2,
    // so 2x = 2 sum(a) + sum(b) and the squared distance times 4 is (2x)^2 + 3 sum(b)^2.
    let sa: i64 = p.iter().map(|q| q.0).sum();
    let sb: i64 = p.iter().map(|q| q.1).sum();
    match strategy {
        Strategy::Round => (2 * sa + sb).pow(2) + 3 * sb.pow(2),
        Strategy::Band => {
            let row = p.iter().map(|q| q.1).min().unwrap_or(0);
            row.abs() * (1 << 40) + (2 * sa + sb).abs()
        }
    }
}

/// A face waiting to be laid: (priority, insertion order, face, its lattice corners).
type Candidate = (i64, usize, usize, [Lp; 3]);

struct Piece {
    /// Lattice corners of each face placed in this piece.
    faces: Vec<(usize, [Lp; 3])>,
}

/// Greedy unfolding with the given root order; returns the pieces.
fn unfold_from(v: &Variant, across: &[[Option<usize>; 3]], roots: &[usize], strategy: Strategy) -> Vec<Piece> {
    let n = v.faces.len();
    let mut placed = vec![false; n];
    let mut pieces = Vec::new();
    let mut root_iter = roots.iter().copied().chain(0..n);
    let mut left = n;
    while left > 0 {
        let root = root_iter.find(|&r| !placed[r]).expect("an unplaced face remains");
        let mut taken: HashMap<[Lp; 3], usize> = HashMap::new();
        let mut point_vertex: HashMap<Lp, usize> = HashMap::new();
        let mut piece = Piece { faces: Vec::new() };
        // Clockwise on screen: corner 1 above the edge from corner 0 to corner 2.
        let start = [(0, 0), (0, 1), (1, 0)];
        let mut heap: BinaryHeap<Reverse<Candidate>> = BinaryHeap::new();
        heap.push(Reverse((0, 0, root, start)));
        let mut order = 0usize;
        while let Some(Reverse((_, _, f, pos))) = heap.pop() {
            if placed[f] || taken.contains_key(&cell(&pos)) {
                continue;
            }
            let fits = (0..3).all(|i| point_vertex.get(&pos[i]).is_none_or(|&x| x == v.faces[f][i]));
            if !fits {
                continue;
            }
            placed[f] = true;
            left -= 1;
            taken.insert(cell(&pos), f);
            for (&p, &x) in pos.iter().zip(&v.faces[f]) {
                point_vertex.insert(p, x);
            }
            piece.faces.push((f, pos));
            for k in 0..3 {
                let Some(g) = across[f][k] else { continue };
                if placed[g] {
                    continue;
                }
                let (a, b, c) = (v.faces[f][k], v.faces[f][(k + 1) % 3], pos[(k + 2) % 3]);
                let (pa, pb) = (pos[k], pos[(k + 1) % 3]);
                let gf = v.faces[g];
                let j = (0..3)
                    .find(|&j| gf[j] == b && gf[(j + 1) % 3] == a)
                    .expect("shared edge");
                let mut gp = [(0, 0); 3];
                gp[j] = pb;
                gp[(j + 1) % 3] = pa;
                gp[(j + 2) % 3] = (pa.0 + pb.0 - c.0, pa.1 + pb.1 - c.1);
                order += 1;
                heap.push(Reverse((priority(&gp, strategy), order, g, gp)));
            }
        }
        pieces.push(piece);
    }
    pieces
}

fn cartesian(p: Lp) -> (f64, f64) {
    let h = 3f64.sqrt() / 2.0;
    // y grows downwards on screen; flipping y keeps clockwise faces clockwise to the eye,
    // because lattice "up" (e2) is drawn up.
    (p.0 as f64 + p.1 as f64 / 2.0, -(p.1 as f64) * h)
}

/// Lays pieces side by side, each shifted to start at its own left edge.
fn layout(v: &Variant, pieces: &[Piece]) -> Net {
    let mut corners = vec![[(0.0, 0.0); 3]; v.faces.len()];
    let mut x0 = 0.0;
    let mut height: f64 = 0.0;
    for piece in pieces {
        let pts: Vec<(f64, f64)> = piece
            .faces
            .iter()
            .flat_map(|(_, p)| p.iter().map(|&q| cartesian(q)))
            .collect();
        let min_x = pts.iter().map(|p| p.0).fold(f64::INFINITY, f64::min);
        let max_x = pts.iter().map(|p| p.0).fold(f64::NEG_INFINITY, f64::max);
        let min_y = pts.iter().map(|p| p.1).fold(f64::INFINITY, f64::min);
        let max_y = pts.iter().map(|p| p.1).fold(f64::NEG_INFINITY, f64::max);
        for (f, p) in &piece.faces {
            for i in 0..3 {
                let (x, y) = cartesian(p[i]);
                corners[*f][i] = (x - min_x + x0, y - min_y);
            }
        }
        x0 += max_x - min_x + PIECE_GAP;
        height = height.max(max_y - min_y);
    }
    Net {
        corners,
        pieces: pieces.len(),
        width: (x0 - PIECE_GAP).max(0.0),
        height,
    }
}

/// Unfolds `v` into a net without overlapping faces. Deterministic.
pub fn unfold(v: &Variant) -> Net {
    let across = neighbours(v);
    let mut best: Option<(usize, i64, Vec<Piece>)> = None;
    let tries = (0..roots_to_try(v.faces.len())).flat_map(|r| [(r, Strategy::Round), (r, Strategy::Band)]);
    for (root, strategy) in tries {
        let pieces = unfold_from(v, &across, &[root], strategy);
        let net = layout(v, &pieces);
        // Area in hundredths, so ties compare exactly.
        let area = (net.width * net.height * 100.0).round() as i64;
        let better = match &best {
            None => true,
            Some((p, a, _)) => (pieces.len(), area) < (*p, *a),
        };
        if better {
            best = Some((pieces.len(), area, pieces));
        }
    }
    let (_, _, pieces) = best.expect("a variant has faces");
    layout(v, &pieces)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::builtin;

    fn variant(name: &str) -> Variant {
        crate::input::variant_file::load_variant(name, None, ("test", None)).unwrap()
    }

    fn signed_area(t: &[(f64, f64); 3]) -> f64 {
        (t[1].0 - t[0].0) * (t[2].1 - t[0].1) - (t[2].0 - t[0].0) * (t[1].1 - t[0].1)
    }

    /// What every net must satisfy, whatever the variant: unit clockwise triangles, no two
    /// faces on one cell, no point carrying two vertex names, pieces side by side.
    fn assert_sound(v: &Variant, net: &Net) {
        let key = |p: (f64, f64)| ((p.0 * 1e6).round() as i64, (p.1 * 1e6).round() as i64);
        let mut cells = std::collections::HashSet::new();
        let mut names: HashMap<(i64, i64), usize> = HashMap::new();
        for (f, t) in net.corners.iter().enumerate() {
            for i in 0..3 {
                let (a, b) = (t[i], t[(i + 1) % 3]);
                let len = ((a.0 - b.0).powi(2) + (a.1 - b.1).powi(2)).sqrt();
                assert!((len - 1.0).abs() < 1e-9, "{} face {f}: edge {len}", v.name);
                let old = names.insert(key(t[i]), v.faces[f][i]);
                assert!(
                    old.is_none_or(|o| o == v.faces[f][i]),
                    "{}: two names on one point",
                    v.name
                );
            }
            assert!(signed_area(t) > 0.0, "{} face {f} is not clockwise on screen", v.name);
            let c = ((t[0].0 + t[1].0 + t[2].0) / 3.0, (t[0].1 + t[1].1 + t[2].1) / 3.0);
            assert!(cells.insert(key(c)), "{}: two faces on one cell", v.name);
            assert!(
                t.iter()
                    .all(|p| p.0 >= -1e-9 && p.0 <= net.width + 1e-9 && p.1 >= -1e-9 && p.1 <= net.height + 1e-9)
            );
        }
    }

    /// Flips edge `a -> b` of face `f`: faces (a,b,c) and (b,a,d) become (a,d,c) and (b,c,d),
    /// which keeps the surface closed and clockwise. Refused when it would duplicate an edge or
    /// leave a or b with fewer than three faces.
    fn flip(faces: &mut [[usize; 3]], f: usize, k: usize) -> bool {
        let (a, b, c) = (faces[f][k], faces[f][(k + 1) % 3], faces[f][(k + 2) % 3]);
        let Some(g) = faces
            .iter()
            .position(|x| (0..3).any(|j| x[j] == b && x[(j + 1) % 3] == a))
        else {
            return false;
        };
        let j = (0..3)
            .find(|&j| faces[g][j] == b && faces[g][(j + 1) % 3] == a)
            .unwrap();
        let d = faces[g][(j + 2) % 3];
        let degree = |x: usize| faces.iter().filter(|t| t.contains(&x)).count();
        let has_edge = faces.iter().any(|t| t.contains(&c) && t.contains(&d));
        if c == d || has_edge || degree(a) <= 3 || degree(b) <= 3 {
            return false;
        }
        faces[f] = [a, d, c];
        faces[g] = [b, c, d];
        true
    }

    #[test]
    fn random_triangulations_unfold_soundly() {
        // Random edge flips of the icosahedron give spheres with vertex degrees from 3 to
        // well above 6, which no lattice holds around one point.
        let mut state = 7u64;
        let mut next = |n: usize| {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            ((state >> 33) % n as u64) as usize
        };
        let base = variant("icosahedron");
        let (mut multi, mut flips, mut max_degree) = (0, 0, 0);
        for round in 0..150 {
            let mut v = base.clone();
            for _ in 0..(1 + round % 40) {
                let (f, k) = (next(v.faces.len()), next(3));
                if flip(&mut v.faces, f, k) {
                    flips += 1;
                }
            }
            for x in 0..v.num_vertices() {
                max_degree = max_degree.max(v.faces.iter().filter(|t| t.contains(&x)).count());
            }
            v.validate().expect("flips keep a valid variant");
            let net = unfold(&v);
            assert_sound(&v, &net);
            if net.pieces > 1 {
                multi += 1;
            }
        }
        // The flips happened and made vertices no lattice point can hold.
        assert!(
            flips > 1000 && max_degree >= 9,
            "{flips} flips, max degree {max_degree}"
        );
        eprintln!("{flips} flips, max degree {max_degree}, {multi} of 150 nets in several pieces");
    }

    #[test]
    fn disconnected_variants_unfold_into_pieces_side_by_side() {
        let text = r#"
            vertices = ["A","B","C","D","E","F","G","H"]
            faces = ["ABC","ACD","ADB","BDC","EFG","EGH","EHF","FHG"]
        "#;
        let v = crate::input::variant_file::parse_variant("two.toml", text, "two").unwrap();
        let net = unfold(&v);
        assert_eq!(net.pieces, 2);
        assert_sound(&v, &net);
        // The two tetrahedra do not overlap: their x ranges are apart.
        let xs = |fs: std::ops::Range<usize>| {
            let pts: Vec<f64> = fs.flat_map(|f| net.corners[f].map(|p| p.0)).collect();
            (
                pts.iter().copied().fold(f64::INFINITY, f64::min),
                pts.iter().copied().fold(f64::NEG_INFINITY, f64::max),
            )
        };
        let (a, b) = (xs(0..4), xs(4..8));
        assert!(a.1 < b.0 || b.1 < a.0, "{a:?} {b:?}");
    }

    #[test]
    fn every_builtin_unfolds_into_one_piece_of_unit_clockwise_triangles() {
        let mut names: Vec<String> = builtin::DELTAHEDRA.iter().map(|s| s.to_string()).collect();
        names.extend(["bipyramid-9", "bipyramid-30", "bipyramid-200"].map(String::from));
        for name in names {
            let v = variant(&name);
            let net = unfold(&v);
            assert_eq!(net.pieces, 1, "{name}");
            assert_sound(&v, &net);
        }
    }
}
