//! The assistant for a puzzle in progress (`check --partial`): the tiles a player has
//! already put on the puzzle, and whether the rest can be completed around them.
//!
//! The assistant itself (`crate::assist`) is one optimisation of this puzzle through the run path: the instance's plain model, with the
//! objective "the number of placed tiles the answer does not keep" (the placed tile's
//! variable negated, one term each). So the answer is a completion that keeps as many of the
//! player's tiles as can be kept, checked by the 3SoKu verifier like any solution, and the
//! claim that no completion keeps more is an optimum claim, which the gate backs with its
//! evidence like any other. Objective 0 means every placed tile can stay.
//!
//! Which tiles come off is read from the checked solution, not from the model: a placed
//! tile is kept when the completion has the same weights at the same vertices of its face
//! (identical tiles are interchangeable). Their number must be the objective's value.

use serde_json::Value;

use super::compile::{Compiled, plain};
use crate::encode::EncodeError;
use crate::input::InputError;
use crate::input::placed::Placed;
use crate::ir::{Lit, PbFormula};
use crate::model::{Instance, Placement};
use crate::puzzle::{Answer, CompileOptions, Invalid, Puzzle, Refutation};

/// An instance and the tiles a player placed on it, as a puzzle whose answers keep as many
/// of those tiles as possible.
#[derive(Debug, Clone)]
pub struct Partial {
    /// The puzzle being played.
    pub inst: Instance,
    /// The player's tiles, in the order they were given.
    pub placed: Vec<Placed>,
}

impl Partial {
    /// Whether the completion `s` keeps placed tile `p`.
    pub fn keeps(s: &[Placement], p: &Placed) -> bool {
        s.get(p.face).is_some_and(|q| q.corners == p.corners)
    }

    /// The placed tiles `s` takes off, by index.
    pub fn removed(&self, s: &[Placement]) -> Vec<usize> {
        (0..self.placed.len())
            .filter(|&i| !Self::keeps(s, &self.placed[i]))
            .collect()
    }
}

/// The objective: one term per placed tile, its placement variable negated (1 when the
/// answer does not keep it).
fn objective(c: &Compiled, placed: &[Placed]) -> Vec<(i64, Lit)> {
    let mut terms = Vec::with_capacity(placed.len());
    for q in placed {
        let Some(ty) = c.types.iter().position(|t| t.members.contains(&q.tile)) else {
            continue;
        };
        let var = c
            .model
            .pool
            .iter()
            .find(|(_, pl)| pl.face == q.face && pl.ty == ty && c.types[ty].corners(pl.rot) == q.corners)
            .map(|(x, _)| x);
        // The plain model has every turn of every type on every face, so the placement is
        // there; were it not, the objective would count one tile fewer than the completion
        // takes off, which `assist` reports as an internal error.
        if let Some(x) = var {
            terms.push((1, x.negative()));
        }
    }
    terms
}

impl Puzzle for Partial {
    type Compiled = Compiled;
    type Solution = Vec<Placement>;

    fn kind(&self) -> &'static str {
        "3soku"
    }

    fn source(&self) -> &str {
        &self.inst.source
    }

    fn header(&self, opts: &CompileOptions, encoding: Option<&str>) -> Vec<String> {
        let mut h = self.inst.header(opts, encoding);
        h.push(format!(
            "objective: placed tiles taken off ({} placed)",
            self.placed.len()
        ));
        h
    }

    fn check_size(&self, max_memory: u64) -> Result<(), EncodeError> {
        self.inst.check_size(max_memory)
    }

    fn compile(&self, _opts: &CompileOptions) -> Result<Compiled, Refutation> {
        // Without presolve: its filtering would remove placements the player made, and the
        // objective needs each of them to count.
        let mut c = plain(&self.inst).ok_or_else(Refutation::stopped)?;
        let terms = objective(&c, &self.placed);
        c.model.formula.set_objective((!terms.is_empty()).then_some(terms));
        Ok(c)
    }

    fn formula<'c>(&self, c: &'c Compiled) -> &'c PbFormula {
        &c.model.formula
    }

    fn names(&self, c: &Compiled) -> Vec<String> {
        c.model.names()
    }

    fn decode(&self, c: &Compiled, assignment: &[bool]) -> Result<Vec<Placement>, Invalid> {
        self.inst.decode(c, assignment)
    }

    fn verify(&self, s: &Vec<Placement>) -> Result<(), Invalid> {
        super::verify::verify(&self.inst, s)
    }

    fn text(&self, a: &Answer<Vec<Placement>>) -> String {
        self.inst.text(a)
    }

    fn json_fields(&self, solution: Option<&Vec<Placement>>) -> Vec<(String, Value)> {
        self.inst.json_fields(solution)
    }

    fn read_solution(&self, file: &str, text: &str) -> Result<Vec<Placement>, InputError> {
        self.inst.read_solution(file, text)
    }

    fn valid_summary(&self, s: &Vec<Placement>) -> String {
        self.inst.valid_summary(s)
    }
}
