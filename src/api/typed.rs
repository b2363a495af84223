//! The typed run of the puzzle kinds with a typed solution: the run path's answer kept
//! beside its text and JSON.

use std::any::Any;

use super::outcome::Outcome;
use super::solution::{Placement, Solved};
use crate::backend::Backend as Engine;
use crate::error::Error;
use crate::kakuro::Kakuro;
use crate::run::RunOptions;
use crate::tricky::Tricky;

/// The typed run of the kinds with a typed solution: OPB and CNF files (and models), 3SoKu,
/// Kakuro and Tricky Triple. `None` for the others.
pub(crate) fn solve_typed(any: &dyn Any, b: &mut dyn Engine, run: &RunOptions) -> Option<Result<Outcome, Error>> {
    if let Some(pb) = any.downcast_ref::<crate::pb::PbFile>() {
        return Some(
            crate::run::solve(pb, b, run)
                .map(|o| Outcome::of_pb(pb, o))
                .map_err(Error::from),
        );
    }
    if let Some(p) = any.downcast_ref::<crate::model::Instance>() {
        return Some(solved(p, b, run, |p, s| Solved::Placements(placements(p, s))));
    }
    if let Some(p) = any.downcast_ref::<Kakuro>() {
        return Some(solved(p, b, run, |_, g| Solved::Grid(g.clone())));
    }
    if let Some(p) = any.downcast_ref::<Tricky>() {
        return Some(solved(p, b, run, |_, g| Solved::Grid(g.clone())));
    }
    None
}

fn solved<P: crate::puzzle::Puzzle>(
    p: &P,
    b: &mut dyn Engine,
    run: &RunOptions,
    typed: impl Fn(&P, &P::Solution) -> Solved,
) -> Result<Outcome, Error> {
    let o = crate::run::solve(p, b, run)?;
    let solution = o.answer.solution.as_ref().map(|s| typed(p, s));
    let mut outcome = Outcome::of_report(crate::run::any::report_of(p, o, false));
    outcome.typed = solution;
    Ok(outcome)
}

pub(crate) fn placements(p: &crate::model::Instance, s: &[crate::model::Placement]) -> Vec<Placement> {
    s.iter()
        .map(|x| {
            let vertices = p.variant.faces[x.face];
            Placement {
                face: x.face,
                face_name: vertices.iter().map(|&v| p.variant.vertices[v].as_str()).collect(),
                tile: x.tile,
                rotation: x.rotation,
                vertices,
                weights: x.corners,
            }
        })
        .collect()
}
