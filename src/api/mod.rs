//! The library's facade: what a program that embeds sokuc calls. Everything here goes
//! through the same run path as the command line (compile, solve, check against the model,
//! decode, verify), so a [`Outcome`] the facade returns is exactly what `sokuc solve`
//! would print.

mod backend;
mod certify;
mod cnf;
mod compare;
mod count;
mod evidence;
mod generate;
mod instance;
mod literal;
mod model;
mod options;
mod outcome;
mod puzzles;
mod run;
mod solution;
mod solutions;
mod typed;

pub use backend::Backend;
pub use certify::{Certificate, Certify, Verdict};
pub use cnf::{ClauseSink, Cnf, Encoding};
pub use compare::Comparison;
pub use count::Count;
pub use evidence::{Backing, Claim, ClaimKind};
pub use generate::{SokuGenerator, TrickyGenerator};
pub use instance::Instance;
pub use literal::{Cmp, Lit, Var};
pub use model::{MAX_VARS, Model};
pub use options::Options;
pub use outcome::Outcome;
pub use puzzles::Soku;
pub use solution::{Assignment, Placement};

/// The backends compiled into this build, by the names [`Options::backend`] takes (`auto`,
/// which picks among them, is always there too).
///
/// ```
/// let names = sokuc::backends();
/// assert!(names.contains(&"sat"));
/// ```
pub fn backends() -> Vec<&'static str> {
    crate::backend::available()
}

/// The puzzle kinds sokuc reads, by the names [`Instance::parse`] takes: `3soku`, `pool`,
/// `kakuro`, `trickytriple`, `opb`, `cnf`.
pub fn kinds() -> Vec<&'static str> {
    crate::registry::KINDS.iter().map(|k| k.name).collect()
}
