//! A 3-D shape for a variant, which lists only which vertices make each face: the page draws
//! the polyhedron from these points.
//!
//! The graph's Laplacian gives the start: its three eigenvectors after the constant one place
//! the vertices of a polyhedral graph roughly where a convex solid has them (for the
//! icosahedron and the octahedron, exactly). A short relaxation on the unit sphere (edges
//! pull, every pair pushes) then evens the faces out. Faces are listed clockwise as seen from
//! outside, so the result is mirrored if most faces turn the other way.

use sokuc::Variant;

/// Points of `v`'s vertices on the unit sphere, in vertex order.
pub fn positions(v: &Variant) -> Vec<[f64; 3]> {
    let n = v.vertices().len();
    let mut neighbours = vec![Vec::new(); n];
    for f in v.faces() {
        for k in 0..3 {
            let (a, b) = (f[k], f[(k + 1) % 3]);
            if !neighbours[a].contains(&b) {
                neighbours[a].push(b);
                neighbours[b].push(a);
            }
        }
    }
    // The spectral start first; where it folds (a small solid whose eigenvectors are
    // degenerate, such as the triangular bipyramid), random starts on the sphere, each
    // relaxed: the first shape with every face turned as listed wins, else the one with the
    // fewest faces turned the wrong way.
    let mut best: Option<(usize, Vec<[f64; 3]>)> = None;
    for attempt in 0..STARTS {
        let mut p = if attempt == 0 {
            spectral(&neighbours)
        } else {
            random_start(n, attempt)
        };
        // The pairwise push is quadratic: past a few hundred vertices the spectral shape stays.
        if n <= 400 {
            relax(&mut p, &neighbours, 300);
        } else if attempt > 0 {
            break;
        }
        if inward_faces(v, &p) * 2 > v.faces().len() {
            for q in &mut p {
                q[0] = -q[0];
            }
        }
        let wrong = inward_faces(v, &p);
        if wrong == 0 {
            return p;
        }
        if best.as_ref().is_none_or(|(w, _)| wrong < *w) {
            best = Some((wrong, p));
        }
    }
    best.map(|(_, p)| p).unwrap_or_default()
}

/// Starts tried before the best folded shape is taken.
const STARTS: u64 = 24;

