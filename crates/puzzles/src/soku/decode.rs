//! Solver answers -> placements (tile index, rotation, corners).

use super::compile::Compiled;
use crate::model::{Instance, Placement, tiles::rotation_to};

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DecodeError {
    #[error("face {face}: {count} placements are true in the answer (exactly one is needed)")]
    FaceNotExactlyOne { face: String, count: usize },
    #[error("tile {weights:?} is placed {used} times but the instance has {have}")]
    TooManyOfType {
        weights: [u64; 3],
        used: usize,
        have: usize,
    },
    #[error("the answer has {got} values but the model has {want} variables")]
    WrongSize { got: usize, want: usize },
}

/// Turns a full assignment of the primary variables into one placement per face.
///
/// Identical tiles are interchangeable; each face gets a concrete tile index, preferring
/// the tile a `fixed` entry named for that face.
pub fn decode(inst: &Instance, c: &Compiled, assignment: &[bool]) -> Result<Vec<Placement>, DecodeError> {
    let want = c.model.pool.len();
    if assignment.len() < want {
        return Err(DecodeError::WrongSize {
            got: assignment.len(),
            want,
        });
    }
    let v = &inst.variant;
    let mut chosen = Vec::with_capacity(v.num_faces());
    for (f, vars) in c.face_vars.iter().enumerate() {
        let mut on = vars.iter().filter(|x| assignment[x.index()]);
        let (Some(first), None) = (on.next(), on.next()) else {
            return Err(DecodeError::FaceNotExactlyOne {
                face: v.face_label(f),
                count: vars.iter().filter(|x| assignment[x.index()]).count(),
            });
        };
        let p = c.model.pool.key(*first);
        chosen.push((p.ty, p.rot));
    }
    // Hand out concrete tiles of each type: named fixed tiles first, then in list order.
    // `taken` marks the tiles handed out; `next[t]` is where type t's untaken members start
    // (every member before it is taken).
    let mut taken = vec![false; inst.tiles.len()];
    let mut next = vec![0usize; c.types.len()];
    let mut tile_of: Vec<Option<usize>> = vec![None; v.num_faces()];
    for fx in &inst.fixed {
        let t = chosen[fx.face].0;
        if tile_of[fx.face].is_some() {
            continue;
        }
        if c.types[t].members.contains(&fx.tile) && !taken[fx.tile] {
            taken[fx.tile] = true;
            tile_of[fx.face] = Some(fx.tile);
        }
    }
    for f in 0..v.num_faces() {
        if tile_of[f].is_none() {
            let t = chosen[f].0;
            let members = &c.types[t].members;
            while next[t] < members.len() && taken[members[next[t]]] {
                next[t] += 1;
            }
            let Some(&m) = members.get(next[t]) else {
                let used = chosen.iter().filter(|(u, _)| *u == t).count();
                return Err(DecodeError::TooManyOfType {
                    weights: c.types[t].weights,
                    used,
                    have: c.types[t].multiplicity(),
                });
            };
            taken[m] = true;
            tile_of[f] = Some(m);
        }
    }
    Ok((0..v.num_faces())
        .map(|f| {
            let (t, r) = chosen[f];
            let corners = c.types[t].corners(r);
            let tile = tile_of[f].unwrap_or(c.types[t].members[0]);
            let rotation = rotation_to(inst.tiles[tile], corners).unwrap_or(0);
            Placement {
                face: f,
                tile,
                rotation,
                corners,
            }
        })
        .collect())
}
