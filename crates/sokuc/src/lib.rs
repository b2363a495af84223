//! sokuc compiles combinatorial puzzles (3SoKu, that is IcoSoKu on any polyhedron with
//! triangular faces; tile pools; Kakuro; Tricky Triple) and pseudo-Boolean files (OPB,
//! DIMACS CNF) to a pseudo-Boolean model, solves it in-process on a backend of your choice,
//! and checks every answer with a verifier that shares no code with the compiler.
//!
//! This is the library behind the `sokuc` command. Its facade is small:
//!
//! - [`Instance`]: a puzzle or model, read from a file ([`Instance::read`]) or a string
//!   ([`Instance::parse`]);
//! - [`Options`]: the backend, a time limit, uniqueness, presolve;
//! - [`Instance::solve`] gives an [`Outcome`]: a [`Status`], the answer as text and as JSON;
//! - [`Instance::emit`] writes the model for an external solver in a [`Format`];
//! - [`Instance::decode`] reads that solver's answer back and verifies it;
//! - [`Error`] says what went wrong, and whose fault it is ([`Error::exit_code`]).
//!
//! ```
//! use sokuc::{Instance, Options, Status};
//!
//! // The IcoSoKu puzzle with the pegs 1..12 on the vertices A..L.
//! let puzzle = Instance::icosoku("1,2,3,4,5,6,7,8,9,10,11,12")?;
//! let outcome = puzzle.solve(&Options::new())?;
//! assert_eq!(outcome.status(), Status::Sat);
//! assert!(outcome.verified());
//! # Ok::<(), sokuc::Error>(())
//! ```
//!
//! Below the facade the library's modules are private: [`output`] (atomic writes that never
//! land on an input) and [`exit`] (the command's exit codes) are the only public ones.

#![deny(missing_docs)]
#![deny(missing_debug_implementations)]
// Every public function that returns a `Result` says when it fails (CI denies warnings).
#![warn(clippy::missing_errors_doc)]

mod api;

pub use api::{
    AdtsSubset, AdtsSummary, Advice, Arrangement, Assignment, Assistance, Backend, Backing, Batch, BatchSummary,
    BenchReport, BenchRow, ByCapacities, CapacitySummary, Certificate, Certify, Claim, ClaimKind, ClauseSink, Cmp, Cnf,
    Comparison, Count, Counted, Encoding, Enumerate, Enumerated, Evidence, FileBench, Generated, Instance, Lit,
    MAX_VARS, Model, Options, Outcome, Picture, Placement, Scaling, ScalingTable, Searching, SearchingNotice, Soku,
    SokuGenerator, Sweep, SweepSummary, TrickyGenerator, Var, Variant, Verdict, Withheld, adts_subsets, backends,
    kinds, kinds_described, read_text,
};
pub use backend::{Ended, MipSettings};
pub use budget::memory::{SizeError, format_size, parse_size};
pub use budget::{Progress, Snapshot, interrupt_process_on};
pub use encode::{DEFAULT_MAX_CLAUSES, EncodeError};
pub use error::{Error, exit};
pub use input::InputError;
pub use ir::Status;
pub use model::limits::{InputLimits, set_input_limits};
pub use output::OutputError;
pub use run::emit::Format;
pub use run::{Checked, LpMode};

/// Declares the library's internal modules: private to the crate, or public with the
/// `testing` feature, which only sokuc's own tests, fuzz targets and benchmarks turn on (see
/// Cargo.toml). Public that way they are neither documented nor stable.
macro_rules! internal {
    ($($(#[$attr:meta])* $name:ident;)*) => {$(
        $(#[$attr])*
        #[cfg(feature = "testing")]
        #[allow(missing_docs, missing_debug_implementations, clippy::missing_errors_doc)]
        pub mod $name;
        $(#[$attr])*
        #[cfg(not(feature = "testing"))]
        pub(crate) mod $name;
    )*};
}

/// The lower crates' modules, at this crate's root under the names the code uses; the
/// `testing` build re-exports them, so the tests name every layer through `sokuc::`.
macro_rules! lower {
    ($($krate:ident :: $name:ident;)*) => {$(
        #[cfg(feature = "testing")]
        pub use $krate::$name;
        #[cfg(not(feature = "testing"))]
        use $krate::$name;
    )*};
}

#[allow(missing_docs)]
#[cfg(feature = "testing")]
pub mod fuzzing;

internal! {
    assist;
    certify;
    compare;
    count;
    error;
    generate;
    liu;
    registry;
    run;
}

pub(crate) mod bench;
pub(crate) mod report;
pub(crate) mod sweep;

lower! {
    sokuc_core::budget;
    sokuc_core::ir;
    sokuc_compile::encode;
    sokuc_compile::export;
    sokuc_compile::lp;
    sokuc_compile::sharp;
    sokuc_puzzles::grid;
    sokuc_puzzles::input;
    sokuc_puzzles::kakuro;
    sokuc_puzzles::model;
    sokuc_puzzles::pb;
    sokuc_puzzles::pool;
    sokuc_puzzles::puzzle;
    sokuc_puzzles::render;
    sokuc_puzzles::rng;
    sokuc_puzzles::soku;
    sokuc_puzzles::tricky;
    sokuc_puzzles::words;
}

#[cfg(feature = "testing")]
pub use sokuc_engines as backend;
#[cfg(not(feature = "testing"))]
use sokuc_engines as backend;

pub use sokuc_puzzles::output;
