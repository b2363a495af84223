//! The subcommands, one file each, and what they share: the options that mean the same on
//! every subcommand (one name, one help text), and the value parsers. Files here only turn
//! arguments into library calls and print what comes back; the work is in the library.

pub mod adts;
pub mod bench;
pub mod certify;
pub mod check;
pub mod compare;
pub mod count;
pub mod decode;
pub mod environment;
pub mod failure;
pub mod generate;
pub mod meta;
pub mod progress;
pub mod render;
pub mod scaling;
pub mod searching;
pub mod serve;
pub mod signals;
pub mod solve;
pub mod sweep;
// The library's English for counts ("1 solution", "2 solutions"): one text for both, so the
// command's messages and the library's agree.
pub use sokuc_puzzles::words;

use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::sync::LazyLock;
use std::time::Duration;

use clap::{Args, ValueEnum};

use sokuc::Encoding as PbEncoding;
use sokuc::Error;
use sokuc::InputError;
use sokuc::LpMode;

/// Every command returns its exit code, or the one error type (mapped in `main`).
pub type Exit = Result<u8, Error>;

/// `--backend`'s help, naming the backends compiled into this build.
pub static BACKEND_HELP: LazyLock<String> = LazyLock::new(|| {
    format!(
        "Backend: auto (the default: picks one per instance, see encodings/auto.md) or {} (this build; sat is varisat, mip is CBC, highs is HiGHS, cp is pumpkin, mitm meets in the middle, search is sokuc's own)",
        sokuc::backends().join(", ")
    )
});

/// The same for commands that run several backends.
pub static BACKENDS_HELP: LazyLock<String> = LazyLock::new(|| {
    format!(
        "Backends, comma-separated: any of {} (this build)",
        sokuc::backends().join(", ")
    )
});

/// `certify --backend`'s help: the backends of this build that write DRAT proofs.
pub static PROOF_BACKEND_HELP: LazyLock<String> = LazyLock::new(|| {
    format!(
        "A backend that writes DRAT proofs: {} (this build)",
        sokuc::Backend::available()
            .into_iter()
            .filter(|b| b.writes_proofs())
            .map(sokuc::Backend::name)
            .collect::<Vec<_>>()
            .join(", ")
    )
});

/// `--kind`'s help, naming the kinds.
pub static KIND_HELP: LazyLock<String> = LazyLock::new(|| {
    format!(
        "Puzzle kind, when the file's extension does not say it (or for `-`): {}",
        sokuc::kinds_described()
    )
});

/// The puzzle a command works on: a file (or `-`), or IcoSoKu pegs.
#[derive(Args, Clone)]
pub struct PuzzleArgs {
    /// Puzzle file: .toml (3SoKu, pools), .kakuro, .tt, .opb, .cnf (also .gz, .bz2, .xz); `-`
    /// reads standard input, as does no file (and no --pegs) when standard input is not a
    /// terminal.
    pub instance: Option<PathBuf>,
    /// IcoSoKu pegs for vertices A..L, e.g. 1,5,11,10,7,12,9,2,6,8,4,3 (instead of a file).
    #[arg(long)]
    pub pegs: Option<String>,
    #[arg(long, help = KIND_HELP.as_str())]
    pub kind: Option<String>,
}

impl PuzzleArgs {
    /// The instance the arguments name, through the library's facade.
    pub fn instance(&self) -> Result<sokuc::Instance, Error> {
        match (&self.instance, &self.pegs) {
            (Some(_), Some(_)) => {
                Err(InputError::new("command line", None, "give an instance file or --pegs, not both").into())
            }
            // Nothing named: standard input, when something is piped into it.
            (None, None) if !std::io::stdin().is_terminal() => sokuc::Instance::read_stdin(self.kind.as_deref()),
            (None, None) => Err(InputError::new(
                "command line",
                None,
                "no puzzle: give an instance file (`-` for standard input) or --pegs",
            )
            .into()),
            (None, Some(p)) => sokuc::Instance::icosoku(p),
            (Some(path), None) => match &self.kind {
                Some(kind) => sokuc::Instance::read_as(path, kind),
                None => sokuc::Instance::read(path),
            },
        }
    }
}

