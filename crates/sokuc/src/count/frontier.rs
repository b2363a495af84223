//! The structural counter of 3SoKu: dynamic programming over the faces in an order with a
//! small vertex frontier.
//!
//! A configuration gives every face one option, (tile type, distinct rotation), so that each
//! type is used exactly as often as it occurs and every vertex sum equals its capacity.
//! Faces are placed one at a time in a fixed order; after `k` faces, a state is the multiset
//! of types used so far together with the partial sums of the *open* vertices (touched, but
//! with faces still to come). Two partial configurations with the same state extend in
//! exactly the same ways, so each state carries only how many partial configurations reach
//! it. A vertex is checked (sum = capacity) and leaves the state when its last face is
//! placed, so the state space is bounded by the frontier, not by the whole polyhedron.
//!
//! States are packed into one `u128`: a bit field per type (its count so far) and a slot per
//! open vertex (its partial sum); a slot is reused once its vertex closes. Counts are `u128`
//! when the product of the faces' option counts (a bound on every partial count) fits, and
//! arbitrary precision otherwise, so no count can overflow.

use std::collections::HashMap;
use std::collections::hash_map::Entry;

use num_bigint::BigUint;

use crate::budget::{Deadline, Progress};
use crate::model::{Instance, Tile};

/// Bytes a state of key `K` and count `C` may cost: its slot (key, count, control byte) times
/// 3.5. A table keeps 1/8 of its slots free and doubles when full, and while it doubles holds
/// old and new slots: 3 * 8/7 = 3.43 slots a state. `u64` keys and counts cost 60 bytes.
fn bytes_per_state<K, C: Tally>() -> u64 {
    let slot = size_of::<(K, C)>() as u64 + 1 + C::heap_bytes();
    (slot * 7).div_ceil(2)
}

/// Why the counter stopped without a count.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Stop {
    /// The layers would hold more than `limit` states at once.
    States {
        states: usize,
        limit: usize,
        /// The bytes each is charged.
        per_state: u64,
    },
    /// The packed state needs more than 128 bits.
    Wide {
        bits: u32,
    },
    TimedOut,
}

/// What the counter found, with the figures that describe its work.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Found {
    pub count: BigUint,
    /// Most open vertices at once in the face order.
    pub frontier: usize,
    /// Most states in one layer.
    pub peak_states: usize,
    /// States created over all layers.
    pub total_states: u64,
    /// The face order used (face indices).
    pub order: Vec<usize>,
    /// Whether a `u64` count overflowed and the layers ran again with wider counts.
    pub widened: bool,
}

/// A face's options: (type, corners) after fixed placements and capacities.
struct Prepared {
    faces: Vec<[usize; 3]>,
    caps: Vec<u64>,
    mult: Vec<u64>,
    options: Vec<Vec<(usize, Tile)>>,
}

fn prepare(inst: &Instance) -> Prepared {
    let types = inst.types();
    let mut options: Vec<Vec<(usize, Tile)>> = Vec::with_capacity(inst.variant.num_faces());
    for (f, face) in inst.variant.faces.iter().enumerate() {
        let mut opts: Vec<(usize, Tile)> = Vec::new();
        for (t, ty) in types.iter().enumerate() {
            for &r in &ty.rotations {
                opts.push((t, ty.corners(r)));
            }
        }
        for fx in inst.fixed.iter().filter(|fx| fx.face == f) {
            let t = types.iter().position(|ty| ty.members.contains(&fx.tile));
            let want = fx.rotation.map(|r| crate::model::rotate(inst.tiles[fx.tile], r));
            opts.retain(|&(u, c)| Some(u) == t && want.is_none_or(|w| w == c));
        }
        // A corner heavier than its vertex's capacity can never be used.
        opts.retain(|(_, c)| (0..3).all(|i| c[i] <= inst.capacities[face[i]]));
        options.push(opts);
    }
    Prepared {
        faces: inst.variant.faces.clone(),
        caps: inst.capacities.clone(),
        mult: types.iter().map(|t| t.multiplicity() as u64).collect(),
        options,
    }
}

