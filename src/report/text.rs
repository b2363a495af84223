//! Text output: one instruction per face, for a person holding the puzzle.

use std::fmt::Write;

use super::instruction;
use crate::backend::Status;
use crate::model::Instance;
use crate::pipeline::SokuResult;

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
                let _ = writeln!(
                    s,
                    "{}.  [tile #{}, rotation {}]",
                    instruction::sentence(v, p.face, &inst.tiles[p.tile], &p.corners, &inst.capacities),
                    p.tile + 1,
                    p.rotation
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
