//! `POST /api/instructions {solution}`: a 3SoKu solution as the steps `sokuc solve` prints,
//! one per placement in its order ("Put tile (0,1,2) on the face with pegs 3, 6, 6 ..."),
//! which the page reveals one at a time.

use serde_json::{Value, json};

use crate::model::Instance;
use crate::render::instruction;
use crate::serve::request::Body;
use crate::serve::{Reply, State, error};

pub(super) fn post(body: &Body, _: &State) -> Result<Reply, Reply> {
    let puzzle = body.puzzle()?;
    let inst = puzzle.as_any().downcast_ref::<Instance>().ok_or_else(|| {
        error(
            400,
            format!("steps are for 3SoKu instances (a tile per face), not {}", puzzle.kind()),
        )
    })?;
    let placements = body
        .solution
        .as_ref()
        .and_then(|s| s.get("placements"))
        .and_then(Value::as_array)
        .ok_or_else(|| error(400, "solution: give the solve answer's JSON, with its `placements`"))?;
    let bad = |what: &str| error(400, format!("solution: {what}"));
    let mut steps = Vec::new();
    for p in placements {
        let names: Vec<String> = p["face"]
            .as_array()
            .ok_or_else(|| bad("a placement without `face`"))?
            .iter()
            .filter_map(|n| n.as_str().map(str::to_string))
            .collect();
        let face = inst
            .variant
            .find_face(&names)
            .ok_or_else(|| bad(&format!("no face {}", names.join(""))))?;
        let tile = p["tile"]
            .as_u64()
            .and_then(|t| usize::try_from(t).ok())
            .filter(|&t| (1..=inst.tiles.len()).contains(&t))
            .ok_or_else(|| bad("a tile number out of range"))?;
        let corners: Vec<u64> = p["corners"]
            .as_array()
            .map(|c| c.iter().filter_map(Value::as_u64).collect())
            .unwrap_or_default();
        let corners: [u64; 3] = corners.try_into().map_err(|_| bad("`corners` must be three weights"))?;
        let text = instruction::sentence(&inst.variant, face, &inst.tiles[tile - 1], &corners, &inst.capacities);
        steps.push(json!({
            "face": names,
            "tile": tile,
            "rotation": p["rotation"],
            "corners": corners,
            "text": text,
        }));
    }
    Ok(Reply::json(&json!({ "steps": steps })))
}