/// How the model is built: the same options for solving, exporting and decoding.
#[derive(Args, Clone, Copy)]
pub struct EncodingArgs {
    /// How linear constraints (vertex sums, tile counts, pseudo-Boolean rows) become clauses.
    #[arg(long, value_enum, default_value_t = PbEncodingArg::Auto)]
    pub pb_encoding: PbEncodingArg,
    /// Presolve before solving: necessary conditions and domain filtering (3SoKu); what the
    /// rows force at the root fixed, and the rows simplified (OPB, CNF).
    #[arg(long, value_enum, default_value_t = OnOff::On)]
    pub presolve: OnOff,
    /// LP relaxation before the backend: when the relaxation of the 0/1 model has no
    /// solution (checked exactly, with Farkas multipliers), the answer is unsat and the
    /// reason names the rows. auto: on models of at most 100 constraints (every 3SoKu and
    /// pool model), unless a DRAT proof is asked for; on: up to 400.
    #[arg(long, value_enum, default_value_t = LpArg::Auto)]
    pub lp: LpArg,
    /// Clause budget of the CNF encoding: a larger model is refused with a clear error
    /// instead of exhausting memory.
    #[arg(long, default_value_t = sokuc::DEFAULT_MAX_CLAUSES, value_parser = whole::<u64>, allow_hyphen_values = true)]
    pub max_clauses: u64,
    /// Memory limit (bytes, or with a K, M, G or T suffix): a model whose estimated size
    /// exceeds it is refused before it is built, and building stops if the process passes it.
    #[arg(long, default_value = "8G", value_parser = sokuc::parse_size)]
    pub max_memory: u64,
}

impl EncodingArgs {
    /// The facade's options with these encoding options, a time limit, the command's
    /// interrupt flag and the environment's tuning.
    pub fn options(&self, time_limit: Option<Duration>) -> sokuc::Options {
        let mut o = sokuc::Options::new()
            .encoding(self.pb_encoding.into())
            .presolve(self.presolve == OnOff::On)
            .lp(self.lp.into())
            .max_clauses(self.max_clauses)
            .max_memory(self.max_memory);
        if let Some(t) = time_limit {
            o = o.timeout(t);
        }
        if let Some(flag) = signals::flag() {
            o = o.interrupt(flag);
        }
        environment::tuned(o)
    }
}

/// The encodings, as the command line names them (the encoder itself knows nothing of clap).
#[derive(Clone, Copy, ValueEnum, PartialEq, Eq)]
pub enum PbEncodingArg {
    /// Per row, from size estimates: domain while it fits half the clause budget left (every
    /// puzzle row), else bdd while its diagram is small, else adder.
    Auto,
    /// Domain-aware: terms that share an exactly-one/at-most-one group become one small
    /// integer (order-encoded "weight at this corner"), then a running unary sum.
    Domain,
    /// Generic sequential weight counter over the raw literals.
    Swc,
    /// Generic generalized totalizer (balanced tree of unary adders) over the raw literals.
    Totalizer,
    /// Reduced ordered decision diagram (BDD, or MDD over domain groups) with interval
    /// memoisation: arc consistent, may be exponential.
    Bdd,
    /// Binary adder network and comparator: polynomial in the coefficients' bits.
    Adder,
}

impl From<PbEncodingArg> for PbEncoding {
    fn from(a: PbEncodingArg) -> PbEncoding {
        match a {
            PbEncodingArg::Auto => PbEncoding::Auto,
            PbEncodingArg::Domain => PbEncoding::Domain,
            PbEncodingArg::Swc => PbEncoding::Swc,
            PbEncodingArg::Totalizer => PbEncoding::Totalizer,
            PbEncodingArg::Bdd => PbEncoding::Bdd,
            PbEncodingArg::Adder => PbEncoding::Adder,
        }
    }
}

/// `--lp`, as the command line names it (the run path's [`LpMode`] knows nothing of clap).
#[derive(Clone, Copy, ValueEnum, PartialEq, Eq)]
pub enum LpArg {
    Auto,
    On,
    Off,
}

impl From<LpArg> for LpMode {
    fn from(a: LpArg) -> LpMode {
        match a {
            LpArg::Auto => LpMode::Auto,
            LpArg::On => LpMode::On,
            LpArg::Off => LpMode::Off,
        }
    }
}

impl LpArg {
    pub fn name(self) -> &'static str {
        match self {
            LpArg::Auto => "auto",
            LpArg::On => "on",
            LpArg::Off => "off",
        }
    }
}

#[derive(Clone, Copy, ValueEnum, PartialEq, Eq)]
pub enum OnOff {
    On,
    Off,
}

