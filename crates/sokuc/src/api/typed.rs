//! The typed run of the puzzle kinds with a typed solution: the run path's answer kept
//! beside its text and JSON.

use std::any::Any;
use std::io::Write;

use super::outcome::Outcome;
use super::solution::{Placement, Solved};
use crate::backend::Backend as Engine;
use crate::error::Error;
use crate::kakuro::Kakuro;
use crate::run::RunOptions;
use crate::tricky::Tricky;

/// How a typed run goes: with the picture (`--svg`), and with each improving solution's
/// line written to a writer as it is found.
pub(crate) struct Run<'a, 'w> {
    pub(crate) run: &'a RunOptions,
    pub(crate) picture: bool,
    pub(crate) progress: Option<&'w mut dyn Write>,
}

/// The typed run of the kinds with a typed solution: OPB and CNF files (and models), 3SoKu,
/// Kakuro and Tricky Triple. `None` for the others.
pub(crate) fn solve_typed(any: &dyn Any, b: &mut dyn Engine, run: Run<'_, '_>) -> Option<Result<Outcome, Error>> {
    if let Some(pb) = any.downcast_ref::<crate::pb::PbFile>() {
        return Some(outcome(pb, b, run).map(|(o, picture)| Outcome::of_pb(pb, o, picture)));
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

/// The run path's outcome, streamed or not, and whether to draw it.
fn outcome<P: crate::puzzle::Puzzle>(
    p: &P,
    b: &mut dyn Engine,
    run: Run<'_, '_>,
) -> Result<(crate::run::Outcome<P::Solution>, bool), Error> {
    let o = match run.progress {
        Some(progress) => crate::run::any::solve_streaming(p, b, run.run, progress)?,
        None => crate::run::solve(p, b, run.run)?,
    };
    Ok((o, run.picture))
}

fn solved<P: crate::puzzle::Puzzle>(
    p: &P,
    b: &mut dyn Engine,
    run: Run<'_, '_>,
    typed: impl Fn(&P, &P::Solution) -> Solved,
) -> Result<Outcome, Error> {
    let (o, picture) = outcome(p, b, run)?;
    let solution = o.answer.solution.as_ref().map(|s| typed(p, s));
    let mut outcome = Outcome::of_report(crate::run::any::report_of(p, o, picture));
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
