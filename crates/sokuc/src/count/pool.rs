//! The counter of pool instances (tile types with min/max bounds) and free pegs
//! (`capacities = { permutation_of = [...] }`): dynamic programming over the faces in the
//! same small-frontier order as [`super::frontier`], one direction.
//!
//! A configuration gives every face one option (pool type, distinct rotation); the pegs
//! follow from it (each vertex's peg is its sum), exactly as `solve --all` on the pool kind
//! enumerates "placements; free pegs follow". A state after `k` faces is
//! - how many faces took each type so far (checked against `max` as it grows, against
//!   `min` when no face is left, and pruned when the faces left cannot reach the mins),
//! - with free pegs, how many vertices took each distinct peg value so far (a closed
//!   vertex's sum must be a value not yet used up),
//! - the partial sums of the open vertices,
//!
//! packed into one `u128`. Counts are `u128`, checked: a count past 2^128 is refused, never
//! wrong.

use std::collections::HashMap;
use std::collections::hash_map::Entry;

use super::frontier::{Stop, face_order};
use crate::budget::Deadline;
use crate::model::pool::{Pegs, PoolInstance};
use crate::model::tiles::{Tile, rotate};

/// Bytes a state costs while two layers are held.
pub const BYTES_PER_STATE: u64 = 128;

/// What the pool counter found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PoolFound {
    pub count: u128,
    pub frontier: usize,
    pub peak_states: usize,
    pub total_states: u64,
    /// Whether the DP ran (false: a necessary condition gave 0 at once).
    pub ran: bool,
}

fn bits_for(max: u64) -> u32 {
    64 - max.leading_zeros()
}

/// The distinct rotations of a tile (turns that show different corners).
fn distinct_rotations(t: Tile) -> Vec<u8> {
    let mut rs: Vec<u8> = Vec::new();
    for r in 0..3u8 {
        if !rs.iter().any(|&q| rotate(t, q) == rotate(t, r)) {
            rs.push(r);
        }
    }
    rs
}

#[derive(Clone, Copy)]
struct Field {
    shift: u32,
    mask: u128,
}

impl Field {
    fn get(self, k: u128) -> u64 {
        super::frontier::low64((k >> self.shift) & self.mask)
    }
}