/// A face order with a small frontier: from every starting face, repeatedly the face that
/// leaves the fewest vertices open (then the one closing most, then the one touching most
/// placed vertices); of those orders, the one whose frontiers are smallest overall, weighing
/// each open vertex by how many partial sums it can have.
pub(crate) fn face_order(faces: &[[usize; 3]], caps: &[u64]) -> Vec<usize> {
    let nv = caps.len();
    let mut degree = vec![0usize; nv];
    for f in faces {
        for &v in f {
            degree[v] += 1;
        }
    }
    let weight: Vec<f64> = caps.iter().map(|&c| ((c + 1) as f64).log2()).collect();
    let mut best: Option<(f64, Vec<usize>)> = None;
    for start in 0..faces.len() {
        let mut placed = vec![false; faces.len()];
        let mut seen = vec![0usize; nv];
        let mut order = Vec::with_capacity(faces.len());
        let mut cost = 0.0;
        let mut open_weight = 0.0;
        let mut next = Some(start);
        while let Some(f) = next {
            placed[f] = true;
            order.push(f);
            for &v in &faces[f] {
                if seen[v] == 0 {
                    open_weight += weight[v];
                }
                seen[v] += 1;
                if seen[v] == degree[v] {
                    open_weight -= weight[v];
                }
            }
            // States grow about exponentially with the open weight: sum 2^weight.
            cost += open_weight.max(0.0).exp2();
            next = (0..faces.len()).filter(|&g| !placed[g]).min_by_key(|&g| {
                let (mut opens, mut closes, mut touched) = (0i64, 0i64, 0i64);
                for &v in &faces[g] {
                    if seen[v] == 0 {
                        opens += 1;
                    } else {
                        touched += 1;
                    }
                    if seen[v] + 1 == degree[v] {
                        closes += 1;
                    }
                }
                (opens - closes, -closes, -touched)
            });
        }
        if best.as_ref().is_none_or(|(c, _)| cost < *c) {
            best = Some((cost, order));
        }
    }
    best.map(|(_, o)| o).unwrap_or_default()
}

fn bits_for(max: u64) -> u32 {
    64 - max.leading_zeros()
}

fn mask(bits: u32) -> u128 {
    if bits >= 128 { u128::MAX } else { (1u128 << bits) - 1 }
}

/// A count that states add up. The layers run with `u64` counts, and again with `u128`
/// (where the product of the faces' option counts, a bound on every partial count, fits) or
/// arbitrary precision when an addition overflows: an overflow is detected, never silent.
trait Tally: Clone {
    fn one() -> Self;
    /// Adds `other`; false when the sum does not fit.
    fn add(&mut self, other: &Self) -> bool;
    /// The count as a `u128`, when it is one.
    fn small(&self) -> Option<u128>;
    fn big(&self) -> BigUint;
    /// Bytes a count holds outside itself, at most while it is small enough to be held.
    fn heap_bytes() -> u64 {
        0
    }
}

impl Tally for u64 {
    fn small(&self) -> Option<u128> {
        Some(u128::from(*self))
    }
    fn big(&self) -> BigUint {
        BigUint::from(*self)
    }
    fn one() -> Self {
        1
    }
    fn add(&mut self, other: &Self) -> bool {
        self.checked_add(*other).map(|s| *self = s).is_some()
    }
}

impl Tally for u128 {
    fn small(&self) -> Option<u128> {
        Some(*self)
    }
    fn big(&self) -> BigUint {
        BigUint::from(*self)
    }
    fn one() -> Self {
        1
    }
    fn add(&mut self, other: &Self) -> bool {
        self.checked_add(*other).map(|s| *self = s).is_some()
    }
}

impl Tally for BigUint {
    fn small(&self) -> Option<u128> {
        u128::try_from(self).ok()
    }
    fn big(&self) -> BigUint {
        self.clone()
    }
    fn one() -> Self {
        BigUint::from(1u32)
    }
    fn add(&mut self, other: &Self) -> bool {
        *self += other;
        true
    }
    /// Its digits: a few hundred bits at most, in a block the allocator rounds up.
    fn heap_bytes() -> u64 {
        64
    }
}

/// The low 64 bits of `x`, where the value fits by construction: a field of a key (at most
/// 64 bits wide: a vertex's sum or a type's count, both `u64`), or a key the layout made 64
/// bits wide. Checked where debug assertions are on (tests and CI); the mask makes the
/// conversion one the compiler proves, so the counter's inner loop keeps no check.
pub(super) fn low64(x: u128) -> u64 {
    debug_assert!(x >> 64 == 0, "{x} does not fit in 64 bits");
    u64::try_from(x & u128::from(u64::MAX)).expect("masked to 64 bits")
}

