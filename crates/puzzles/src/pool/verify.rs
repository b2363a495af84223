//! Checker for pool instances (ADTS), from the rules alone; shares nothing with the
//! front-end's model.

use crate::pool::{Pegs, PoolInstance, PoolSolution};
use crate::puzzle::Invalid;

/// Checks an answer from the rules alone: each face's corners are a rotation of a pool type,
/// every type is used within its bounds, the pegs are the given ones or an arrangement of the
/// multiset, and every vertex's corners add up to its peg.
pub fn verify(inst: &PoolInstance, s: &PoolSolution) -> Result<(), Invalid> {
    let v = &inst.variant;
    if s.faces.len() != v.num_faces() || s.pegs.len() != v.num_vertices() {
        return Err("wrong number of faces or pegs".into());
    }
    let mut used = vec![0u32; inst.pool.len()];
    for (f, &(ty, _, corners)) in s.faces.iter().enumerate() {
        let Some(t) = inst.pool.get(ty).map(|p| p.tile) else {
            return Err(format!("face {} has no tile", v.face_label(f)).into());
        };
        if !(0..3).any(|r| [t[(3 - r) % 3], t[(4 - r) % 3], t[(5 - r) % 3]] == corners) {
            return Err(format!(
                "face {}: corners {corners:?} are not a rotation of {t:?}",
                v.face_label(f)
            )
            .into());
        }
        used[ty] += 1;
    }
    for (p, &n) in inst.pool.iter().zip(&used) {
        if n > p.max || n < p.min {
            return Err(format!("type {:?} is used {n} times (allowed {}..={})", p.tile, p.min, p.max).into());
        }
    }
    match &inst.pegs {
        Pegs::Fixed(c) if *c != s.pegs => return Err("the pegs differ from the given ones".into()),
        Pegs::Free(ms) => {
            let (mut a, mut b) = (ms.clone(), s.pegs.clone());
            a.sort_unstable();
            b.sort_unstable();
            if a != b {
                return Err("the pegs are not an arrangement of the multiset".into());
            }
        }
        _ => {}
    }
    let mut sums = vec![0u64; v.num_vertices()];
    for (f, face) in v.faces.iter().enumerate() {
        for i in 0..3 {
            sums[face[i]] += s.faces[f].2[i];
        }
    }
    for (x, (&sum, &peg)) in sums.iter().zip(&s.pegs).enumerate() {
        if sum != peg {
            return Err(format!("vertex {}: corners add up to {sum}, peg is {peg}", v.vertices[x]).into());
        }
    }
    Ok(())
}
