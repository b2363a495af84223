//! Checks a 3SoKu arrangement against the instance from first principles.

use crate::model::Instance;
use crate::model::Placement;
use crate::puzzle::Invalid;

/// Verifies that `placements` solve `inst`: every face gets exactly one placement, the tiles
/// used are exactly the instance's tiles (each index once), every placement's corners are
/// its tile turned by its rotation, fixed placements are honoured, and every vertex's
/// corners add up to its capacity.
pub fn verify(inst: &Instance, placements: &[Placement]) -> Result<(), Invalid> {
    let var = &inst.variant;
    let nf = var.faces.len();
    if placements.len() != nf {
        return Err(Invalid(format!("{} placements for {nf} faces", placements.len())));
    }
    let mut face_seen = vec![false; nf];
    let mut tile_seen = vec![false; inst.tiles.len()];
    let mut on_face: Vec<Option<&Placement>> = vec![None; nf];
    for p in placements {
        if p.face >= nf {
            return Err(Invalid(format!(
                "placement on face #{} which does not exist",
                p.face + 1
            )));
        }
        if std::mem::replace(&mut face_seen[p.face], true) {
            return Err(Invalid(format!("face {} gets two tiles", var.face_label(p.face))));
        }
        if p.tile >= inst.tiles.len() {
            return Err(Invalid(format!("tile #{} does not exist", p.tile + 1)));
        }
        if std::mem::replace(&mut tile_seen[p.tile], true) {
            return Err(Invalid(format!("tile #{} is used twice", p.tile + 1)));
        }
        if p.rotation > 2 {
            return Err(Invalid(format!(
                "rotation {} on face {}",
                p.rotation,
                var.face_label(p.face)
            )));
        }
        // Turning clockwise by r moves the weight listed at position j to position j + r.
        let w = inst.tiles[p.tile];
        for j in 0..3 {
            let at = (j + p.rotation as usize) % 3;
            if p.corners[at] != w[j] {
                return Err(Invalid(format!(
                    "face {}: tile #{} {:?} turned {} does not give corners {:?}",
                    var.face_label(p.face),
                    p.tile + 1,
                    w,
                    p.rotation,
                    p.corners
                )));
            }
        }
        on_face[p.face] = Some(p);
    }
    for fx in &inst.fixed {
        let p = on_face[fx.face].ok_or_else(|| Invalid("missing placement".into()))?;
        let want = inst.tiles[fx.tile];
        let got = inst.tiles[p.tile];
        let same_tile = (0..3).any(|s| (0..3).all(|j| want[j] == got[(j + s) % 3]));
        if !same_tile {
            return Err(Invalid(format!(
                "face {} is fixed to tile #{} {:?} but carries {:?}",
                var.face_label(fx.face),
                fx.tile + 1,
                want,
                got
            )));
        }
        if let Some(r) = fx.rotation {
            let expect: Vec<u64> = (0..3).map(|i| want[(i + 3 - r as usize) % 3]).collect();
            if expect != p.corners {
                return Err(Invalid(format!(
                    "face {} is fixed with rotation {r}, corners {:?}, but has {:?}",
                    var.face_label(fx.face),
                    expect,
                    p.corners
                )));
            }
        }
    }
    let mut sums = vec![0u64; var.vertices.len()];
    for (f, face) in var.faces.iter().enumerate() {
        let p = on_face[f].ok_or_else(|| Invalid(format!("face {} has no tile", var.face_label(f))))?;
        for i in 0..3 {
            sums[face[i]] += p.corners[i];
        }
    }
    for (x, (&s, &c)) in sums.iter().zip(&inst.capacities).enumerate() {
        if s != c {
            return Err(Invalid(format!(
                "vertex {} gets {s} but its capacity is {c}",
                var.vertices[x]
            )));
        }
    }
    Ok(())
}
