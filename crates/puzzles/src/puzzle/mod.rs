//! The front-end trait: what a puzzle kind must provide so that every command works for it.
//!
//! A puzzle kind is one folder (`soku/`, `pool/`, `kakuro/`, `tricky/`) that implements
//! [`Puzzle`], plus one line in `crate::registry`. Everything else (solving on any backend,
//! `--unique`, exports, decoding an external solver's answer, `check`, `compare`, `certify`,
//! the JSON envelope, exit codes) is written once in `crate::run` against this trait, so a
//! new kind touches neither the CLI, nor the run path, nor any backend.
//!
//! The trait sits between the model and the IR: a front-end reads its file into a model,
//! compiles the model into a `PbFormula`, turns an assignment back into a solution, and
//! checks that solution with a verifier that shares no code with its compiler or decoder.
//!
//! **One solution** is what a person sees: identical tiles are interchangeable and a turned
//! uniform tile is the same placement, because the 3SoKu and pool models have one variable
//! per (face, tile type, distinct turn). Answers are told apart by [`Puzzle::primary`] only:
//! every variable for 3SoKu, Kakuro and Tricky Triple, the placements for pools (whose free
//! pegs follow from them), the file's own variables for OPB and CNF (not the product terms'
//! `and_...` auxiliaries). `tests/enumerate.rs` checks on every backend that the solutions of
//! small instances of every kind are pairwise distinct and as many as a brute-force count
//! written in the test.

pub mod evidence;
mod outcome;
pub mod writer;

pub use outcome::Answer;
pub use writer::SolutionWriter;

use crate::input::InputError;
use crate::ir::{PbFormula, Var};
use crate::render::Scene;
use writer::push_fields;

/// An answer that is not a solution: why decoding or verification failed, in words.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct Invalid(pub String);

impl From<String> for Invalid {
    fn from(s: String) -> Invalid {
        Invalid(s)
    }
}

impl From<&str> for Invalid {
    fn from(s: &str) -> Invalid {
        Invalid(s.to_string())
    }
}

impl Invalid {
    pub fn new(message: impl Into<String>) -> Invalid {
        Invalid(message.into())
    }
}

/// A proof, found while compiling, that the puzzle has no solution, with its argument in
/// words ("presolve: ..." is added by the run path).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct Refutation(pub String);

impl Refutation {
    /// What a compile that stopped at the deadline returns (`budget::compile_stop`). It is
    /// not an argument, and never reported: the compiling worker does not pass on what it
    /// returns past the deadline.
    pub fn stopped() -> Refutation {
        Refutation("compiling stopped at the time limit".to_string())
    }
}

impl From<String> for Refutation {
    fn from(s: String) -> Refutation {
        Refutation(s)
    }
}

/// How to compile. Front-ends without a presolve ignore `presolve`; with it off, the model
/// is the plain one, which is what `certify` refutes and what a benchmark of external
/// solvers wants.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CompileOptions {
    pub presolve: bool,
}

impl Default for CompileOptions {
    fn default() -> Self {
        CompileOptions { presolve: true }
    }
}

