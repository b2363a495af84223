//! The one run path: compile -> backend -> evaluate against the IR -> decode -> verify ->
//! [`Outcome`]. Every command reaches a solver through [`solve`], and every assignment,
//! whether from an in-process backend, a session (`sweep`) or an external solver's file
//! (`decode`), becomes a solution only through [`finish`].
//!
//! This module is generic over [`Puzzle`](crate::puzzle::Puzzle); [`any`] erases the
//! puzzle type so that the CLI and the registry can hold any kind behind one
//! `Box<dyn AnyPuzzle>`.
//!
//! Its files: `options` (what a run is asked), `assignment` ([`finish`] and
//! [`AnswerProblem`]), `error` ([`RunError`]), `prepare` (compiling within the deadline,
//! the quick attempt and the LP, before any backend answers), `gate` (what becomes a
//! printed claim), `pipeline` ([`solve`], with `optimise` and `confirm`), [`enumerate`] and
//! [`parallel`] (every solution, each new one remembered by `seen`, written as [`stream`]
//! says, the end's claim weighed by `gate_end`), [`external`] (an answer
//! file), [`emit`] (a model for an external solver), and [`any`] over all of them.

pub mod any;
mod assignment;
mod confirm;
pub mod emit;
pub mod enumerate;
mod error;
pub mod external;
#[cfg(test)]
mod faults;
#[cfg(test)]
mod faults_enumerate;
mod gate;
mod gate_end;
mod optimise;
mod options;
pub mod parallel;
mod pipeline;
mod prepare;
mod seen;
pub mod stream;

pub(crate) use any::answer_json;
pub use any::{AnyPuzzle, Checked, Report};
#[cfg(test)]
pub use assignment::AnswerProblem;
pub use assignment::finish;
pub use enumerate::Enumerated;
pub(crate) use gate_end::{count_evidence, judge_refutation};
pub use error::RunError;
pub use options::{LpMode, RunOptions};
pub use pipeline::{Outcome, solve};
pub use stream::Stream;
