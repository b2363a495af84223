//! Reads a polyhedron puzzle's solution (3SoKu, pools) in the JSON of `solve --format json`
//! (for `check` and `render`).

use serde::Deserialize;

use crate::input::InputError;
use crate::model::Placement;
use crate::model::{Instance, Tile, Variant};

#[derive(Deserialize)]
struct SolutionJson {
    placements: Option<Vec<PlacementJson>>,
    status: Option<String>,
    capacities: Option<Vec<u64>>,
}

#[derive(Deserialize)]
#[serde(untagged)]
enum FaceJson {
    List(Vec<String>),
    Str(String),
}

#[derive(Deserialize)]
struct PlacementJson {
    face: FaceJson,
    tile: i64,
    rotation: i64,
    corners: Option<Vec<u64>>,
}

/// Parses placements, resolving faces by name. Corners default to the tile turned by the
/// rotation when absent; when present they are kept as given, for the verifier to judge.
pub fn parse_solution(file: &str, text: &str, inst: &Instance) -> Result<Vec<Placement>, InputError> {
    parse_placements(file, text, &inst.variant, &inst.tiles).map(|(p, _)| p)
}

/// Parses the placements of any polyhedron puzzle's JSON (`tile` indexes `tiles`, 1-based),
/// and its `capacities` when it has them.
pub fn parse_placements(
    file: &str,
    text: &str,
    v: &Variant,
    tiles: &[Tile],
) -> Result<(Vec<Placement>, Option<Vec<u64>>), InputError> {
    let raw: SolutionJson =
        serde_json::from_str(text).map_err(|e| InputError::new(file, Some(e.line()), format!("invalid JSON: {e}")))?;
    let list = match raw.placements {
        Some(p) => p,
        None => {
            let st = raw.status.unwrap_or_else(|| "none".into());
            return Err(InputError::new(
                file,
                None,
                format!("no placements to check (status {st})"),
            ));
        }
    };
    let mut out = Vec::with_capacity(list.len());
    for (k, p) in list.iter().enumerate() {
        let at = |m: String| InputError::new(file, None, format!("placement {}: {m}", k + 1));
        let names = match &p.face {
            FaceJson::List(l) => l.clone(),
            FaceJson::Str(s) => v.split_face_string(s),
        };
        let f = v.find_face(&names).ok_or_else(|| {
            at(format!(
                "{} is not a face of {}{}",
                names.join(","),
                v.name,
                crate::input::instance_file::other_orientation(v, &names, ",")
            ))
        })?;
        if p.tile < 1 || p.tile as usize > tiles.len() {
            return Err(at(format!("tile {} is out of range 1..{}", p.tile, tiles.len())));
        }
        if !(0..=2).contains(&p.rotation) {
            return Err(at(format!("rotation {} is not 0, 1 or 2", p.rotation)));
        }
        let tile = p.tile as usize - 1;
        // Positions are relative to how the face was written; shift to the variant's order.
        let first = v.vertex_index(&names[0]).unwrap_or(0);
        let shift = (0..3).find(|&s| v.faces[f][s] == first).unwrap_or(0);
        let given: [u64; 3] = match &p.corners {
            Some(c) if c.len() == 3 => [c[0], c[1], c[2]],
            Some(c) => return Err(at(format!("{} corners (three are needed)", c.len()))),
            None => crate::model::rotate(tiles[tile], p.rotation as u8),
        };
        let mut corners = [0u64; 3];
        for (i, c) in given.iter().enumerate() {
            corners[(i + shift) % 3] = *c;
        }
        out.push(Placement {
            face: f,
            tile,
            rotation: ((p.rotation as usize + shift) % 3) as u8,
            corners,
        });
    }
    Ok((out, raw.capacities))
}
