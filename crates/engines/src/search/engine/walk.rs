//! Native enumeration: one complete depth-first walk of the search tree, without restarts,
//! that reports every leaf (a state where every group holds one option and every row
//! holds). Branching is two-way ("option o", then "not o"), so the leaves partition the
//! solutions and none is reported twice; nothing is added to the formula, so finding the
//! next solution costs what the walk to the next leaf costs, however many came before.
//!
//! With a projection (primary variables, `crate::ir::Projection`) the walk branches on
//! the primary groups first; once they are all fixed, it looks for one completion of the
//! others, reports it, and backtracks straight to the last primary decision. Each
//! assignment of the primary variables is then reported once, whatever the others allow.

use std::ops::ControlFlow;

use super::{Engine, State, bit};
use crate::budget::Deadline;
use crate::ir::Lit;

/// How a walk ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Walk {
    /// Every leaf was reported: the enumeration is complete.
    Complete,
    /// The visitor asked to stop.
    Stopped,
    /// The deadline passed (or an interrupt came) first.
    Unknown,
}

impl Engine {
    /// Per group: whether it is primary (holds a primary variable), or `None` when a group
    /// mixes primary and other variables (the walk cannot project onto such a group; the
    /// caller enumerates by blocking clauses instead).
    pub fn primary_groups(&self, primary: &[bool]) -> Option<Vec<bool>> {
        self.options
            .iter()
            .map(|opts| {
                let mut vars = opts.iter().flatten();
                let first = vars.next().map(|&v| primary.get(v as usize).copied().unwrap_or(false));
                let p = first.unwrap_or(false);
                vars.all(|&v| primary.get(v as usize).copied().unwrap_or(false) == p)
                    .then_some(p)
            })
            .collect()
    }

    /// Walks the whole tree under `assumptions` and calls `visit` with every leaf's
    /// assignment (of the formula's variables), until it returns `Break`. `primary` is
    /// [`Engine::primary_groups`]'s answer. `randomize` breaks ties at random (from
    /// `seed`); the set of leaves is the same either way.
    pub fn enumerate(
        &mut self,
        assumptions: &[Lit],
        primary: &[bool],
        randomize: bool,
        seed: u64,
        deadline: &Deadline,
        visit: &mut dyn FnMut(&[bool]) -> ControlFlow<()>,
    ) -> Walk {
        let Some(mut s) = self.root(assumptions, seed) else {
            return Walk::Complete;
        };
        self.walk_from(&mut s, primary, randomize, &|| deadline.passed(), visit)
    }

    /// The walk of [`Engine::enumerate`] from the state `s` (the root, or a cube of
    /// [`Engine::split`] decided on top of it): every leaf below it, until the decision
    /// stack is empty again (then `s` is as it was), `visit` breaks, or `halt` (asked as
    /// often as the engine's pace says, `pace.rs`) says so ([`Walk::Unknown`]).
    pub(super) fn walk_from(
        &mut self,
        s: &mut State,
        primary: &[bool],
        randomize: bool,
        halt: &dyn Fn() -> bool,
        visit: &mut dyn FnMut(&[bool]) -> ControlFlow<()>,
    ) -> Walk {
        let mut assignment = vec![false; self.num_vars];
        let w = self.words;
        let mut mask = vec![0u64; w];
        loop {
            if self.pace.due() && halt() {
                return Walk::Unknown;
            }
            let ok = match self.choose_projected(s, primary, randomize) {
                None => {
                    self.leaf(s, &mut assignment);
                    if visit(&assignment).is_break() {
                        return Walk::Stopped;
                    }
                    // The other completions of these primary values are the same solution:
                    // back to the last primary decision.
                    let mut to = None;
                    while let Some(&(m, g, _)) = self.stack.last() {
                        if primary[g as usize] {
                            break;
                        }
                        to = Some(m);
                        self.stack.pop();
                    }
                    if let Some(m) = to {
                        self.undo(s, m);
                    }
                    false
                }
                Some(g) => {
                    let o = self.choose_option(s, g, randomize);
                    self.counters.nodes += 1;
                    self.stack.push((self.mark(), g, o));
                    mask.fill(0);
                    bit(&mut mask, o);
                    let ok = self.decide(s, g, &mask);
                    if !ok {
                        self.counters.failures += 1;
                    }
                    ok
                }
            };
            if ok {
                continue;
            }
            // Undo the latest decision and take its other branch, "not o"; a branch that
            // fails at once is a failure, and the walk backs up further.
            loop {
                let Some((m, g, o)) = self.stack.pop() else {
                    return Walk::Complete;
                };
                self.undo(s, m);
                mask.copy_from_slice(&self.full[g as usize * w..(g as usize + 1) * w]);
                mask[(o / 64) as usize] &= !(1u64 << (o % 64));
                if self.decide(s, g, &mask) {
                    break;
                }
                self.counters.failures += 1;
                if self.pace.due() && halt() {
                    return Walk::Unknown;
                }
            }
        }
    }

    /// The open primary group with the fewest options, else the open other group with the
    /// fewest; `None` at a leaf.
    pub(super) fn choose_projected(&mut self, s: &State, primary: &[bool], randomize: bool) -> Option<u32> {
        let mut best: Option<(bool, u32, u32)> = None;
        let mut ties = 0u64;
        for g in 0..super::idx(self.sizes.len()) {
            let c = self.popcount(s, g);
            if c <= 1 {
                continue;
            }
            let key = (!primary[g as usize], c);
            match best {
                Some((bp, bc, _)) if key > (bp, bc) => {}
                Some((bp, bc, _)) if key == (bp, bc) => {
                    if randomize {
                        ties += 1;
                        if self.next_random().is_multiple_of(ties + 1) {
                            best = Some((key.0, c, g));
                        }
                    }
                }
                _ => {
                    best = Some((key.0, c, g));
                    ties = 0;
                }
            }
        }
        best.map(|(_, _, g)| g)
    }

    /// The assignment of a leaf: each group's one option.
    fn leaf(&self, s: &State, a: &mut [bool]) {
        a.fill(false);
        let w = self.words;
        for (g, opts) in self.options.iter().enumerate() {
            let d = &s.dom[g * w..(g + 1) * w];
            let o = d
                .iter()
                .enumerate()
                .find(|(_, x)| **x != 0)
                .map(|(i, x)| i * 64 + x.trailing_zeros() as usize)
                .expect("every group has one option at a leaf");
            if let Some(v) = opts[o] {
                a[v as usize] = true;
            }
        }
    }
}
