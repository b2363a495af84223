//! JSON output (spec §4).

use serde_json::{Value, json};

use crate::model::Instance;
use crate::pipeline::SokuResult;

pub fn soku(inst: &Instance, r: &SokuResult) -> Value {
    let v = &inst.variant;
    let placements: Option<Vec<Value>> = r.placements.as_ref().map(|ps| {
        ps.iter()
            .map(|p| {
                let face: Vec<&str> = v.faces[p.face].iter().map(|&x| v.vertices[x].as_str()).collect();
                json!({
                    "face": face,
                    "tile": p.tile + 1,
                    "weights": inst.tiles[p.tile],
                    "rotation": p.rotation,
                    "corners": p.corners,
                })
            })
            .collect()
    });
    let mut out = json!({
        "status": r.status.as_str(),
        "puzzle": "3soku",
        "backend": r.backend,
        "verified": r.verified,
        "variant": v.name,
        "vertices": v.vertices,
        "capacities": inst.capacities,
        "placements": placements,
        "stats": r.stats,
    });
    if let Some(reason) = &r.reason {
        out["reason"] = json!(reason);
    }
    out
}
