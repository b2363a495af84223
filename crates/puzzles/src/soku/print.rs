//! What a 3SoKu answer prints, piece by piece: the status line, one sentence per placement,
//! and the JSON fields. The front-end's `text` and `json_fields` (in `puzzle`) and the
//! enumeration's writer (in `writer`) are made of these, so that both write the same bytes.

use std::fmt::Write;

use serde_json::{Value, json};

use crate::ir::Status;
use crate::model::{Instance, Placement};
use crate::render::instruction;

/// The placements as sentences, one line each.
pub(super) fn sentences(inst: &Instance, ps: &[Placement], indent: &str) -> String {
    let mut s = String::new();
    for p in ps {
        s.push_str(indent);
        push_line(&mut s, inst, p);
    }
    s
}

/// One placement's line of the text (after its indent).
pub fn push_line(s: &mut String, inst: &Instance, p: &Placement) {
    instruction::push_sentence(
        s,
        &inst.variant,
        p.face,
        &inst.tiles[p.tile],
        &p.corners,
        &inst.capacities,
    );
    let _ = writeln!(s, ".  [tile #{}, rotation {}]", p.tile + 1, p.rotation);
}

/// The first line of the text: the status, the variant and the capacities.
pub fn status_line(inst: &Instance, status: Status) -> String {
    let v = &inst.variant;
    let caps: Vec<String> = v
        .vertices
        .iter()
        .zip(&inst.capacities)
        .map(|(n, c)| format!("{n}={c}"))
        .collect();
    format!("{} on {}: {}\n", status.as_str(), v.name, caps.join(" "))
}

/// What the text says of a verified solution, after its placements.
pub const VERIFIED: &str = "verified: every vertex sum equals its capacity\n";

/// One placement in the JSON fields.
pub fn placement_json(inst: &Instance, p: &Placement) -> Value {
    let v = &inst.variant;
    let face: Vec<&str> = v.faces[p.face].iter().map(|&x| v.vertices[x].as_str()).collect();
    json!({
        "face": face,
        "tile": p.tile + 1,
        "weights": inst.tiles[p.tile],
        "rotation": p.rotation,
        "corners": p.corners,
    })
}

/// The JSON fields before the placements.
pub(super) fn instance_fields(inst: &Instance) -> Vec<(String, Value)> {
    let v = &inst.variant;
    vec![
        ("variant".into(), json!(v.name)),
        ("vertices".into(), json!(v.vertices)),
        ("capacities".into(), json!(inst.capacities)),
    ]
}
