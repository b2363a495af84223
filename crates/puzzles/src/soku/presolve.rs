//! Cheap necessary conditions checked before any solver runs. Each failure is a reason a
//! person can check by hand; each success narrows what every face may carry.
//!
//! A refutation is spelled out with its numbers, for example `the tiles carry 0+1+2+...+9 =
//! 78 in all (every weight ends up at exactly one vertex), but the capacities add up to
//! 1+10+12+...+3 = 79`, or which vertex needs more than the faces around it can give.
//!
//! `tests/presolve_soundness.rs` exists because presolve once answered unsat for four
//! identical tiles on the tetrahedron. Its property tests use the shapes that break naive
//! reasoning (one tile type, all-zero tiles, equal capacities, capacity 0, tiles that are
//! rotations of each other, every tile fixed, none fixed, one type pinned and the rest alike),
//! and compare presolve on and off on two backends, and with brute force on the tetrahedron
//! and octahedron; built against that presolve, 16 of its 22 tests fail.

use crate::model::{Instance, TileType, rotate};
use crate::puzzle::Refutation;

/// For each face, the (type, rotation) options left after presolve.
pub type Domains = Vec<Vec<(usize, u8)>>;

#[derive(Debug, Clone)]
pub enum Presolved {
    /// Options per face that survived; the instance may still be unsatisfiable.
    Open(Domains),
    /// Proven unsatisfiable, with the argument.
    Unsat(String),
}

pub fn presolve(inst: &Instance, types: &[TileType]) -> Presolved {
    match run(inst, types) {
        Ok(d) => Presolved::Open(d),
        Err(reason) => Presolved::Unsat(reason.0),
    }
}

fn tuple(w: &[u64; 3]) -> String {
    format!("({},{},{})", w[0], w[1], w[2])
}

fn plural(n: usize, word: &str) -> String {
    crate::words::count_s(n, word)
}

fn list(xs: impl IntoIterator<Item = u64>) -> String {
    xs.into_iter().map(|x| x.to_string()).collect::<Vec<_>>().join("+")
}