/// Where slot `slot` of `slot_bits` bits starts above `base`. Saturates: a layout past 128
/// bits is refused (`Stop::Wide`) before any shift is used.
pub(super) fn slot_shift(base: u32, slot: usize, slot_bits: u32) -> u32 {
    let slot = u32::try_from(slot).unwrap_or(u32::MAX);
    base.saturating_add(slot.saturating_mul(slot_bits))
}

/// A packed state: `u64` when the fields fit, else `u128`.
trait Key: Copy + Eq + std::hash::Hash + Default {
    fn field(self, shift: u32, mask: u128) -> u64;
    fn clear(self, shift: u32, mask: u128) -> Self;
    fn put(self, shift: u32, value: u64) -> Self;
    fn from_wide(k: u128) -> Self;
    fn wide(self) -> u128;
}

impl Key for u64 {
    fn field(self, shift: u32, mask: u128) -> u64 {
        (self >> shift) & low64(mask)
    }
    fn clear(self, shift: u32, mask: u128) -> Self {
        self & !(low64(mask) << shift)
    }
    fn put(self, shift: u32, value: u64) -> Self {
        self + (value << shift)
    }
    fn from_wide(k: u128) -> Self {
        low64(k)
    }
    fn wide(self) -> u128 {
        u128::from(self)
    }
}

impl Key for u128 {
    fn field(self, shift: u32, mask: u128) -> u64 {
        low64((self >> shift) & mask)
    }
    fn clear(self, shift: u32, mask: u128) -> Self {
        self & !(mask << shift)
    }
    fn put(self, shift: u32, value: u64) -> Self {
        self + (u128::from(value) << shift)
    }
    fn from_wide(k: u128) -> Self {
        k
    }
    fn wide(self) -> u128 {
        self
    }
}

/// A layer: packed states and their counts. The keys are dense bit fields, which the default
/// SipHash hashes safely but slowly; nothing here is attacker-chosen in a way that matters
/// beyond speed, and the state limit bounds memory either way. The crate's one fast hash
/// (`rustc_hash`, as in `ir::hash`; the counter does not import the IR).
type Layer<K, C> = HashMap<K, C, rustc_hash::FxBuildHasher>;

/// One corner of a face in the order: where its vertex's partial sum lives and what it must
/// reach.
#[derive(Clone, Copy)]
struct Corner {
    shift: u32,
    mask: u128,
    /// The last face at this vertex: the sum must now equal the capacity.
    closes: bool,
    /// Bounds on the partial sum after this face, from what the vertex's later faces can
    /// still add.
    lo: u64,
    hi: u64,
}

/// An option of a face: a type (its bit field) and the corners it puts down.
struct Choice {
    shift: u32,
    mask: u128,
    /// Copies of the type that may be used before this face: its multiplicity less the
    /// copies later faces must take.
    allowed: u64,
    corners: Tile,
}

/// Everything a layer needs about its face.
struct Step {
    corners: [Corner; 3],
    options: Vec<Choice>,
}

/// The size of a count before it starts: the faces, the most vertices open at once along
/// the order the counter uses, and log2 of the placements a search would go through (each
/// face's options multiplied).
pub fn estimate(inst: &Instance) -> (usize, usize, f64) {
    let p = prepare(inst);
    let order = face_order(&p.faces, &p.caps);
    let log2: f64 = p.options.iter().map(|o| (o.len().max(1) as f64).log2()).sum();
    (p.faces.len(), frontier_size(&p, &order), log2)
}

/// Counts the configurations of `inst` with at most `max_memory` bytes of states held at
/// once. `progress` follows the faces placed (of all) and the states of the layer last built.
pub fn count(inst: &Instance, max_memory: u64, deadline: &Deadline, progress: &Progress) -> Result<Found, Stop> {
    count_with::<u64>(inst, max_memory, deadline, progress)
}

