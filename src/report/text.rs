//! Text output: one instruction per face, for a person holding the puzzle.

use std::fmt::Write;

use crate::backend::Status;
use crate::model::Instance;
use crate::pipeline::SokuResult;

fn tuple(w: &[u64; 3]) -> String {
    format!("({},{},{})", w[0], w[1], w[2])
}

/// The text `solve` prints. It holds no timings, so `decode` of the same answer prints
/// exactly the same.
pub fn soku(inst: &Instance, r: &SokuResult) -> String {
    let v = &inst.variant;
    let caps: Vec<String> = v
        .vertices
        .iter()
        .zip(&inst.capacities)
        .map(|(n, c)| format!("{n}={c}"))
        .collect();
    let mut s = String::new();
    let _ = writeln!(s, "{} on {}: {}", r.status.as_str(), v.name, caps.join(" "));
    match (r.status, &r.placements) {
        (Status::Sat, Some(ps)) => {
            for p in ps {
                let face = v.faces[p.face];
                let corners: Vec<String> = (0..3)
                    .map(|i| format!("{} gets {}", v.vertices[face[i]], p.corners[i]))
                    .collect();
                let _ = writeln!(
                    s,
                    "Put tile #{} {} on face {}, turned {} so that {}.",
                    p.tile + 1,
                    tuple(&inst.tiles[p.tile]),
                    v.face_label(p.face),
                    p.rotation,
                    corners.join(", ")
                );
            }
            let _ = writeln!(
                s,
                "verified: {}",
                if r.verified {
                    "every vertex sum equals its capacity"
                } else {
                    "NO"
                }
            );
        }
        _ => {
            if let Some(reason) = &r.reason {
                let _ = writeln!(s, "reason: {reason}");
            }
        }
    }
    s
}