fn run(inst: &Instance, types: &[TileType]) -> Result<Domains, Refutation> {
    let v = &inst.variant;
    let (weight, cap) = (inst.total_weight(), inst.total_capacity());
    if weight != cap {
        // Spelled out term by term, so the argument can be checked by hand.
        return Err(format!(
            "the tiles carry {} = {weight} in all (every weight ends up at exactly one vertex), but the capacities add up to {} = {cap}",
            list(inst.tiles.iter().map(|t| t.iter().sum::<u64>())),
            list(inst.capacities.iter().copied())
        ).into());
    }
    let type_of: Vec<usize> = {
        let mut t = vec![0; inst.tiles.len()];
        for (ti, ty) in types.iter().enumerate() {
            for &m in &ty.members {
                t[m] = ti;
            }
        }
        t
    };

    // Fixed placements restrict faces to one type (and maybe one rotation).
    let all: Vec<(usize, u8)> = types
        .iter()
        .enumerate()
        .flat_map(|(t, ty)| ty.rotations.iter().map(move |&r| (t, r)))
        .collect();
    let mut dom: Domains = vec![all.clone(); v.num_faces()];
    for fx in &inst.fixed {
        let t = type_of[fx.tile];
        let allowed: Vec<(usize, u8)> = match fx.rotation {
            None => types[t].rotations.iter().map(|&r| (t, r)).collect(),
            Some(r) => {
                let corners = rotate(inst.tiles[fx.tile], r);
                types[t]
                    .rotations
                    .iter()
                    .filter(|&&q| types[t].corners(q) == corners)
                    .map(|&q| (t, q))
                    .collect()
            }
        };
        dom[fx.face].retain(|o| allowed.contains(o));
        if dom[fx.face].is_empty() {
            return Err(format!(
                "face {} is fixed more than once, to placements that cannot all hold (one of them is tile #{} {})",
                v.face_label(fx.face),
                fx.tile + 1,
                tuple(&inst.tiles[fx.tile])
            )
            .into());
        }
    }
    for (t, ty) in types.iter().enumerate() {
        if crate::budget::compile_stop() {
            return Err(Refutation::stopped());
        }
        // Faces left with no option but type t. With a single type, or once other types
        // were pinned away below, faces that were never fixed count here too.
        let only_t: Vec<bool> = dom.iter().map(|d| d.iter().all(|&(u, _)| u == t)).collect();
        let forced = only_t.iter().filter(|&&b| b).count();
        if forced > ty.multiplicity() {
            return Err(format!(
                "{} must carry tile {}, but the instance has only {}",
                plural(forced, "face"),
                tuple(&ty.weights),
                crate::words::count(ty.multiplicity(), "copy", "copies")
            )
            .into());
        }
        // Every copy is already used up by the faces that can take nothing else, so no other
        // face may take this type. Those faces themselves keep it: they, not the fixed ones,
        // are what was counted (issue 13: protecting only fixed faces emptied every face of
        // a one-type instance). A face outside them has an option of another type, so it
        // never becomes empty here.
        if forced == ty.multiplicity() {
            for (d, &keep) in dom.iter_mut().zip(&only_t) {
                if !keep {
                    d.retain(|&(u, _)| u != t);
                }
            }
        }
    }

    // A corner heavier than its vertex's capacity can never be used.
    for (f, d) in dom.iter_mut().enumerate() {
        let face = v.faces[f];
        let before = d.len();
        d.retain(|&(t, r)| {
            let c = types[t].corners(r);
            (0..3).all(|i| c[i] <= inst.capacities[face[i]])
        });
        if d.is_empty() {
            let caps: Vec<String> = face
                .iter()
                .map(|&x| format!("{}={}", v.vertices[x], inst.capacities[x]))
                .collect();
            return Err(format!(
                "no tile fits face {}: {} more weight on a corner than that vertex's capacity ({})",
                v.face_label(f),
                if before == 1 {
                    "its one remaining option puts".to_string()
                } else {
                    format!("each of its {before} remaining options puts")
                },
                caps.join(", ")
            )
            .into());
        }
    }

    // Per-vertex bounds: each incident face holds a different tile, so a vertex of degree d
    // gets at most the d largest tile maxima and at least the d smallest tile minima; and
    // each face can only contribute what its options allow.
    let mut maxima: Vec<u64> = inst.tiles.iter().map(|t| *t.iter().max().unwrap_or(&0)).collect();
    let mut minima: Vec<u64> = inst.tiles.iter().map(|t| *t.iter().min().unwrap_or(&0)).collect();
    maxima.sort_unstable_by(|a, b| b.cmp(a));
    minima.sort_unstable();
    for (x, inc) in v.incidence().iter().enumerate() {
        if crate::budget::compile_stop() {
            return Err(Refutation::stopped());
        }
        let c = inst.capacities[x];
        let d = inc.len();
        let top: u64 = maxima.iter().take(d).sum();
        let bottom: u64 = minima.iter().take(d).sum();
        if c > top {
            return Err(format!(
                "vertex {} needs {c}, but it touches {d} faces and the {d} heaviest tile corners add up to only {} = {top}",
                v.vertices[x],
                list(maxima.iter().take(d).copied())
            ).into());
        }
        if c < bottom {
            return Err(format!(
                "vertex {} needs {c}, but it touches {d} faces and every tile puts at least its lightest corner there: the {d} lightest add up to {} = {bottom}",
                v.vertices[x],
                list(minima.iter().take(d).copied())
            ).into());
        }
        let hi: Vec<u64> = inc
            .iter()
            .map(|&(f, i)| dom[f].iter().map(|&(t, r)| types[t].corners(r)[i]).max().unwrap_or(0))
            .collect();
        let lo: Vec<u64> = inc
            .iter()
            .map(|&(f, i)| dom[f].iter().map(|&(t, r)| types[t].corners(r)[i]).min().unwrap_or(0))
            .collect();
        if c > hi.iter().sum() || c < lo.iter().sum() {
            let faces: Vec<String> = inc.iter().map(|&(f, _)| v.face_label(f)).collect();
            return Err(format!(
                "vertex {} needs {c}, but what its faces {} can still put there ranges from {} = {} to {} = {}",
                v.vertices[x],
                faces.join(" "),
                list(lo.iter().copied()),
                lo.iter().sum::<u64>(),
                list(hi.iter().copied()),
                hi.iter().sum::<u64>()
            )
            .into());
        }
    }

    // Each type needs as many faces that can take it as it has copies.
    for (t, ty) in types.iter().enumerate() {
        if crate::budget::compile_stop() {
            return Err(Refutation::stopped());
        }
        let able = dom.iter().filter(|d| d.iter().any(|&(u, _)| u == t)).count();
        if able < ty.multiplicity() {
            return Err(format!(
                "tile {} has {} but only {} can take it without exceeding a capacity",
                tuple(&ty.weights),
                crate::words::count(ty.multiplicity(), "copy", "copies"),
                plural(able, "face")
            )
            .into());
        }
    }
    Ok(dom)
}