/// `n` points spread at random on the unit sphere, the same for the same `seed`.
fn random_start(n: usize, seed: u64) -> Vec<[f64; 3]> {
    let mut rng = Rng::new(seed.wrapping_mul(0x9e37_79b9));
    let mut coordinate = || (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64 * 2.0 - 1.0;
    (0..n)
        .map(|_| unit([coordinate(), coordinate(), coordinate()]))
        .collect()
}

/// How many faces of `v` turn counter-clockwise seen from outside at `p`.
pub fn inward_faces(v: &Variant, p: &[[f64; 3]]) -> usize {
    v.faces()
        .iter()
        .filter(|f| {
            let (a, b, c) = (p[f[0]], p[f[1]], p[f[2]]);
            let n = cross(sub(b, a), sub(c, a));
            // Clockwise from outside: the normal of (b - a) x (c - a) points in.
            dot(n, add(add(a, b), c)) > 0.0
        })
        .count()
}

/// Subspace iteration on `c I - L` (its largest eigenvalues are the Laplacian's smallest),
/// with the constant vector projected out.
fn spectral(neighbours: &[Vec<usize>]) -> Vec<[f64; 3]> {
    let n = neighbours.len();
    let c = 2.0 * neighbours.iter().map(Vec::len).max().unwrap_or(1) as f64 + 1.0;
    let mut rng = Rng::new(0x5eed);
    let mut x: Vec<[f64; 3]> = (0..n)
        .map(|_| std::array::from_fn(|_| (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64 - 0.5))
        .collect();
    for _ in 0..400 {
        let next: Vec<[f64; 3]> = (0..n)
            .map(|i| {
                let mut y = scale(x[i], c - neighbours[i].len() as f64);
                for &j in &neighbours[i] {
                    y = add(y, x[j]);
                }
                y
            })
            .collect();
        x = next;
        orthonormalise(&mut x);
    }
    for q in &mut x {
        *q = unit(*q);
    }
    x
}

/// Columns of `x`: mean zero, orthonormal (Gram-Schmidt).
fn orthonormalise(x: &mut [[f64; 3]]) {
    let n = x.len().max(1) as f64;
    for k in 0..3 {
        let mean = x.iter().map(|q| q[k]).sum::<f64>() / n;
        for q in x.iter_mut() {
            q[k] -= mean;
        }
        for j in 0..k {
            let d: f64 = x.iter().map(|q| q[k] * q[j]).sum();
            for q in x.iter_mut() {
                q[k] -= d * q[j];
            }
        }
        let norm = x.iter().map(|q| q[k] * q[k]).sum::<f64>().sqrt();
        if norm > 1e-300 {
            for q in x.iter_mut() {
                q[k] /= norm;
            }
        }
    }
}

/// Edges pull their ends together, every pair of vertices pushes apart; each step ends back
/// on the unit sphere.
fn relax(p: &mut [[f64; 3]], neighbours: &[Vec<usize>], steps: usize) {
    let n = p.len();
    for step in 0..steps {
        let rate = 0.05 * (1.0 - step as f64 / steps as f64) + 0.005;
        let forces: Vec<[f64; 3]> = (0..n)
            .map(|i| {
                let mut f = [0.0; 3];
                for &j in &neighbours[i] {
                    f = add(f, sub(p[j], p[i]));
                }
                for j in 0..n {
                    if j != i {
                        let d = sub(p[i], p[j]);
                        let r2 = dot(d, d).max(1e-6);
                        f = add(f, scale(d, 1.0 / (r2 * r2.sqrt() * n as f64)));
                    }
                }
                f
            })
            .collect();
        for (q, f) in p.iter_mut().zip(forces) {
            *q = add(*q, scale(f, rate));
        }
        // Centred before going back to the sphere: edges pull every vertex together, and
        // without this a small solid slides into one cap of the sphere and folds.
        let centre = scale(p.iter().fold([0.0; 3], |c, q| add(c, *q)), 1.0 / n as f64);
        for q in p.iter_mut() {
            *q = unit(sub(*q, centre));
        }
    }
}

/// A small seeded generator (splitmix64), the same sequence as the library's puzzle
/// generators use, kept here because the server reaches the library through its public API
/// alone: a variant's shape and its page tiles stay the same on every request and version.
pub(crate) struct Rng(u64);

impl Rng {
    pub(crate) fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    pub(crate) fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// Uniform in `0..n` (the modulo bias is below 2^-40 for the sizes used here).
    pub(crate) fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }
}

fn add(a: [f64; 3], b: [f64; 3]) -> [f64; 3] {
    [a[0] + b[0], a[1] + b[1], a[2] + b[2]]
}

fn sub(a: [f64; 3], b: [f64; 3]) -> [f64; 3] {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}

fn scale(a: [f64; 3], s: f64) -> [f64; 3] {
    [a[0] * s, a[1] * s, a[2] * s]
}

fn dot(a: [f64; 3], b: [f64; 3]) -> f64 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

fn cross(a: [f64; 3], b: [f64; 3]) -> [f64; 3] {
    [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ]
}

fn unit(a: [f64; 3]) -> [f64; 3] {
    let n = dot(a, a).sqrt();
    if n > 1e-300 { scale(a, 1.0 / n) } else { [1.0, 0.0, 0.0] }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every built-in solid comes out convex, each face turned as its file lists it: every
    /// other vertex lies strictly inside the plane of each face.
    #[test]
    fn built_in_solids_come_out_convex_and_turned_as_listed() {
        let mut names: Vec<String> = Variant::builtin_names().into_iter().map(str::to_string).collect();
        names.extend((3..=12).map(|n| format!("bipyramid-{n}")));
        for name in names {
            let v = Variant::builtin(&name).unwrap();
            let p = positions(&v);
            assert_eq!(inward_faces(&v, &p), 0, "{name}");
            for f in v.faces() {
                let (a, b, c) = (p[f[0]], p[f[1]], p[f[2]]);
                let normal = unit(cross(sub(c, a), sub(b, a)));
                for (i, q) in p.iter().enumerate() {
                    if !f.contains(&i) {
                        assert!(
                            dot(normal, sub(*q, a)) < -1e-3,
                            "{name}: vertex {i} is outside face {f:?}"
                        );
                    }
                }
            }
        }
    }

    /// The icosahedron's edges all come out the same length (a regular solid).
    #[test]
    fn the_icosahedron_is_regular() {
        let v = Variant::builtin("icosahedron").unwrap();
        let p = positions(&v);
        let lengths: Vec<f64> = v
            .faces()
            .iter()
            .flat_map(|f| (0..3).map(move |k| (f[k], f[(k + 1) % 3])))
            .map(|(a, b)| dot(sub(p[a], p[b]), sub(p[a], p[b])).sqrt())
            .collect();
        let (lo, hi) = lengths
            .iter()
            .fold((f64::MAX, 0f64), |(lo, hi), &l| (lo.min(l), hi.max(l)));
        assert!(hi / lo < 1.01, "{lo} .. {hi}");
    }
}
