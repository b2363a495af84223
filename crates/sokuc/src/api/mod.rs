//! The library's facade: what a program that embeds sokuc calls. Everything here goes
//! through the same run path as the command line (compile, solve, check against the model,
//! decode, verify), so a [`Outcome`] the facade returns is exactly what `sokuc solve`
//! would print.

mod adts;
mod assist;
mod backend;
mod bench;
mod by_capacities;
mod certify;
mod cnf;
mod compare;
mod count;
mod emit;
mod enumerate;
mod evidence;
mod generate;
mod instance;
mod literal;
mod model;
mod options;
mod outcome;
mod picture;
mod puzzles;
mod run;
mod scaling;
mod searching;
mod solution;
mod solutions;
mod sweep;
mod typed;
mod variant;

pub use adts::{AdtsSubset, AdtsSummary, adts_subsets};
pub use assist::{Advice, Assistance};
pub use backend::Backend;
pub use bench::{Batch, BatchSummary, BenchReport, BenchRow, FileBench};
pub use by_capacities::{Arrangement, ByCapacities, CapacitySummary};
pub use certify::{Certificate, Certify, Verdict};
pub use cnf::{ClauseSink, Cnf, Encoding};
pub use compare::Comparison;
pub use count::{Count, Counted};
pub use enumerate::{Enumerate, Enumerated};
pub use evidence::{Backing, Claim, ClaimKind, Evidence, Withheld};
pub use generate::{Generated, SokuGenerator, TrickyGenerator};
pub use instance::Instance;
pub use literal::{Cmp, Lit, Var};
pub use model::{MAX_VARS, Model};
pub use options::Options;
pub use outcome::Outcome;
pub use picture::Picture;
pub use puzzles::Soku;
pub use scaling::{Scaling, ScalingTable};
pub use searching::{Searching, SearchingNotice};
pub use solution::{Assignment, Placement};
pub use sweep::{Sweep, SweepSummary};
pub use variant::Variant;

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

/// Reads a file as sokuc reads what a command names: `-` is standard input, a `.gz`, `.bz2`
/// or `.xz` file is decompressed, and the text must be UTF-8 within the input limit. For
/// the solutions, answers and placed tiles that [`Instance::check`], [`Instance::decode`]
/// and [`Instance::assist`] take as text.
///
/// ```no_run
/// let answer = sokuc::read_text("kissat.out.xz")?;
/// # Ok::<(), sokuc::Error>(())
/// ```
///
/// # Errors
///
/// [`crate::Error::Input`], naming the file, when it cannot be read, does not decompress,
/// is not UTF-8 or passes the input limit.
pub fn read_text(path: impl AsRef<std::path::Path>) -> Result<String, crate::Error> {
    Ok(crate::input::compressed::read_path(path.as_ref())?)
}

/// The puzzle kinds sokuc reads, by the names [`Instance::parse`] takes: `3soku`, `pool`,
/// `kakuro`, `trickytriple`, `opb`, `cnf`.
pub fn kinds() -> Vec<&'static str> {
    crate::registry::KINDS.iter().map(|k| k.name).collect()
}

/// The puzzle kinds with the file extensions that name them, as the command's help lists
/// them: "3soku (.toml), pool, kakuro (.kakuro), ...". A file whose extension is none of
/// these needs its kind named ([`Instance::read_as`]).
///
/// ```
/// assert!(sokuc::kinds_described().contains("kakuro (.kakuro)"));
/// ```
pub fn kinds_described() -> String {
    crate::registry::kinds_list()
}
