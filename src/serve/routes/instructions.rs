//! `POST /api/instructions {solution}`: a 3SoKu solution as the steps `sokuc solve` prints,
//! one per placement in its order ("Put tile (0,1,2) on the face with pegs 3, 6, 6 ..."),
//! which the page reveals one at a time.

use serde_json::{Value, json};

use crate::serve::reply::{Reply, error};
use crate::serve::request::{Body, shown};
use crate::serve::state::State;

pub(super) fn post(body: &Body, _: &State) -> Result<Reply, Reply> {
    let instance = body.instance()?;
    let (Some(variant), Some(tiles)) = (instance.variant(), instance.tiles()) else {
        return Err(error(
            400,
            format!(
                "steps are for 3SoKu instances (a tile per face), not {}",
                instance.kind()
            ),
        ));
    };
    let placements = body
        .solution
        .as_ref()
        .and_then(|s| s.get("placements"))
        .and_then(Value::as_array)
        .ok_or_else(|| error(400, "solution: give the solve answer's JSON, with its `placements`"))?;
    let bad = |what: &str| error(400, format!("solution: {what}"));
    let tiles = tiles.len();
    let mut steps = Vec::new();
    for (i, p) in placements.iter().enumerate() {
        let at = i + 1;
        let names: Vec<String> = p["face"]
            .as_array()
            .ok_or_else(|| bad(&format!("placement {at} has no `face`")))?
            .iter()
            .filter_map(|n| n.as_str().map(str::to_string))
            .collect();
        let face = variant
            .find_face(&names)
            .ok_or_else(|| bad(&format!("placement {at}: no face {}", names.join(""))))?;
        // Every number is checked against its range here: the tile is an index into the
        // instance's tiles, and the sentence reads the corners.
        let tile = p["tile"]
            .as_u64()
            .and_then(|t| usize::try_from(t).ok())
            .filter(|&t| (1..=tiles).contains(&t))
            .ok_or_else(|| {
                bad(&format!(
                    "placement {at}: tile {} is not a tile number from 1 to {tiles}",
                    shown(&p["tile"])
                ))
            })?;
        let rotation = &p["rotation"];
        if !rotation.is_null() && rotation.as_u64().is_none_or(|r| r > 2) {
            return Err(bad(&format!(
                "placement {at}: rotation {} is not 0, 1 or 2 (clockwise turns)",
                shown(rotation)
            )));
        }
        let corners: Option<Vec<u64>> = p["corners"]
            .as_array()
            .and_then(|c| c.iter().map(Value::as_u64).collect());
        let corners: [u64; 3] = corners.and_then(|c| c.try_into().ok()).ok_or_else(|| {
            bad(&format!(
                "placement {at}: `corners` must be three whole numbers from 0 to {}, not {}",
                u64::MAX,
                shown(&p["corners"])
            ))
        })?;
        // The face and the tile were found above, so there is a sentence.
        let text = instance.instruction(face, tile - 1, corners).unwrap_or_default();
        steps.push(json!({
            "face": names,
            "tile": tile,
            "rotation": rotation,
            "corners": corners,
            "text": text,
        }));
    }
    Ok(Reply::json(&json!({ "steps": steps })))
}