/// [`count`] with `N` as the first count type tried.
fn count_with<N: Tally>(
    inst: &Instance,
    max_memory: u64,
    deadline: &Deadline,
    progress: &Progress,
) -> Result<Found, Stop> {
    let p = prepare(inst);
    let total_weight: u64 = inst.tiles.iter().flatten().sum();
    let hopeless = inst.tiles.len() != p.faces.len()
        || total_weight != inst.capacities.iter().sum::<u64>()
        || p.options.iter().any(Vec::is_empty);
    if hopeless {
        return Ok(Found {
            count: BigUint::default(),
            frontier: 0,
            peak_states: 0,
            total_states: 0,
            order: Vec::new(),
            widened: false,
        });
    }
    let order = face_order(&p.faces, &p.caps);
    let reversed: Vec<usize> = order.iter().rev().copied().collect();
    // Bit fields: one per type, then the vertex slots.
    let mut shift_of_type = Vec::with_capacity(p.mult.len());
    let mut bits = 0u32;
    for &m in &p.mult {
        shift_of_type.push(bits);
        bits += bits_for(m);
    }
    let slot_bits = bits_for(p.caps.iter().copied().max().unwrap_or(0));
    let fwd = plan(&p, &order, &shift_of_type, bits, slot_bits);
    let bwd = plan(&p, &reversed, &shift_of_type, bits, slot_bits);
    let frontier = frontier_size(&p, &order);
    let total_bits = slot_shift(bits, fwd.slots.max(bwd.slots), slot_bits);
    if total_bits > 128 {
        return Err(Stop::Wide { bits: total_bits });
    }
    let job = Job {
        fwd: &fwd,
        bwd: &bwd,
        caps: &p.caps,
        full: p
            .mult
            .iter()
            .zip(&shift_of_type)
            .map(|(&m, &s)| u128::from(m) << s)
            .sum(),
        type_mask: mask(bits),
        max_memory,
        deadline,
        progress,
    };
    progress.set_total(u64::try_from(order.len()).unwrap_or(u64::MAX));
    let log_bound: f64 = p.options.iter().map(|o| (o.len() as f64).log2()).sum();
    let ((count, peak, total), widened) = run_fitting::<N>(&job, total_bits, log_bound)?;
    Ok(Found {
        count,
        frontier,
        peak_states: peak,
        total_states: total,
        order,
        widened,
    })
}

/// The most vertices open at once (touched, not finished) along `order`.
fn frontier_size(p: &Prepared, order: &[usize]) -> usize {
    let mut left = vec![0usize; p.caps.len()];
    for f in &p.faces {
        for &v in f {
            left[v] += 1;
        }
    }
    let mut touched = vec![false; p.caps.len()];
    let (mut open, mut most) = (0usize, 0usize);
    for &f in order {
        for &v in &p.faces[f] {
            if !std::mem::replace(&mut touched[v], true) {
                open += 1;
            }
        }
        most = most.max(open);
        for &v in &p.faces[f] {
            left[v] -= 1;
            if left[v] == 0 {
                open -= 1;
            }
        }
    }
    most
}

/// The layers of one direction: a step per face, the open vertices after each with their
/// slots' shifts, and how many slots there are.
struct Plan {
    steps: Vec<Step>,
    open_after: Vec<Vec<(usize, u32)>>,
    slots: usize,
}

