//! Reads a polyhedron puzzle's solution (3SoKu, pools) as `solve` prints it, in JSON
//! (`--format json`, or the first line of `--all --format json`) or in text (for `check` and
//! `render`).

use serde::Deserialize;
use serde::de::DeserializeOwned;

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
    let raw: SolutionJson = if text.trim_start().starts_with('{') {
        first_json(file, text)?
    } else {
        parse_text(file, text, v, tiles)?
    };
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

/// The first JSON value of `text`: the whole answer of `solve --format json`, or the first
/// solution of `solve --all --format json` (one JSON object per line).
pub fn first_json<T: DeserializeOwned>(file: &str, text: &str) -> Result<T, InputError> {
    let mut values = serde_json::Deserializer::from_str(text).into_iter::<T>();
    match values.next() {
        Some(Ok(v)) => Ok(v),
        Some(Err(e)) => Err(InputError::new(file, Some(e.line()), format!("invalid JSON: {e}"))),
        None => Err(InputError::new(file, None, "the solution file is empty")),
    }
}

/// The part of `solve`'s text before the first `----------` (`--all` writes one solution
/// after another): the first solution.
pub fn first_text(text: &str) -> &str {
    let mut end = 0;
    for line in text.split_inclusive('\n') {
        if line.trim() == "----------" || line.trim() == "==========" {
            break;
        }
        end += line.len();
    }
    &text[..end]
}

/// Reads the text `solve` prints for a polyhedron puzzle: the status line (3SoKu: `sat on
/// NAME: A=1 B=2 ...`; pools: `sat on the NAME: pegs A=1 ...`), then a line per face,
/// `Put tile ... on the face with pegs 1, 2, 3 (ABC), turned ... .  [tile #N, rotation R]`
/// (pools: `[type [a, b, c], rotation R]`). Indented lines (`--unique`'s second solution) and
/// comments are skipped; `--all`'s text is read up to its first solution's end.
fn parse_text(file: &str, text: &str, v: &Variant, tiles: &[Tile]) -> Result<SolutionJson, InputError> {
    let text = first_text(text);
    let mut lines = text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty());
    let Some((_, head)) = lines.next() else {
        return Err(InputError::new(file, None, "the solution file is empty"));
    };
    let status = head.split_whitespace().next().unwrap_or("");
    if !["sat", "unsat", "unknown"].contains(&status) || !head.contains(" on ") {
        return Err(InputError::new(
            file,
            Some(1),
            "not a solution as `sokuc solve` prints it: expected JSON (`--format json`) or the text, whose first line is `sat on ...`",
        ));
    }
    if status != "sat" {
        return Ok(SolutionJson {
            placements: None,
            status: Some(status.to_string()),
            capacities: None,
        });
    }
    // "A=1 B=2 ...": the capacities (pegs), in the variant's vertex order.
    let caps: Vec<(&str, &str)> = head
        .split_once(": ")
        .map(|(_, rest)| rest.split_whitespace().filter_map(|t| t.split_once('=')).collect())
        .unwrap_or_default();
    let capacities = (caps.len() == v.num_vertices() && caps.iter().zip(&v.vertices).all(|((n, _), name)| n == name))
        .then(|| {
            caps.iter()
                .map(|(_, c)| c.parse::<u64>().ok())
                .collect::<Option<Vec<u64>>>()
        })
        .flatten();
    let mut placements = Vec::new();
    for (i, line) in lines {
        if line.starts_with(char::is_whitespace) {
            continue;
        }
        let Some((sentence, tag)) = line.trim_end().rsplit_once(".  [") else {
            continue;
        };
        let Some(tag) = tag.strip_suffix(']') else { continue };
        let bad = |what: &str| InputError::new(file, Some(i + 1), format!("cannot read this placement: {what}"));
        let (which, rotation) = tag.rsplit_once(", rotation ").ok_or_else(|| bad("no rotation"))?;
        let rotation: i64 = rotation
            .trim()
            .parse()
            .map_err(|_| bad("the rotation is not a number"))?;
        let tile = if let Some(n) = which.strip_prefix("tile #") {
            n.trim()
                .parse::<i64>()
                .map_err(|_| bad("the tile number is not a number"))?
        } else if let Some(w) = which.strip_prefix("type [").and_then(|w| w.strip_suffix(']')) {
            let w: Vec<u64> = w
                .split(',')
                .map(|x| x.trim().parse::<u64>())
                .collect::<Result<_, _>>()
                .map_err(|_| bad("the type's weights are not numbers"))?;
            let k = tiles
                .iter()
                .position(|t| t.as_slice() == w.as_slice())
                .ok_or_else(|| bad(&format!("no tile type {w:?} in this puzzle")))?;
            k as i64 + 1
        } else {
            return Err(bad(
                "expected `[tile #N, rotation R]` or `[type [a, b, c], rotation R]`",
            ));
        };
        // "... on the face with pegs 1, 2, 3 (ABC), turned ...": the face's vertices.
        let face = sentence
            .split_once("on the face with pegs ")
            .and_then(|(_, rest)| rest.split_once(" ("))
            .and_then(|(_, rest)| rest.split_once("), "))
            .map(|(face, _)| face)
            .ok_or_else(|| bad("no face named `(...)`"))?;
        let names = if face.contains(", ") {
            face.split(", ").map(str::to_string).collect()
        } else {
            v.split_face_string(face)
        };
        placements.push(PlacementJson {
            face: FaceJson::List(names),
            tile,
            rotation,
            corners: None,
        });
    }
    if placements.is_empty() {
        return Err(InputError::new(
            file,
            None,
            "the text says sat but has no placement lines (`... [tile #N, rotation R]`)",
        ));
    }
    Ok(SolutionJson {
        placements: Some(placements),
        status: Some(status.to_string()),
        capacities,
    })
}
