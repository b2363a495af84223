//! `POST /api/variant {name}` or `{text}`: a polyhedron for the page to draw: its faces, a
//! convex 3-D shape, a tile set and pegs that have a solution.

use serde_json::json;

use crate::serve::geometry::{self, Rng};
use crate::serve::reply::{Reply, error};
use crate::serve::request::Body;
use crate::serve::state::State;
use sokuc::{Instance, Variant};

/// The seed instance's pegs for A..L (instances/icosoku-seed.toml).
const ICOSOKU_SEED_PEGS: [u64; 12] = [1, 5, 11, 10, 7, 12, 9, 2, 6, 8, 4, 3];

/// Variants past this many faces are not drawn (the page would be a blur of triangles).
const MAX_FACES: usize = 2000;

/// IcoSoKu's own twenty tiles, as its puzzle lists them (the library's set `icosoku`).
pub(super) fn icosoku_tiles() -> Vec<[u64; 3]> {
    let icosoku = Instance::icosoku(&ICOSOKU_SEED_PEGS.map(|p| p.to_string()).join(","));
    icosoku
        .ok()
        .and_then(|i| i.tiles().map(<[_]>::to_vec))
        .unwrap_or_default()
}

pub(super) fn post(body: &Body, state: &State) -> Result<Reply, Reply> {
    let started = std::time::Instant::now();
    // A bipyramid is built from its name before its faces can be counted: past the page's
    // size, refused by the number in the name (`bipyramid-18446744073709551615` overflowed
    // while it was built, and `bipyramid-100000000` would take gigabytes).
    if let Some(n) = body.name.as_deref().and_then(|n| n.strip_prefix("bipyramid-"))
        && n.bytes().all(|b| b.is_ascii_digit())
        && n.parse::<usize>().map_or(true, |n| n > MAX_FACES / 2)
    {
        return Err(error(
            400,
            format!(
                "name: bipyramid-{n} is larger than the page draws: give bipyramid-N with N from 3 to {}",
                MAX_FACES / 2
            ),
        ));
    }
    let v: Variant = match (&body.name, &body.text) {
        (Some(name), None) => Variant::builtin(name).map_err(|e| error(400, e.to_string()))?,
        (None, Some(text)) => {
            Variant::parse("uploaded variant", text, "uploaded").map_err(|e| error(400, e.to_string()))?
        }
        _ => {
            return Err(error(
                400,
                "request: give `name` (a built-in variant) or `text` (a variant file)",
            ));
        }
    };
    let (faces, vertices) = (v.faces().len(), v.vertices().len());
    if faces > MAX_FACES {
        return Err(error(
            400,
            format!("{}: {faces} faces is more than the page draws ({MAX_FACES})", v.name()),
        ));
    }
    // The layout (`geometry::positions`) takes a core for a while on a large solid: it takes
    // its turn with the requests that solve.
    let (_ticket, _turn) = state.begin(body.job.as_deref(), started, body.timeout(state))?;
    let (tiles, tile_set) = if faces == 20 {
        (icosoku_tiles(), Some("icosoku"))
    } else {
        // Weights 0..3 as IcoSoKu's, fixed per variant so that a link shows the same puzzle.
        let mut rng = Rng::new(faces as u64 * 7919 + vertices as u64);
        let t = (0..faces)
            .map(|_| {
                let mut w = [0u64; 3];
                for x in &mut w {
                    *x = rng.below(4) as u64;
                }
                w.sort_unstable();
                w
            })
            .collect();
        (t, None)
    };
    // IcoSoKu's own pegs on the icosahedron with its tiles: a permutation of 1..12 (the
    // seed's), as on the physical puzzle, where every permutation has a solution. Elsewhere,
    // pegs planted so that they have a solution: tile i on face i, unturned, its corners
    // summed per vertex.
    let icosoku = v.name() == "icosahedron" && tile_set == Some("icosoku");
    let pegs: Vec<u64> = if icosoku {
        ICOSOKU_SEED_PEGS.to_vec()
    } else {
        let mut pegs = vec![0u64; vertices];
        for (f, t) in v.faces().iter().zip(&tiles) {
            for k in 0..3 {
                pegs[f[k]] += t[k];
            }
        }
        pegs
    };
    Ok(Reply::json(&json!({
        "name": v.name(),
        "vertices": v.vertices(),
        "faces": v.faces(),
        "positions": geometry::positions(&v),
        "tiles": tiles,
        "tile_set": tile_set,
        "pegs": pegs,
        "pegs_kind": if icosoku { "icosoku" } else { "planted" },
    })))
}