/// The per-face tables: slots, bounds, and options with their type's shift and allowance.
fn plan(p: &Prepared, order: &[usize], type_shift: &[u32], base: u32, slot_bits: u32) -> Plan {
    let nv = p.caps.len();
    // For each vertex, the least and most its faces from position k on can add.
    let mut at: Vec<Vec<(usize, usize)>> = vec![Vec::new(); nv]; // (position in order, corner)
    for (k, &f) in order.iter().enumerate() {
        for (i, &v) in p.faces[f].iter().enumerate() {
            at[v].push((k, i));
        }
    }
    let reach = |k: usize, i: usize, pick: fn(u64, u64) -> u64, init: u64| {
        p.options[order[k]].iter().map(|o| o.1[i]).fold(init, pick)
    };
    // Copies of each type that faces from position k on can take no other type than.
    let mut forced = vec![vec![0u64; p.mult.len()]; order.len() + 1];
    for k in (0..order.len()).rev() {
        forced[k] = forced[k + 1].clone();
        let opts = &p.options[order[k]];
        if let Some(&(t, _)) = opts.first()
            && opts.iter().all(|o| o.0 == t)
        {
            forced[k][t] += 1;
        }
    }
    let mut slot_of = vec![usize::MAX; nv];
    let mut free: Vec<usize> = Vec::new();
    let mut next_slot = 0usize;
    let mut done = vec![false; nv];
    let mut out = Vec::with_capacity(order.len());
    let mut open_after = Vec::with_capacity(order.len());
    for (k, &f) in order.iter().enumerate() {
        let face = p.faces[f];
        let mut corners = [Corner {
            shift: 0,
            mask: mask(slot_bits),
            closes: false,
            lo: 0,
            hi: 0,
        }; 3];
        for (i, &v) in face.iter().enumerate() {
            if slot_of[v] == usize::MAX && !done[v] {
                slot_of[v] = free.pop().unwrap_or_else(|| {
                    next_slot += 1;
                    next_slot - 1
                });
            }
            let later: Vec<(usize, usize)> = at[v].iter().copied().filter(|&(j, _)| j > k).collect();
            let least: u64 = later.iter().map(|&(j, c)| reach(j, c, u64::min, u64::MAX)).sum();
            let most: u64 = later.iter().map(|&(j, c)| reach(j, c, u64::max, 0)).sum();
            corners[i] = Corner {
                shift: slot_shift(base, slot_of[v], slot_bits),
                mask: mask(slot_bits),
                closes: later.is_empty(),
                lo: p.caps[v].saturating_sub(most),
                hi: p.caps[v].saturating_sub(least),
            };
        }
        for (i, &v) in face.iter().enumerate() {
            if corners[i].closes {
                free.push(slot_of[v]);
                slot_of[v] = usize::MAX;
                done[v] = true;
            }
        }
        open_after.push(
            (0..nv)
                .filter(|&v| slot_of[v] != usize::MAX)
                .map(|v| (v, slot_shift(base, slot_of[v], slot_bits)))
                .collect(),
        );
        let options = p.options[f]
            .iter()
            .filter_map(|&(t, c)| {
                // After this face, later faces still need `forced[k + 1][t]` copies of t.
                let allowed = p.mult[t].checked_sub(forced[k + 1][t])?;
                Some(Choice {
                    shift: type_shift[t],
                    mask: mask(bits_for(p.mult[t])),
                    allowed,
                    corners: c,
                })
            })
            .collect();
        out.push(Step { corners, options });
    }
    Plan {
        steps: out,
        open_after,
        slots: next_slot,
    }
}

/// How a run of the layers ended without a count.
enum Halt {
    Stop(Stop),
    /// A count did not fit the count type: run again with a wider one.
    Overflow,
}

/// What both directions share.
struct Job<'a> {
    fwd: &'a Plan,
    bwd: &'a Plan,
    caps: &'a [u64],
    /// The packed multiset of every tile.
    full: u128,
    /// The bits of the multiset in a packed state.
    type_mask: u128,
    max_memory: u64,
    deadline: &'a Deadline,
    progress: &'a Progress,
}

type Counts = (BigUint, usize, u64);

/// The layers with the narrowest key and count types that hold them.
/// Returns whether the counts had to be widened.
fn run_fitting<N: Tally>(job: &Job, bits: u32, log_bound: f64) -> Result<(Counts, bool), Stop> {
    let narrow = if bits <= 64 {
        run::<u64, N>(job)
    } else {
        run::<u128, N>(job)
    };
    match narrow {
        Ok(r) => return Ok((r, false)),
        Err(Halt::Stop(s)) => return Err(s),
        Err(Halt::Overflow) => {}
    }
    let wide = match (bits <= 64, log_bound < 127.0) {
        (true, true) => run::<u64, u128>(job),
        (false, true) => run::<u128, u128>(job),
        (true, false) => run::<u64, BigUint>(job),
        (false, false) => run::<u128, BigUint>(job),
    };
    wide.map(|r| (r, true)).map_err(|h| match h {
        Halt::Stop(s) => s,
        // Unreachable: u128 counts are used only under the bound, BigUint never overflows.
        Halt::Overflow => Stop::Wide { bits: 129 },
    })
}

