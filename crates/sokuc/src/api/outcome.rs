//! What a solve or a decode ended with.

use num_bigint::BigInt;

use super::literal::Lit;
use super::solution::{Assignment, Placement, Solved};
use crate::ir::Status;
use crate::run::Report;

/// The answer of [`crate::Instance::solve`] or [`crate::Instance::decode`]: its status, the
/// solution as `sokuc solve` prints it, and the same as JSON (the schema in `schema/`).
///
/// A [`Status::Sat`] outcome's solution has been checked against the compiled model and
/// then by the puzzle's own verifier, which shares no code with the compiler.
#[derive(Debug, Clone)]
pub struct Outcome {
    pub(crate) report: Report,
    /// The solution's values, for a [`crate::Model`] or an OPB or CNF instance.
    pub(crate) assignment: Option<Assignment>,
    /// The puzzle's own form of the solution (placements, a grid), for the typed puzzles.
    pub(crate) typed: Option<Solved>,
    /// With an objective and a solution: its value, in the objective's own sense.
    pub(crate) objective_value: Option<BigInt>,
}

impl Outcome {
    pub(crate) fn of_report(report: Report) -> Outcome {
        Outcome {
            report,
            assignment: None,
            typed: None,
            objective_value: None,
        }
    }

    /// The outcome of an OPB or CNF file's (or a model's) solve, its values kept.
    pub(crate) fn of_pb(file: &crate::pb::PbFile, o: crate::run::Outcome<Vec<bool>>, picture: bool) -> Outcome {
        let values = o.answer.solution.clone();
        let objective_value = values
            .as_deref()
            .and_then(|v| crate::pb::verify::objective_value(file, v));
        Outcome {
            report: crate::run::any::report_of(file, o, picture),
            assignment: values.map(Assignment::new),
            typed: None,
            objective_value,
        }
    }
    /// Solved, proven to have no solution, or no answer in time.
    pub fn status(&self) -> Status {
        self.report.status
    }

    /// Whether the solution passed the independent verifier (always, for [`Status::Sat`]).
    pub fn verified(&self) -> bool {
        self.report.verified
    }

    /// The backend that answered (`auto` names the engine it picked).
    pub fn backend(&self) -> &str {
        &self.report.backend
    }

    /// The answer as `sokuc solve` prints it: the placed tiles or the filled grid for a
    /// puzzle, `s`/`v` lines for OPB and CNF.
    pub fn text(&self) -> &str {
        &self.report.text
    }

    /// The answer as `sokuc solve --format json` prints it.
    pub fn json(&self) -> &serde_json::Value {
        &self.report.json
    }

    /// Why there is no solution, or no answer, when sokuc knows (presolve's argument, the
    /// time limit).
    pub fn reason(&self) -> Option<&str> {
        self.report.reason.as_deref()
    }

    /// With [`crate::Options::unique`]: whether the solution is the only one.
    pub fn unique(&self) -> Option<bool> {
        self.report.unique
    }

    /// With an objective: the solution's value as minimised, which is the file's value for
    /// OPB's `min:` and its negation for `max:`. `None` also when the value does not fit in
    /// an `i64` (an objective past 62 bits); the JSON's `objective` ([`Outcome::json`])
    /// holds the file's value exactly, as a decimal string.
    pub fn objective(&self) -> Option<i64> {
        self.report.objective.as_ref().and_then(num_traits::ToPrimitive::to_i64)
    }

    /// With an objective: the solution's value in the objective's own sense (the maximum
    /// found for [`crate::Model::maximise`] and OPB's `max:`), exactly.
    pub fn objective_value(&self) -> Option<&BigInt> {
        self.objective_value.as_ref()
    }

    /// The solution's values, for a [`crate::Model`] or an OPB or CNF instance; `None`
    /// without a solution (and for the puzzles, whose solutions are
    /// [`Outcome::placements`] and [`Outcome::grid`]).
    pub fn assignment(&self) -> Option<&Assignment> {
        self.assignment.as_ref()
    }

    /// Whether the literal holds in the solution; `None` without one.
    pub fn value(&self, lit: impl Into<Lit>) -> Option<bool> {
        self.assignment.as_ref().map(|a| a.value(lit))
    }

    /// Every claim of the answer (solved, no solution, optimal, unique) with what backs it:
    /// a checked model, a checked certificate, presolve's argument, a second engine's
    /// agreement or one engine's word. [`crate::Options::strict`] withholds the last kind.
    ///
    /// ```
    /// use sokuc::{Backing, ClaimKind, Instance, Options};
    ///
    /// let unsat = Instance::parse("cnf", "two.cnf", "p cnf 1 2\n1 0\n-1 0\n")?;
    /// let outcome = unsat.solve(&Options::new())?;
    /// let claim = &outcome.claims()[0];
    /// assert_eq!(claim.kind(), ClaimKind::Unsat);
    /// assert_ne!(claim.backing(), Backing::EngineWord);
    /// # Ok::<(), sokuc::Error>(())
    /// ```
    pub fn claims(&self) -> Vec<super::evidence::Claim<'_>> {
        self.report
            .evidence
            .claims
            .iter()
            .map(super::evidence::Claim::of)
            .collect()
    }

    /// A 3SoKu solution as placed tiles, one per face; `None` without a solution or for
    /// another kind.
    pub fn placements(&self) -> Option<&[Placement]> {
        match &self.typed {
            Some(Solved::Placements(p)) => Some(p),
            _ => None,
        }
    }

    /// A Kakuro or Tricky Triple solution as its filled grid, row by row: `Some(value)` for
    /// a white cell, `None` for a black one.
    pub fn grid(&self) -> Option<&[Vec<Option<u8>>]> {
        match &self.typed {
            Some(Solved::Grid(g)) => Some(g),
            _ => None,
        }
    }

    /// With an objective: whether the value is proven optimal.
    pub fn optimal(&self) -> Option<bool> {
        self.report.optimal
    }

    /// The exit code `sokuc solve` would end with: 0 solved, 20 no solution, 30 no answer,
    /// 1 when two engines contradicted each other.
    pub fn exit_code(&self) -> u8 {
        self.report.exit_code()
    }

    /// With [`crate::Options::svg`], on a polyhedron puzzle ([`crate::Instance::has_picture`]):
    /// the answer drawn as an SVG net, the empty puzzle when there is no solution.
    pub fn svg(&self) -> Option<&str> {
        self.report.svg.as_deref()
    }

    /// When two engines contradicted each other on the optimum (the outcome then exits 1,
    /// [`Outcome::exit_code`]): what each said.
    pub fn contradiction(&self) -> Option<&str> {
        self.report.contradiction.as_deref()
    }
}