/// Which exit codes a run's answer ends with (`--exit-codes`).
#[derive(Args, Clone, Copy)]
pub struct ExitArgs {
    /// Exit codes of the answer: plain (0 sat, 20 unsat, 30 unknown) or competition (the SAT
    /// competition's, as kissat and cadical: 10 sat, 20 unsat, 0 unknown; 30 for an OPB
    /// objective's proven optimum, as PB solvers exit). Default: competition on CNF and OPB
    /// files, plain on puzzles. Errors keep theirs (2 usage, 1 internal).
    #[arg(long, value_enum, value_name = "TABLE")]
    pub exit_codes: Option<ExitCodes>,
}

#[derive(Clone, Copy, ValueEnum, PartialEq, Eq)]
pub enum ExitCodes {
    Plain,
    Competition,
}

impl ExitArgs {
    /// `code` (the plain table's, for an answer on a puzzle of `kind`) in the chosen table;
    /// `optimal`: a proven optimum.
    pub fn code(&self, kind: &str, code: u8, optimal: bool) -> u8 {
        let competition = match self.exit_codes {
            Some(t) => t == ExitCodes::Competition,
            None => matches!(kind, "cnf" | "opb"),
        };
        if competition {
            sokuc::exit::competition_code(code, optimal)
        } else {
            code
        }
    }
}

/// `--format`: text for people, JSON for programs (one schema, see docs/src/output-formats.md).
#[derive(Clone, Copy, ValueEnum, PartialEq, Eq)]
pub enum Format {
    Text,
    Json,
}

/// The longest `--timeout`: about 31 years, far past any solve, and still a valid [`Duration`].
const MAX_TIMEOUT_SECONDS: f64 = 1e9;

/// Whole-number options: the message says what is allowed, whatever the type's range.
pub fn whole<T: std::str::FromStr + Bounded>(text: &str) -> Result<T, String> {
    text.trim()
        .parse()
        .map_err(|_| format!("not a whole number from 0 to {}", T::MAX_TEXT))
}

pub trait Bounded {
    const MAX_TEXT: &'static str;
}
impl Bounded for u32 {
    const MAX_TEXT: &'static str = "4294967295";
}
impl Bounded for u64 {
    const MAX_TEXT: &'static str = "18446744073709551615";
}
impl Bounded for usize {
    // Options of this type are counts that fit in 64 bits on every supported platform.
    const MAX_TEXT: &'static str = "18446744073709551615";
}

/// `--timeout`: a number of seconds, checked when the arguments are read.
pub fn seconds(text: &str) -> Result<Duration, String> {
    let s: f64 = text
        .trim()
        .parse()
        .map_err(|_| format!("not a number of seconds (give 0 to {MAX_TIMEOUT_SECONDS:e}, e.g. 10 or 0.5)"))?;
    if (0.0..=MAX_TIMEOUT_SECONDS).contains(&s) {
        Ok(Duration::from_secs_f64(s))
    } else {
        Err(format!(
            "the time limit must be from 0 to {MAX_TIMEOUT_SECONDS:e} seconds"
        ))
    }
}

/// `--backend NAME` as the library's [`sokuc::Backend`], if this build has it; refused under
/// the option's name (the library calls it `backend`).
pub fn backend_named(name: &str) -> Result<sokuc::Backend, Error> {
    name.parse::<sokuc::Backend>()
        .and_then(sokuc::Backend::check)
        .map_err(|e| match e {
            Error::Input(e) => Error::Input(InputError::new("--backend", e.line, e.message)),
            e => e,
        })
}

/// `--backend a,b,c`: backends by name, comma separated; a name that is no backend's, or
/// one this build lacks, is refused before anything runs.
pub fn backend_list(list: &str) -> Result<Vec<sokuc::Backend>, Error> {
    let backends = list
        .split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(backend_named)
        .collect::<Result<Vec<sokuc::Backend>, Error>>()?;
    if backends.is_empty() {
        let names: Vec<&str> = sokuc::Backend::available()
            .into_iter()
            .map(sokuc::Backend::name)
            .collect();
        return Err(InputError::new(
            "--backend",
            None,
            format!("no backend named (this build has: {})", names.join(", ")),
        )
        .into());
    }
    Ok(backends)
}

/// Writes `text` to `output` (atomically, never onto an input) or to standard output.
pub fn write_out(output: Option<&Path>, text: &str) -> Result<(), Error> {
    match output {
        Some(p) => sokuc::output::write_atomic(p, |w| w.write_all(text.as_bytes()))?,
        None => std::io::stdout().lock().write_all(text.as_bytes())?,
    }
    Ok(())
}

/// One line (or block) on standard output; a closed pipe is an `Io` error that ends the
/// command quietly.
pub fn print(text: impl std::fmt::Display) -> Result<(), Error> {
    writeln!(std::io::stdout().lock(), "{text}")?;
    Ok(())
}