/// One puzzle kind's front-end. `Compiled` is whatever decoding needs besides the formula
/// (usually the `crate::ir::Model` with its variable pool); `Solution` is the puzzle's own
/// answer type.
pub trait Puzzle: Clone + Send + Sync + 'static {
    /// `Sync`: the workers of a parallel enumeration share one compiled model.
    type Compiled: Send + Sync + 'static;
    type Solution: Clone + Send + 'static;

    /// The kind's name in JSON and messages: "3soku", "pool", "kakuro", "trickytriple".
    fn kind(&self) -> &'static str;

    /// What starts a comment line in the answers `text` prints (the CLI adds lines such as
    /// which backend answered): `#` by default, `c` where the competitions' formats say so.
    fn comment(&self) -> &'static str {
        "#"
    }

    /// Where the puzzle came from (a file name, or a description).
    fn source(&self) -> &str;

    /// Comment lines that open every exported model: what it is and where it came from.
    /// `encoding` names the pseudo-Boolean encoding when the export is CNF.
    fn header(&self, opts: &CompileOptions, encoding: Option<&str>) -> Vec<String>;

    /// Refuses, before compiling, a puzzle whose model would not fit in `max_memory` bytes.
    fn check_size(&self, _max_memory: u64) -> Result<(), crate::encode::EncodeError> {
        Ok(())
    }

    /// Compiles to the IR. `Err` is a refutation found while compiling (presolve).
    fn compile(&self, opts: &CompileOptions) -> Result<Self::Compiled, Refutation>;

    /// The formula inside a compiled model.
    fn formula<'c>(&self, c: &'c Self::Compiled) -> &'c PbFormula;

    /// The names of the formula's variables, in order (exports and external answers use them).
    fn names(&self, c: &Self::Compiled) -> Vec<String>;

    /// Turns a full assignment of the formula's variables into a solution.
    fn decode(&self, c: &Self::Compiled, assignment: &[bool]) -> Result<Self::Solution, Invalid>;

    /// Checks a solution from the puzzle's rules alone (shares no code with compile/decode).
    fn verify(&self, s: &Self::Solution) -> Result<(), Invalid>;

    /// The variables that identify a solution (see `crate::ir::Projection`): two answers
    /// that agree on them decode to the same solution, and two that differ on them decode to
    /// different solutions. `--unique` and `--all` block answers on these only, so auxiliary
    /// variables can never make one solution count twice. By default every variable; a
    /// front-end with variables that the solution determines (a pool's free pegs) or that do
    /// not show in it narrows the list.
    fn primary(&self, c: &Self::Compiled) -> Vec<Var> {
        (0..self.formula(c).num_vars()).map(Var).collect()
    }

    /// The text `solve` prints: for people, and free of timings, so that decoding the same
    /// answer prints the same bytes.
    fn text(&self, a: &Answer<Self::Solution>) -> String;

    /// The puzzle's own JSON fields (the run path wraps them in the common envelope).
    /// `solution` is `None` when there is none; fields that describe the instance stay.
    fn json_fields(&self, solution: Option<&Self::Solution>) -> Vec<(String, serde_json::Value)>;

    /// What an enumeration writes its solutions with: the bytes of [`Puzzle::text`] and
    /// [`Puzzle::json_fields`] (see [`writer`]). By default those methods themselves.
    fn writer(&self) -> Box<dyn SolutionWriter<Self::Solution> + '_> {
        Box::new(Plain(self))
    }

    /// Reads a solution written by `solve --format json` (and, for grids, the solution-file
    /// form), for `check` and `render`.
    fn read_solution(&self, file: &str, text: &str) -> Result<Self::Solution, InputError>;

    /// A picture of the puzzle or of a solution, where one makes sense (polyhedra, not
    /// grids); `what` ends its title ("solution, verified").
    fn scene(&self, _solution: Option<&Self::Solution>, _what: &str) -> Option<Scene<'_>> {
        None
    }

    /// What `check` prints for a valid solution, after "valid: ".
    fn valid_summary(&self, s: &Self::Solution) -> String;

    /// The line announcing an improving solution of an optimisation as it is found (the PB
    /// competition's `o <value>`, with its newline), written before the answer; `None` (the
    /// default): the kind has none.
    fn improvement_line(&self, _s: &Self::Solution) -> Option<String> {
        None
    }
}

/// The default writer ([`Puzzle::writer`]): the puzzle's own methods.
#[derive(Debug)]
pub struct Plain<'p, P>(pub &'p P);

impl<P: Puzzle> SolutionWriter<P::Solution> for Plain<'_, P> {
    fn text(&mut self, a: &Answer<P::Solution>, out: &mut Vec<u8>) {
        out.extend_from_slice(self.0.text(a).as_bytes());
    }

    fn json_fields(&mut self, solution: Option<&P::Solution>, out: &mut Vec<u8>) {
        push_fields(out, self.0.json_fields(solution));
    }
}
