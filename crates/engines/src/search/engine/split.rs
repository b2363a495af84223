//! Parallel enumeration: the walk's first decisions, made ahead of it, split the tree into
//! *cubes* (the decisions on one path from the root, each "option o" or "not o"), and each
//! worker walks the leaves under the cubes it takes ([`Engine::enumerate_cubes`]).
//!
//! The cubes are made the walk's way, two-way branching on primary groups only, so the two
//! children of a node are disjoint and together are the node: the cubes partition the
//! primary assignments, and no solution is reported by two cubes or lost. A path stops
//! growing at the depth asked for, at a leaf, or where every primary group is fixed (a
//! split on another group would report the same primary values from two cubes); a branch
//! that propagation refutes has no solution and makes no cube.

use std::ops::ControlFlow;
use std::sync::atomic::{AtomicUsize, Ordering};

use super::walk::Walk;
use super::{Engine, State, bit};
use crate::budget::Deadline;
use crate::ir::{Lit, Var};

/// One decision of a cube: group `g` restricted to option `o` (`take`), or to every other
/// option.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Step {
    g: u32,
    o: u32,
    take: bool,
}

/// The decisions on one path from the root.
pub type Cube = Vec<Step>;

/// The deepest split tried: 2^20 cubes at most, far more than any number of workers needs.
const MAX_DEPTH: u32 = 20;

impl Engine {
    /// At least `want` cubes that partition the tree under `assumptions` (fewer when the
    /// tree has fewer nodes to split on), in the order the walk would reach them. `None`
    /// when the deadline passed first. An empty list: no solution.
    pub fn split(
        &mut self,
        assumptions: &[Lit],
        primary: &[bool],
        want: usize,
        deadline: &Deadline,
    ) -> Option<Vec<Cube>> {
        let Some(mut s) = self.root(assumptions, 0) else {
            return Some(Vec::new());
        };
        // Deepened one level at a time until there are enough cubes: the tree's top is
        // small next to the walk, so making it again costs little.
        let mut cubes = Vec::new();
        for depth in 1..=MAX_DEPTH {
            cubes.clear();
            let mut path = Vec::new();
            let deeper = self.cubes_below(&mut s, primary, depth, &mut path, &mut cubes, deadline)?;
            if cubes.len() >= want || !deeper {
                break;
            }
        }
        Some(cubes)
    }

    /// The cubes under `path` (already decided on `s`), `depth` levels more at most;
    /// whether some path stopped at the depth limit (a deeper split would give more).
    fn cubes_below(
        &mut self,
        s: &mut State,
        primary: &[bool],
        depth: u32,
        path: &mut Cube,
        out: &mut Vec<Cube>,
        deadline: &Deadline,
    ) -> Option<bool> {
        if deadline.passed() {
            return None;
        }
        let g = match self.choose_projected(s, primary, false) {
            Some(g) if primary[g as usize] => g,
            _ => {
                out.push(path.clone());
                return Some(false);
            }
        };
        if depth == 0 {
            out.push(path.clone());
            return Some(true);
        }
        let o = self.choose_option(s, g, false);
        let mut deeper = false;
        for take in [true, false] {
            let m = self.mark();
            let step = Step { g, o, take };
            if self.apply(s, step) {
                path.push(step);
                let r = self.cubes_below(s, primary, depth - 1, path, out, deadline);
                path.pop();
                deeper |= r?;
            }
            self.undo(s, m);
        }
        Some(deeper)
    }

    /// The literals of the formula that a cube's decisions fix: every solution under the
    /// cube makes each of them true. The run path checks each worker's solutions against
    /// them, so that "the cubes are disjoint" is checked on every solution rather than
    /// assumed.
    pub fn cube_lits(&self, cube: &[Step]) -> Vec<Lit> {
        cube.iter()
            .map(|step| {
                let options = &self.options[step.g as usize];
                match options[step.o as usize] {
                    // Option o of a group is its variable: "o" makes it true, "not o" false.
                    Some(v) => Lit::new(Var(v), step.take),
                    // A singleton group's other option, "the variable is false".
                    None => {
                        debug_assert_eq!(options.len(), 2, "only singleton groups have a false option");
                        let v = options
                            .iter()
                            .flatten()
                            .next()
                            .expect("a singleton group has its variable");
                        Lit::new(Var(*v), !step.take)
                    }
                }
            })
            .collect()
    }

    /// Decides one step of a cube; `false` when propagation refutes it.
    fn apply(&mut self, s: &mut State, step: Step) -> bool {
        let w = self.words;
        let g = step.g as usize;
        let mut mask = vec![0u64; w];
        if step.take {
            bit(&mut mask, step.o);
        } else {
            mask.copy_from_slice(&self.full[g * w..(g + 1) * w]);
            mask[(step.o / 64) as usize] &= !(1u64 << (step.o % 64));
        }
        self.decide(s, step.g, &mask)
    }

    /// One worker's share of a parallel walk: takes the next cube of `cubes` (from the
    /// shared `next`) and walks the leaves under it as [`Engine::enumerate`] would, until
    /// the cubes run out ([`Walk::Complete`]), `visit` breaks, or `halt` (the deadline, or
    /// another worker that stopped the run) says so. The engine is this worker's own copy.
    /// `visit` gets the index of the cube each leaf is under.
    #[allow(clippy::too_many_arguments)]
    pub fn enumerate_cubes(
        &mut self,
        assumptions: &[Lit],
        primary: &[bool],
        cubes: &[Cube],
        next: &AtomicUsize,
        randomize: bool,
        seed: u64,
        halt: &dyn Fn() -> bool,
        visit: &mut dyn FnMut(usize, &[bool]) -> ControlFlow<()>,
    ) -> Walk {
        let Some(mut s) = self.root(assumptions, seed) else {
            return Walk::Complete;
        };
        loop {
            if halt() {
                return Walk::Unknown;
            }
            let i = next.fetch_add(1, Ordering::Relaxed);
            let Some(cube) = cubes.get(i) else {
                return Walk::Complete;
            };
            let m = self.mark();
            if cube.iter().all(|&step| self.apply(&mut s, step)) {
                match self.walk_from(&mut s, primary, randomize, halt, &mut |a| visit(i, a)) {
                    Walk::Complete => {}
                    other => return other,
                }
            }
            self.undo(&mut s, m);
        }
    }
}