/// Meet in the middle: layers grow from the first face of the order and from the last, the
/// smaller side advancing, until one face is left; then the smaller side places it, and
/// each state it reaches is matched with the one state of the other side that completes
/// it (the other tiles, the rest of each shared vertex's capacity), without building that
/// last layer. Returns (count, most states in a layer, states created).
fn run<K: Key, C: Tally>(job: &Job) -> Result<Counts, Halt> {
    let n = job.fwd.steps.len();
    let start = || {
        let mut l: Layer<K, C> = Layer::default();
        l.insert(K::default(), C::one());
        l
    };
    let (mut a, mut b) = (start(), start());
    let (mut i, mut j) = (0usize, 0usize);
    let (mut peak, mut total) = (1usize, 2u64);
    while i + j + 1 < n {
        let (side, plan, placed, held) = if a.len() <= b.len() {
            (&mut a, job.fwd, &mut i, b.len())
        } else {
            (&mut b, job.bwd, &mut j, a.len())
        };
        let cur = std::mem::take(side);
        // The next layer starts with room for as many states as this one, charged at once.
        let mut next: Layer<K, C> = Layer::with_capacity_and_hasher(cur.len(), Default::default());
        let per_state = bytes_per_state::<K, C>();
        let limit = usize::try_from(job.max_memory / per_state).unwrap_or(usize::MAX);
        let held = cur.len() + held;
        let mut made = 0usize;
        advance(&cur, &plan.steps[*placed], job.deadline, |nk, cnt| {
            let states = held + made.max(cur.len());
            match next.entry(nk) {
                Entry::Occupied(mut c) => c.get_mut().add(cnt).then_some(()).ok_or(Halt::Overflow),
                Entry::Vacant(_) if states >= limit => Err(Halt::Stop(Stop::States {
                    states,
                    limit,
                    per_state,
                })),
                Entry::Vacant(e) => {
                    made += 1;
                    e.insert(cnt.clone());
                    Ok(())
                }
            }
        })?;
        drop(cur);
        *side = next;
        *placed += 1;
        job.progress.set_done(u64::try_from(i + j).unwrap_or(u64::MAX));
        job.progress.set_figure(u64::try_from(side.len()).unwrap_or(u64::MAX));
        peak = peak.max(side.len());
        total += side.len() as u64;
        if a.is_empty() || b.is_empty() {
            return Ok((BigUint::default(), peak, total));
        }
    }
    // The last face, placed by the smaller side and matched against the other.
    let ((x, px, ix), (y, py, iy)) = if a.len() <= b.len() {
        ((&a, job.fwd, i), (&b, job.bwd, j))
    } else {
        ((&b, job.bwd, j), (&a, job.fwd, i))
    };
    let open_x = &px.open_after[ix];
    let mut shift_y = vec![0u32; job.caps.len()];
    for &(v, sh) in iy.checked_sub(1).map_or(&[][..], |k| &py.open_after[k]) {
        shift_y[v] = sh;
    }
    let slot_mask = px.steps[ix].corners[0].mask;
    let (mut big, mut part) = (BigUint::default(), 0u128);
    advance(x, &px.steps[ix], job.deadline, |kx, cx| {
        let wide = kx.wide();
        let mut ky = job.full - (wide & job.type_mask);
        for &(v, sh) in open_x {
            let s = low64((wide >> sh) & slot_mask);
            ky += u128::from(job.caps[v] - s) << shift_y[v];
        }
        if let Some(cy) = y.get(&K::from_wide(ky)) {
            match cx
                .small()
                .zip(cy.small())
                .and_then(|(p, q)| p.checked_mul(q))
                .and_then(|p| part.checked_add(p))
            {
                Some(sum) => part = sum,
                None => big += cx.big() * cy.big(),
            }
        }
        Ok(())
    })?;
    Ok((big + part, peak, total))
}

/// Every state of `cur` with every option of the step's face that keeps the tile counts and
/// the vertices' bounds, handed to `sink` with its count.
fn advance<K: Key, C: Tally>(
    cur: &Layer<K, C>,
    step: &Step,
    deadline: &Deadline,
    mut sink: impl FnMut(K, &C) -> Result<(), Halt>,
) -> Result<(), Halt> {
    let cs = &step.corners;
    for (n, (&key, cnt)) in cur.iter().enumerate() {
        if n % 65_536 == 0 && deadline.passed() {
            return Err(Halt::Stop(Stop::TimedOut));
        }
        let sums = cs.map(|x| key.field(x.shift, x.mask));
        // The key with this face's slots emptied; they are refilled below.
        let bare = cs.iter().fold(key, |k, x| k.clear(x.shift, x.mask));
        'option: for o in &step.options {
            if key.field(o.shift, o.mask) >= o.allowed {
                continue;
            }
            let mut nk = bare.put(o.shift, 1);
            for i in 0..3 {
                let (x, s) = (&cs[i], sums[i] + o.corners[i]);
                if s < x.lo || s > x.hi {
                    continue 'option;
                }
                if !x.closes {
                    nk = nk.put(x.shift, s);
                }
            }
            sink(nk, cnt)?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests;