/// Counts the configurations of a pool instance within `max_states` states held at once.
pub fn count(inst: &PoolInstance, max_states: usize, deadline: &Deadline) -> Result<PoolFound, Stop> {
    let v = &inst.variant;
    let faces: Vec<[usize; 3]> = v.faces.clone();
    let nf = faces.len();
    let nv = v.num_vertices();
    let zero = PoolFound {
        count: 0,
        frontier: 0,
        peak_states: 0,
        total_states: 0,
        ran: false,
    };
    // Peg values: fixed per vertex, or a multiset of distinct values with multiplicities.
    let (fixed, values, vmult): (Option<&Vec<u64>>, Vec<u64>, Vec<u64>) = match &inst.pegs {
        Pegs::Fixed(c) => (Some(c), Vec::new(), Vec::new()),
        Pegs::Free(m) => {
            let mut s = m.clone();
            s.sort_unstable();
            let mut vals: Vec<u64> = Vec::new();
            let mut mult: Vec<u64> = Vec::new();
            for x in s {
                if vals.last() == Some(&x) {
                    *mult.last_mut().unwrap() += 1;
                } else {
                    vals.push(x);
                    mult.push(1);
                }
            }
            (None, vals, mult)
        }
    };
    let peg_count = match &inst.pegs {
        Pegs::Fixed(c) => c.len(),
        Pegs::Free(m) => m.len(),
    };
    let caps: Vec<u64> = match fixed {
        Some(c) => c.clone(),
        None => vec![values.last().copied().unwrap_or(0); nv],
    };
    let pool = &inst.pool;
    let mins: u64 = pool.iter().map(|t| t.min as u64).sum();
    let maxs: u64 = pool.iter().map(|t| (t.max as u64).min(nf as u64)).sum();
    if peg_count != nv || mins > nf as u64 || maxs < nf as u64 || pool.iter().any(|t| t.min > t.max) {
        return Ok(zero);
    }
    // Options per face: (type, corners) within the caps.
    let mut opts_all: Vec<(usize, Tile)> = Vec::new();
    for (t, pt) in pool.iter().enumerate() {
        if pt.max == 0 {
            continue;
        }
        for r in distinct_rotations(pt.tile) {
            opts_all.push((t, rotate(pt.tile, r)));
        }
    }
    let options: Vec<Vec<(usize, Tile)>> = faces
        .iter()
        .map(|f| {
            opts_all
                .iter()
                .copied()
                .filter(|(_, c)| (0..3).all(|i| c[i] <= caps[f[i]]))
                .collect()
        })
        .collect();
    if options.iter().any(Vec::is_empty) {
        return Ok(zero);
    }
    let order = face_order(&faces, &caps);
    // Fields: type counts, value counts, then vertex slots.
    let mut bits = 0u32;
    let mut type_f = Vec::with_capacity(pool.len());
    for pt in pool {
        let b = bits_for((pt.max as u64).min(nf as u64));
        type_f.push(Field {
            shift: bits,
            mask: (1u128 << b) - 1,
        });
        bits += b;
    }
    let mut value_f = Vec::with_capacity(values.len());
    for &m in &vmult {
        let b = bits_for(m);
        value_f.push(Field {
            shift: bits,
            mask: (1u128 << b) - 1,
        });
        bits += b;
    }
    let slot_bits = bits_for(caps.iter().copied().max().unwrap_or(0)).max(1);
    // Slots per vertex along the order.
    let mut left = vec![0usize; nv];
    for f in &faces {
        for &x in f {
            left[x] += 1;
        }
    }
    let mut slot_of = vec![usize::MAX; nv];
    let mut free_slots: Vec<usize> = Vec::new();
    let mut next_slot = 0usize;
    let mut open = 0usize;
    let mut frontier = 0usize;
    // Per step: per corner (slot field, closes, vertex).
    let mut steps: Vec<[(Field, bool, usize); 3]> = Vec::with_capacity(nf);
    for &f in &order {
        let mut st = [(Field { shift: 0, mask: 0 }, false, 0usize); 3];
        for (i, &x) in faces[f].iter().enumerate() {
            if slot_of[x] == usize::MAX {
                slot_of[x] = free_slots.pop().unwrap_or_else(|| {
                    next_slot += 1;
                    next_slot - 1
                });
                open += 1;
            }
            st[i] = (
                Field {
                    shift: super::frontier::slot_shift(bits, slot_of[x], slot_bits),
                    mask: (1u128 << slot_bits) - 1,
                },
                false,
                x,
            );
        }
        frontier = frontier.max(open);
        for (i, &x) in faces[f].iter().enumerate() {
            left[x] -= 1;
            if left[x] == 0 {
                st[i].1 = true;
                free_slots.push(slot_of[x]);
                slot_of[x] = usize::MAX;
                open -= 1;
            }
        }
        steps.push(st);
    }
    let total_bits = super::frontier::slot_shift(bits, next_slot, slot_bits);
    if total_bits > 128 {
        return Err(Stop::Wide { bits: total_bits });
    }
    let log_bound: f64 = options.iter().map(|o| (o.len() as f64).log2()).sum();
    if log_bound >= 127.5 {
        // Counts could pass u128; refuse rather than risk a wrong number.
        return Err(Stop::Wide { bits: 129 });
    }
    let value_index = |s: u64| values.binary_search(&s).ok();
    let mut layer: HashMap<u128, u128> = HashMap::new();
    layer.insert(0, 1);
    let (mut peak, mut total) = (1usize, 1u64);
    for (k, &f) in order.iter().enumerate() {
        let st = &steps[k];
        let faces_left = (nf - k - 1) as u64;
        let mut next: HashMap<u128, u128> = HashMap::with_capacity(layer.len());
        let held = layer.len();
        let mut made = 0usize;
        for (n, (&key, &cnt)) in layer.iter().enumerate() {
            if n % 65_536 == 0 && deadline.passed() {
                return Err(Stop::TimedOut);
            }
            'option: for &(t, c) in &options[f] {
                let tf = type_f[t];
                let used = tf.get(key);
                if used >= pool[t].max as u64 {
                    continue;
                }
                let mut nk = key + (1u128 << tf.shift);
                // The faces left must still reach every type's minimum.
                let short: u64 = pool
                    .iter()
                    .zip(&type_f)
                    .map(|(pt, fl)| (pt.min as u64).saturating_sub(fl.get(nk)))
                    .sum();
                if short > faces_left {
                    continue;
                }
                for i in 0..3 {
                    let (sf, closes, x) = st[i];
                    let s = sf.get(nk) + c[i];
                    if s > caps[x] {
                        continue 'option;
                    }
                    nk &= !(sf.mask << sf.shift);
                    if closes {
                        if fixed.is_some() {
                            if s != caps[x] {
                                continue 'option;
                            }
                        } else {
                            let Some(j) = value_index(s) else { continue 'option };
                            let vf = value_f[j];
                            if vf.get(nk) >= vmult[j] {
                                continue 'option;
                            }
                            nk += 1u128 << vf.shift;
                        }
                    } else {
                        nk |= u128::from(s) << sf.shift;
                    }
                }
                match next.entry(nk) {
                    Entry::Occupied(mut e) => {
                        *e.get_mut() = e.get().checked_add(cnt).ok_or(Stop::Wide { bits: 129 })?;
                    }
                    Entry::Vacant(e) => {
                        if made + held >= max_states {
                            return Err(Stop::States {
                                states: made + held,
                                limit: max_states,
                                per_state: BYTES_PER_STATE,
                            });
                        }
                        made += 1;
                        e.insert(cnt);
                    }
                }
            }
        }
        layer = next;
        peak = peak.max(layer.len());
        total += layer.len() as u64;
        if layer.is_empty() {
            break;
        }
    }
    // Every vertex closed; mins were kept by the pruning (no face left means none short).
    let count = layer
        .values()
        .try_fold(0u128, |a, &c| a.checked_add(c))
        .ok_or(Stop::Wide { bits: 129 })?;
    Ok(PoolFound {
        count,
        frontier,
        peak_states: peak,
        total_states: total,
        ran: true,
    })
}
